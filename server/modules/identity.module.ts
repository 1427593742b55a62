import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { IdentityVerifier } from '../../core/ports/identity-verifier.js';
import { LocalJwtVerifier } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { loadOrCreateSecret } from '../../adapters/system/secret-file.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import { lifecycleOf, type Lifecycle } from './lifecycle.js';

/** Who a bearer token belongs to: verified locally (HS256 secret), or resolved by Supabase. */
export async function identityModule(config: Config): Promise<ContainerModule> {
  const auth = config.auth;
  if (auth.kind === 'supabase') {
    const { SupabaseIdentityVerifier } = await import('../../adapters/supabase/supabase-identity-verifier.js');
    return new ContainerModule(({ bind }) => {
      const verifier = new SupabaseIdentityVerifier({ url: auth.url, anonKey: auth.anonKey, refusalCacheTtlMs: auth.refusalCacheMs });
      bind<IdentityVerifier>(TOKENS.IdentityVerifier).toConstantValue(verifier);
      bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue(lifecycleOf('identity provider (Supabase)', verifier));
    });
  }
  return new ContainerModule(({ bind }) => {
    bind<IdentityVerifier>(TOKENS.IdentityVerifier).toDynamicValue(
      () => new LocalJwtVerifier(auth.jwtSecret ?? loadOrCreateSecret(path.join(config.dataDir, 'jwt-secret'))),
    );
  });
}
