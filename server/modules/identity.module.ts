import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { IdentityVerifier } from '../../core/ports/identity-verifier.js';
import { LocalJwtVerifier } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { loadOrCreateSecret } from '../../adapters/system/secret-file.js';
import { optional, setting } from '../config/variables.js';
import { httpUrl, minLength, positiveInt, text } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';

const SUPABASE_URL = optional('SUPABASE_URL', httpUrl, 'Supabase project that resolves bearer tokens (unset: local HS256 tokens); needs SUPABASE_ANON_KEY', { defaultText: '(local tokens)' });
const SUPABASE_ANON_KEY = optional('SUPABASE_ANON_KEY', text, 'The Supabase project\'s anon key', { secret: true });
const SUPABASE_REFUSAL_CACHE_MS = setting('SUPABASE_REFUSAL_CACHE_MS', positiveInt(3_600_000), 30_000, 'How long a token Supabase refused is refused without asking again');
const AUTH_JWT_SECRET = optional('AUTH_JWT_SECRET', minLength(32), 'HS256 secret of local tokens, at least 32 characters', { defaultText: '(generated in DATA_DIR/jwt-secret)', secret: true });

export interface IdentitySection {
  auth: { kind: 'local'; jwtSecret?: string } | { kind: 'supabase'; url: string; anonKey: string; refusalCacheMs: number };
}

/** Who a bearer token belongs to: verified locally (HS256 secret), or resolved by Supabase. */
export const identityModule: ServiceModule<IdentitySection> = {
  family: 'identity',
  variables: [AUTH_JWT_SECRET, SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_REFUSAL_CACHE_MS],
  configure(env): IdentitySection {
    if (!env.together([SUPABASE_URL, SUPABASE_ANON_KEY])) {
      env.forbidWithout([SUPABASE_REFUSAL_CACHE_MS], SUPABASE_URL);
      return { auth: { kind: 'local', jwtSecret: env.read(AUTH_JWT_SECRET) } };
    }
    return {
      auth: { kind: 'supabase', url: env.read(SUPABASE_URL)!, anonKey: env.read(SUPABASE_ANON_KEY)!, refusalCacheMs: env.read(SUPABASE_REFUSAL_CACHE_MS) },
    };
  },
  async bindings(config) {
    const auth = config.auth;
    if (auth.kind === 'supabase') {
      const { SupabaseIdentityVerifier } = await import('../../adapters/supabase/supabase-identity-verifier.js');
      const verifier = new SupabaseIdentityVerifier({ url: auth.url, anonKey: auth.anonKey, refusalCacheTtlMs: auth.refusalCacheMs });
      return new ContainerModule(({ bind }) => {
        bind<IdentityVerifier>(TOKENS.IdentityVerifier).toConstantValue(verifier);
        bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'identity provider (Supabase)', probe: () => verifier.check() });
      });
    }
    return new ContainerModule(({ bind }) => {
      bind<IdentityVerifier>(TOKENS.IdentityVerifier).toDynamicValue(
        () => new LocalJwtVerifier(auth.jwtSecret ?? loadOrCreateSecret(path.join(config.dataDir, 'jwt-secret'))),
      );
    });
  },
  // A worker verifies no token.
  started: (config) => (config.role === 'worker' ? {} : { auth: config.auth.kind }),
};
