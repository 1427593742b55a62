import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const closing = new WeakSet<Socket>();

/** This connection's answer said `Connection: close`: no further request on it may be served (RFC 9112 §9.6). */
export function isClosing(socket: Socket): boolean {
  return closing.has(socket);
}

/**
 * Answers `Connection: close` when the answer starts before the request body was all received (an upload PUT refused
 * part-way, a 413, a 401 before the body): the rest of that body is still on its way, and a next request on the
 * connection would be read as part of it or wait behind it. Then closes the connection gently (`closeAfterBody`).
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse, graceMs: number): void {
  const writeHead = res.writeHead;
  // Every answer's head goes through writeHead (Node calls it for an implicit head too), so this sees each one once.
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.complete) {
      this.setHeader('Connection', 'close');
      closeAfterBody(req, graceMs);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * Node ends a connection whose answer said close by destroying its socket once the answer is written. While the client
 * is still sending its body that resets the connection, and a reset can make the client's TCP stack drop our answer
 * unread. Instead, a lingering close (as nginx does): the answer and a FIN, the rest of the body read and dropped, and
 * the socket closed once the body is all in (`graceMs` later, for a client that does not close its side first). The
 * body timeout (client-limits.ts) ends a client that never finishes its body.
 */
function closeAfterBody(req: IncomingMessage, graceMs: number): void {
  const socket = req.socket;
  if (closing.has(socket)) return;
  closing.add(socket);
  socket.destroySoon = () => {
    socket.end();
    req.resume();
    const close = () => setTimeout(() => socket.destroy(), graceMs).unref();
    if (req.complete) close();
    else req.once('end', close);
  };
}
