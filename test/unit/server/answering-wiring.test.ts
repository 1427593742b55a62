import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildContainer, TOKENS } from '../../../server/container.js';
import { loadConfig } from '../../../server/config.js';

/** Where a question's retrieval runs, by configuration (server/modules/answering.module.ts). */
describe('answering wiring: whole questions on the answer pool', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-wiring-'))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const grounded = async (env: Record<string, string>) =>
    (await buildContainer(loadConfig({ DATA_DIR: dataDir, AUTH_JWT_SECRET: 'wiring-test-secret-0123456789abcdef0123', ...env }))).isBound(TOKENS.GroundedAnswerer);

  it('on the embedded stack with the pool, the extractive answerer and the lexical index alone', async () => {
    expect(await grounded({})).to.equal(true);
  });

  it('not without the pool, nor with the embedded dense index (its threads search only the lexical one)', async () => {
    expect(await grounded({ ANSWER_POOL_THREADS: '0' })).to.equal(false);
    expect(await grounded({ EMBEDDED_DENSE: 'on' })).to.equal(false);
  });
});
