import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CONFIG_VARIABLES } from '../../server/config.js';
import { REPO_ROOT } from '../support/paths.js';

/** process.env without anything the service reads, so a developer's shell (OLLAMA_URL, S3_* or MINIO_*, ...) cannot change outcomes. */
function envWithoutServiceVariables(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return env;
}

/** `npm start` with a wrong or partial setting must stop at once, naming the variable, before touching anything. */
describe('server start with a bad configuration', function () {
  this.timeout(60_000);
  let dataDir: string;
  // A developer's shell with a full stack configured: each of these would complete a partial setting below.
  const shell: Record<string, string> = {
    OLLAMA_URL: 'http://127.0.0.1:9', CHROMA_URL: 'http://127.0.0.1:9', S3_ENDPOINT: 'http://127.0.0.1:9',
    S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', MINIO_ENDPOINT: 'http://127.0.0.1:9', MINIO_ACCESS_KEY: 'a', MINIO_SECRET_KEY: 'b', SUPABASE_URL: 'http://127.0.0.1:9', SUPABASE_ANON_KEY: 'anon',
    AUTH_JWT_SECRET: 'a-developer-secret-0123456789abcdef',
  };
  const saved: Record<string, string | undefined> = {};
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bad-config-'));
    for (const [name, value] of Object.entries(shell)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...envWithoutServiceVariables(), DATA_DIR: dataDir, HOST: '127.0.0.1', ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });

  for (const [env, variable] of [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY: 'a' }, 'S3_SECRET_KEY'],
    // The old names still count, so a half-renamed configuration is caught too.
    [{ MINIO_ENDPOINT: 'http://127.0.0.1:9', MINIO_ACCESS_KEY: 'a' }, 'S3_SECRET_KEY'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9', MINIO_ENDPOINT: 'http://127.0.0.1:10', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' }, 'S3_ENDPOINT'],
    [{ CHROMA_URL: 'http://127.0.0.1:8000' }, 'CHROMA_URL'],
    [{ SUPABASE_ANON_KEY: 'key-without-url' }, 'SUPABASE_URL'],
  ] as [Record<string, string>, string][]) {
    it(`exits 1 naming ${variable} for ${JSON.stringify(env)}`, () => {
      const result = start(env);
      expect(result.status, result.stderr).to.equal(1);
      expect(result.stderr).to.match(new RegExp(`^Configuration error: ${variable}: `, 'm'));
      expect(fs.existsSync(path.join(dataDir, 'doc-chat.sqlite'))).to.equal(false);
    });
  }

  it('exits 1 naming the file when DATA_DIR holds a secret shorter than 32 characters', () => {
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'short-secret-'));
    try {
      fs.writeFileSync(path.join(ownDir, 'jwt-secret'), 'too-short\n');
      const result = start({ DATA_DIR: ownDir, PORT: '0' });
      expect(result.status, result.stdout + result.stderr).to.equal(1);
      expect(result.stdout + result.stderr).to.include(`Secret file ${path.join(ownDir, 'jwt-secret')} holds 9 characters; at least 32 are required`);
    } finally {
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  });
});
