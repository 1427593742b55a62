import type { AuthConfig } from './types';

const TOKEN_KEY = 'doc-chat.token';

/**
 * The access token lives in sessionStorage (this tab only, gone when it closes). A `#token=` in the address signs in
 * and is removed from the address bar at once, before any request, so it never lands in history, a log or a Referer.
 */
export function takeTokenFromAddress(): string | undefined {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match) return undefined;
  const token = decodeURIComponent(match[1]);
  history.replaceState(history.state, '', location.pathname + location.search);
  return token;
}

export const storedToken = (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined;
export const storeToken = (token: string) => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

export async function fetchAuthConfig(): Promise<AuthConfig> {
  try {
    const response = await fetch('/api/v1/auth/config', { headers: { Accept: 'application/json' } });
    if (response.ok) return (await response.json()) as AuthConfig;
  } catch {
    // Unreachable server: the local form still lets the user try a token.
  }
  return { mode: 'local' };
}

type SupabaseClient = import('@supabase/supabase-js').SupabaseClient;
let supabase: Promise<SupabaseClient> | undefined;

/**
 * supabase-js is large and only Supabase mode needs it: it is loaded on demand (its own chunk). It refreshes the
 * token before it expires and reports each new one through `onToken`.
 */
export function supabaseClient(config: Extract<AuthConfig, { mode: 'supabase' }>, onToken: (token: string | undefined) => void) {
  supabase ??= import('@supabase/supabase-js').then(({ createClient }) => {
    const client = createClient(config.supabaseUrl, config.supabaseAnonKey, {
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false, storage: sessionStorage },
    });
    client.auth.onAuthStateChange((_event, session) => onToken(session?.access_token));
    return client;
  });
  return supabase;
}
