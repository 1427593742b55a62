import path from 'node:path';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { loadOrCreateSecret } from '../../adapters/system/secret-file.js';
import { loadConfig } from '../config.js';
import { CliError } from './cli-error.js';

export const DEFAULT_TOKEN_TTL_SECONDS = 24 * 3600;
export const TTL_ERROR = '--ttl must be a positive whole number of seconds';

/** A JWT's exp is a whole number of seconds; a fractional one is refused by some verifiers. */
export function parseTtl(raw: string | undefined): number {
  const ttl = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isSafeInteger(ttl) || ttl <= 0) {
    throw new CliError(`${TTL_ERROR} (got ${JSON.stringify(raw ?? '')})`, 2);
  }
  return ttl;
}

/**
 * A token the service configured by this environment accepts (local JWT mode), signed with AUTH_JWT_SECRET or the
 * secret generated in DATA_DIR: for `npm run token` and `doc-chat token`. Throws ConfigError on a bad setting.
 */
export async function issueLocalToken(userId: string, ttlSeconds: number): Promise<string> {
  const config = loadConfig();
  if (config.auth.kind !== 'local') {
    throw new CliError('SUPABASE_URL is set: tokens come from your Supabase project (sign in there), not from this command.', 2);
  }
  const secret = config.auth.jwtSecret ?? loadOrCreateSecret(path.join(config.dataDir, 'jwt-secret'));
  return signLocalToken(secret, userId, { expiresInSeconds: ttlSeconds });
}
