/**
 * `npm run token -- <user-id> [--ttl <seconds>]`: prints a token the running service accepts (local JWT mode),
 * signed with AUTH_JWT_SECRET or the secret generated in DATA_DIR, for trying the API with curl.
 */
import path from 'node:path';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { loadOrCreateSecret } from '../../adapters/system/secret-file.js';
import { ConfigError, loadConfig } from '../config.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const ttlAt = args.indexOf('--ttl');
  const ttl = ttlAt >= 0 ? Number(args[ttlAt + 1]) : 24 * 3600;
  const userId = (ttlAt >= 0 ? args.filter((_, i) => i !== ttlAt && i !== ttlAt + 1) : args)[0];
  // A JWT's exp is a whole number of seconds; a fractional one is refused by some verifiers.
  if (!Number.isSafeInteger(ttl) || ttl <= 0) {
    process.stderr.write(`--ttl must be a positive whole number of seconds (got ${JSON.stringify(args[ttlAt + 1] ?? '')})\n`);
    process.exit(2);
  }
  if (!userId) {
    process.stderr.write('usage: npm run token -- <user-id> [--ttl <seconds>]\n');
    process.exit(2);
  }
  const config = loadConfig();
  if (config.auth.kind !== 'local') {
    process.stderr.write('SUPABASE_URL is set: tokens come from your Supabase project (sign in there), not from this command.\n');
    process.exit(2);
  }
  const secret = config.auth.jwtSecret ?? loadOrCreateSecret(path.join(config.dataDir, 'jwt-secret'));
  process.stdout.write(`${await signLocalToken(secret, userId, { expiresInSeconds: ttl })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
