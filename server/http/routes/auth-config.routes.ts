import Router from '@koa/router';

/** How a browser signs in: with a token it is given (local JWT mode), or through Supabase Auth with its public anon key. */
export type AuthConfigJson = { mode: 'local' } | { mode: 'supabase'; supabaseUrl: string; supabaseAnonKey: string };

/**
 * GET /auth/config, public: the web app reads it before it has a token. The Supabase anon key is public by design
 * (it only identifies the project; row-level rules and the user's own token grant access), so nothing secret is here.
 */
export function authConfigRoutes(config: AuthConfigJson): Router {
  const router = new Router();
  router.get('/auth/config', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = config;
  });
  return router;
}
