import { useState } from 'preact/hooks';
import { supabaseClient } from './auth';
import type { AuthConfig } from './types';

/** Local mode: paste a token (`doc-chat open` prints a /#token= link instead). Supabase mode: email and password. */
export function SignIn({ config, message, onToken }: { config: AuthConfig; message?: string; onToken(token: string): void }) {
  const [token, setToken] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    if (config.mode === 'local') {
      if (!token.trim()) return setError('Enter an access token.');
      return onToken(token.trim());
    }
    setBusy(true);
    try {
      const client = await supabaseClient(config, () => {});
      const { data, error: refused } = await client.auth.signInWithPassword({ email, password });
      if (refused || !data.session) setError(refused?.message ?? 'Sign-in failed.');
      else onToken(data.session.access_token);
    } catch {
      setError('The identity provider could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>doc-chat</h1>
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        {message && <p class="notice" role="alert">{message}</p>}
        {config.mode === 'local' ? (
          <>
            <label for="access-token">Access token</label>
            <input id="access-token" type="text" autocomplete="off" spellcheck={false} value={token} onInput={(e) => setToken(e.currentTarget.value)} />
            <p class="hint">Run <code>doc-chat open</code> on the server for a sign-in link, or paste a token here.</p>
          </>
        ) : (
          <>
            <label for="email">Email</label>
            <input id="email" type="email" autocomplete="username" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required />
            <label for="password">Password</label>
            <input id="password" type="password" autocomplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} required />
          </>
        )}
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
    </main>
  );
}
