import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Logger } from '../../core/ports/logger.js';
import type { HttpLimits } from '../config.js';
import { clientKey, requestClientAddress } from './client-address.js';
import { ConnectionCap, CountPerKey } from './connection-cap.js';
import { closeIfBodyUnread, isClosing } from './unread-body.js';

const BODY_TIMEOUT_BODY = JSON.stringify({ error: 'Request body not received in time' });

/**
 * Node's own timeouts: headers (also a connection that never sends a request), idle keep-alive connections, and the
 * whole request as a backstop sized for the longest (upload) body. Node checks them every connectionsCheckingInterval
 * (30 s by default, far too coarse for a 10 s headers timeout), so that follows the headers timeout.
 */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.headersTimeoutMs + Math.max(limits.bodyTimeoutMs, limits.uploadBodyTimeoutMs),
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** A request the client limits refuse: the app answers it 503 with Retry-After (see `requestRefusal`). */
export interface RequestRefusal {
  message: string;
  /** The connection itself is over a cap: the answer closes it. */
  closeConnection: boolean;
}

const refusals = new WeakMap<IncomingMessage, RequestRefusal>();

/** Why `limitClients` refuses this request, if it does; the app answers it in its own error shape and logging. */
export function requestRefusal(req: IncomingMessage): RequestRefusal | undefined {
  return refusals.get(req);
}

/**
 * Serves `handle` on `server` within what Node cannot limit per route or per client:
 * - open connections per socket address (IPv6 per /56) and in all; a connection over a cap is answered 503 with
 *   Retry-After and closed (connection-cap.ts). Behind a trusted proxy its sockets carry many clients: there the
 *   per-client cap counts the requests in progress per forwarded address instead, and only the total caps sockets;
 * - an answer sent before its request body was all received closes the connection (unread-body.ts);
 * - a body timeout (short for the API, long for uploads, chosen by `isLongBody`) that answers 408 and closes the
 *   connection, also when the request was answered before its body finished.
 */
export function limitClients(server: Server, handle: RequestListener, limits: HttpLimits, options: { logger: Logger; isLongBody(req: IncomingMessage): boolean }): void {
  const connections = new ConnectionCap({ total: limits.maxConnections, perAddress: limits.trustProxy ? undefined : limits.maxConnectionsPerClient });
  server.on('connection', (socket) => connections.admit(socket));
  const inFlight = limits.trustProxy ? new CountPerKey() : undefined;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A request sent after an answer that closes the connection is not served; the connection is closing.
    if (isClosing(req.socket)) return;
    closeIfBodyUnread(req, res, limits.idleTimeoutMs);
    limitBodyTime(req, res, options.isLongBody(req) ? limits.uploadBodyTimeoutMs : limits.bodyTimeoutMs, options.logger);
    const overCap = connections.refusalOf(req.socket);
    if (overCap !== undefined) refusals.set(req, { message: overCap, closeConnection: true });
    else if (inFlight) countInFlight(req, res, inFlight, limits.maxConnectionsPerClient);
    handle(req, res);
  });
}

/** Behind a trusted proxy: counts the request under its forwarded address until answered, or refuses it over `max`. */
function countInFlight(req: IncomingMessage, res: ServerResponse, inFlight: CountPerKey, max: number): void {
  const client = clientKey(requestClientAddress(req, true));
  if (inFlight.get(client) >= max) {
    refusals.set(req, { message: `Too many requests in progress from this address (at most ${max} at once); try again shortly`, closeConnection: false });
    return;
  }
  inFlight.add(client);
  // An answer ends with res 'close'; a socket that closes first ends it too (a pipelined answer still queued behind
  // another gets no 'close' of its own), so the count cannot leak.
  const socket = req.socket;
  const release = () => {
    res.off('close', release);
    socket.off('close', release);
    inFlight.remove(client);
  };
  res.once('close', release);
  socket.once('close', release);
}

function limitBodyTime(req: IncomingMessage, res: ServerResponse, ms: number, logger: Logger): void {
  const timer = setTimeout(() => {
    if (req.complete || req.socket.destroyed) return;
    logger.info('request body not received in time', { method: req.method, path: req.url?.split('?')[0], timeoutMs: ms });
    // Destroying the unfinished request closes the connection and ends a body parser still waiting on it ("request
    // aborted"), so the handler's promise settles instead of hanging on a stream that will never end.
    if (res.headersSent) {
      req.destroy();
      return;
    }
    res.writeHead(408, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
    res.end(BODY_TIMEOUT_BODY, () => req.destroy());
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  res.once('finish', () => req.complete && clear());
}
