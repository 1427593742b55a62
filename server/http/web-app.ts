import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Middleware, Next } from 'koa';
import serve from 'koa-static';

/** App routes answered with index.html (the app routes itself): the start page and a session's address. */
const APP_ROUTE = /^\/(sessions(\/[^/]+)?\/?)?$/;
const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface WebAppOptions {
  /** The built app (index.html and assets/); see webAppDir(). */
  dir: string;
  /** Origins besides 'self' the app may connect to: the object store clients upload to, the identity provider. */
  connectOrigins: string[];
}

/**
 * Where `npm run build` put the web app: dist/web, found from this module both when run from source
 * (server/http) and from the build (dist/server/http).
 */
export function webAppDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, '../../dist/web'), path.resolve(here, '../../web')].find((dir) => fs.existsSync(path.join(dir, 'index.html')));
}

/**
 * The Content-Security-Policy of the app: scripts and styles from this origin only (no inline script), images from
 * here or blob:/data: URLs (page images are fetched with the token and shown as blob: URLs), connections to this
 * origin plus the object store and identity provider the browser talks to directly.
 */
export function contentSecurityPolicy(connectOrigins: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    `connect-src ${["'self'", ...connectOrigins].join(' ')}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Serves the web app at `/`: hashed assets cached for a year (immutable: their names change with their content),
 * index.html never cached, for `/` and `/sessions/<id>` only — never for /api/, /metrics or the upload route.
 */
export function webApp(options: WebAppOptions): Middleware {
  const csp = contentSecurityPolicy(options.connectOrigins);
  const assets = serve(options.dir, { index: false, maxage: YEAR_MS, immutable: true, gzip: false, brotli: false });
  const indexFile = path.join(options.dir, 'index.html');
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/assets/')) {
      ctx.set('X-Content-Type-Options', 'nosniff');
      // A missing asset falls through to the 404 below, not to index.html.
      return assets(ctx, async () => {
        ctx.status = 404;
        ctx.body = 'Not found';
      });
    }
    if (!APP_ROUTE.test(ctx.path)) return next();
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    // Read per request: small, and a rebuilt app is picked up without a restart.
    ctx.body = await fs.promises.readFile(indexFile);
  };
}
