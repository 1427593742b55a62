import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/**
 * The key per-client limits count under: an IPv4 address as it is (also when IPv4-mapped, `::ffff:1.2.3.4`), an IPv6
 * address by its /56 prefix (as express-rate-limit does), since one customer commonly holds a /56 or more and could
 * otherwise spread itself over the addresses of its own network.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const bare = address.split('%')[0]; // drop a zone id (fe80::1%eth0)
  if (!isIPv6(bare)) return address;
  const [head, tail] = bare.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  // 56 bits: three whole groups and the high byte of the fourth.
  const prefix = groups.slice(0, 3).map((g) => parseInt(g, 16).toString(16));
  const fourth = ((parseInt(groups[3], 16) >> 8) << 8).toString(16);
  return `${[...prefix, fourth].join(':')}::/56`;
}

/**
 * The client's address as Koa's `ctx.ip` gives it with `app.proxy = trustProxy` and `app.maxIpsCount = 1` (server/http/
 * app.ts), for the limits applied before Koa sees the request: behind a trusted proxy the last X-Forwarded-For entry
 * (the one that proxy appended), else, or without one, the socket's peer.
 */
export function requestClientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').at(-1)?.trim();
  return last || (req.socket.remoteAddress ?? '');
}
