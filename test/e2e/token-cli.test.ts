import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { LocalJwtVerifier } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { REPO_ROOT } from '../support/paths.js';

const run = (args: string[], env: Record<string, string>) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/token.ts', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();

describe('npm run token', function () {
  this.timeout(30_000);

  it('prints a token the service accepts for the given user, with the secret from the environment or DATA_DIR', async () => {
    const secret = 'cli-test-secret-0123456789abcdef-0123';
    expect(await new LocalJwtVerifier(secret).verify(run(['alice'], { AUTH_JWT_SECRET: secret }))).to.deep.equal({ userId: 'alice' });
    expect(await new LocalJwtVerifier(secret).verify(run(['--ttl', '60', 'bob'], { AUTH_JWT_SECRET: secret }))).to.deep.equal({ userId: 'bob' });

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-cli-'));
    try {
      const token = run(['carol'], { DATA_DIR: dataDir, AUTH_JWT_SECRET: '' });
      const generated = fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
      expect(await new LocalJwtVerifier(generated).verify(token)).to.deep.equal({ userId: 'carol' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a --ttl that is not a positive whole number of seconds, exiting 2 with a clear message', () => {
    const env = { ...process.env, AUTH_JWT_SECRET: 'cli-test-secret-0123456789abcdef-0123' };
    for (const ttl of ['1.5', '0', '-60', 'abc', '']) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/token.ts', 'alice', '--ttl', ttl], { cwd: REPO_ROOT, env, encoding: 'utf8' });
      expect(result.status, `--ttl ${ttl}`).to.equal(2);
      expect(result.stdout, `--ttl ${ttl}`).to.equal('');
      expect(result.stderr).to.include('--ttl must be a positive whole number of seconds');
    }
    const missing = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/token.ts', 'alice', '--ttl'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(missing.status).to.equal(2);
    expect(missing.stderr).to.include('--ttl must be a positive whole number of seconds');
  });

  it('explains its usage when the user id is missing', () => {
    expect(() => execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/token.ts'], { cwd: REPO_ROOT, stdio: 'pipe' })).to.throw(/usage: npm run token/);
  });
});
