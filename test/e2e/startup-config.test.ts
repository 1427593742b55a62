import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';

/** `npm start` with a wrong or partial setting must stop at once, naming the variable, before touching anything. */
describe('server start with a bad configuration', function () {
  this.timeout(60_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bad-config-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });

  for (const [env, variable] of [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ MINIO_ENDPOINT: 'http://127.0.0.1:9', MINIO_ACCESS_KEY: 'a' }, 'MINIO_SECRET_KEY'],
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
});
