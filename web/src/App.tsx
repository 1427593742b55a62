import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api } from './api';
import { fetchAuthConfig, forgetToken, isTokenChange, storedToken, storeToken, supabaseClient, takeTokenFromAddress } from './auth';
import { SignIn } from './SignIn';
import { Workspace } from './Workspace';
import type { AuthConfig } from './types';

export const EXPIRED_MESSAGE = 'Your sign-in has expired or was refused. Please sign in again.';

export function App() {
  const [config, setConfig] = useState<AuthConfig | undefined>();
  const [token, setToken] = useState<string | undefined>(() => storedToken());
  const [message, setMessage] = useState<string | undefined>();

  const signOut = (why?: string) => {
    forgetToken();
    setToken(undefined);
    setMessage(why);
    if (config?.mode === 'supabase') void supabaseClient(config, () => {}).then((client) => client.auth.signOut());
  };
  const api = useMemo(() => new Api(() => storedToken(), () => signOut(EXPIRED_MESSAGE)), [config]);

  // Signing in or out in another tab does so here too.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => isTokenChange(e) && setToken(storedToken());
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, []);

  // A #token= link opened in a tab where the app already runs signs in too.
  useEffect(() => {
    const onHash = () => {
      const fresh = takeTokenFromAddress();
      if (!fresh) return;
      storeToken(fresh);
      setMessage(undefined);
      setToken(fresh);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    void fetchAuthConfig().then((loaded) => {
      setConfig(loaded);
      if (loaded.mode === 'supabase') {
        // supabase-js refreshes the token before it expires; each new one replaces the stored one.
        void supabaseClient(loaded, (fresh) => {
          if (fresh) storeToken(fresh);
          else forgetToken();
          setToken(fresh);
        });
      }
    });
  }, []);

  if (!config) return <main class="loading" aria-busy="true"><p>Loading…</p></main>;
  if (!token) {
    return (
      <SignIn
        config={config}
        message={message}
        onToken={(fresh) => {
          storeToken(fresh);
          setMessage(undefined);
          setToken(fresh);
        }}
      />
    );
  }
  return <Workspace api={api} onSignOut={() => signOut()} />;
}
