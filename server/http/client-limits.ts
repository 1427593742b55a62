import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Logger } from '../../core/ports/logger.js';
import type { HttpLimits } from '../config.js';
import { clientKey } from './client-address.js';

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

/**
 * What Node cannot do per route or per client: a body timeout (short for the API, long for uploads, chosen by
 * `isLongBody`) that answers 408 and closes the connection, also when the request was answered before its body
 * finished; and a cap on open connections per socket address (IPv6 per /56; the one closed at once carries no answer).
 */
export function limitClients(server: Server, limits: HttpLimits, options: { logger: Logger; isLongBody(req: IncomingMessage): boolean }): void {
  const openPerAddress = new Map<string, number>();
  server.on('connection', (socket) => {
    if (socket.remoteAddress === undefined) return; // already gone
    const address = clientKey(socket.remoteAddress);
    const open = (openPerAddress.get(address) ?? 0) + 1;
    if (open > limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    openPerAddress.set(address, open);
    socket.once('close', () => {
      const left = (openPerAddress.get(address) ?? 1) - 1;
      if (left > 0) openPerAddress.set(address, left);
      else openPerAddress.delete(address);
    });
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const ms = options.isLongBody(req) ? limits.uploadBodyTimeoutMs : limits.bodyTimeoutMs;
    const timer = setTimeout(() => {
      if (req.complete || req.socket.destroyed) return;
      options.logger.info('request body not received in time', { method: req.method, path: req.url?.split('?')[0], timeoutMs: ms });
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
  });
}
