/**
 * `npm run token -- <user-id> [--ttl <seconds>]`: prints a token the running service accepts (local JWT mode),
 * signed with AUTH_JWT_SECRET or the secret generated in DATA_DIR, for trying the API with curl.
 * `doc-chat token` does the same.
 */
import { ConfigError } from '../config.js';
import { CliError } from './cli-error.js';
import { DEFAULT_TOKEN_TTL_SECONDS, issueLocalToken, parseTtl } from './issue-token.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const ttlAt = args.indexOf('--ttl');
  const ttl = ttlAt >= 0 ? parseTtl(args[ttlAt + 1]) : DEFAULT_TOKEN_TTL_SECONDS;
  const userId = (ttlAt >= 0 ? args.filter((_, i) => i !== ttlAt && i !== ttlAt + 1) : args)[0];
  if (!userId) throw new CliError('usage: npm run token -- <user-id> [--ttl <seconds>]', 2);
  process.stdout.write(`${await issueLocalToken(userId, ttl)}\n`);
}

main().catch((error) => {
  if (error instanceof CliError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
