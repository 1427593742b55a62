import type { Context } from 'koa';

/** A host as an HTTP Host header names one: a name or an IPv4 address, or a bracketed IPv6 address, with a port or not. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin a request came to: its Host header (X-Forwarded-Host and -Proto when TRUST_PROXY trusts a proxy), or
 * undefined when that is missing or not a plain host (a client may send anything there; it only misleads itself).
 */
export function requestOrigin(ctx: Context): string | undefined {
  const host = ctx.host;
  if (!HOST.test(host) || (ctx.protocol !== 'http' && ctx.protocol !== 'https')) return undefined;
  try {
    return new URL(`${ctx.protocol}://${host}`).origin; // also refuses a port past 65535
  } catch {
    return undefined;
  }
}

/** `url` with its origin replaced by `origin` (path and query kept); `url` as it is without one. */
export function atOrigin(url: string, origin: string | undefined): string {
  if (!origin) return url;
  const { pathname, search } = new URL(url);
  return `${origin}${pathname}${search}`;
}
