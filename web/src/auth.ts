import type { AuthConfig } from './types';

const TOKEN_KEY = 'doc-chat.token';
/**
 * How long a stored token is kept at most, whatever its own expiry: a second tab stays signed in, a browser left
 * signed in forgets it within the working day (docs/security.md weighs this against sessionStorage).
 */
export const TOKEN_KEPT_MS = 8 * 60 * 60 * 1000;

/**
 * The access token lives in localStorage, shared by the app's tabs, with a time after which it is dropped: the
 * token's own expiry (`exp`) or TOKEN_KEPT_MS, whichever comes first. A `#token=` in the address signs in and is
 * removed from the address bar at once, before any request, so it never lands in history, a log or a Referer.
 */
export function takeTokenFromAddress(): string | undefined {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match) return undefined;
  const token = decodeURIComponent(match[1]);
  history.replaceState(history.state, '', location.pathname + location.search);
  return token;
}

export function storedToken(now = Date.now()): string | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? 'null') as { token: string; until: number } | null;
    if (stored && typeof stored.token === 'string' && stored.until > now) return stored.token;
  } catch {
    // Not ours, or from an older version: forgotten below.
  }
  localStorage.removeItem(TOKEN_KEY);
  return undefined;
}
export function storeToken(token: string, now = Date.now()): void {
  const exp = tokenExpiry(token);
  localStorage.setItem(TOKEN_KEY, JSON.stringify({ token, until: Math.min(now + TOKEN_KEPT_MS, exp ?? Infinity) }));
}
export const forgetToken = () => localStorage.removeItem(TOKEN_KEY);
/** Another tab signed in or out: the key's change reaches this tab as a storage event. */
export const isTokenChange = (e: StorageEvent) => e.key === TOKEN_KEY || e.key === null;

/** The JWT's `exp` in ms, read without checking its signature (the server checks it; this only bounds the keeping). */
function tokenExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

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
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false, storage: localStorage },
    });
    client.auth.onAuthStateChange((_event, session) => onToken(session?.access_token));
    return client;
  });
  return supabase;
}
