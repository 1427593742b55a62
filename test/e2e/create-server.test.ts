import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { createServer, loadConfig } from '../../server/index.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

describe('createServer(config) from doc-chat/server: start and stop from code', function () {
  this.timeout(30_000);
  let dataDir: string;
  before(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-create-server-'))));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts once however often start() is called, keeps data across a stop and a new start, and stops listening', async () => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_JWT_SECRET: SECRET });
    const server = createServer(config, { logger: new RecordingLogger() });
    expect(server.running).to.equal(undefined);

    const [first, second] = await Promise.all([server.start(), server.start()]);
    expect(second).to.equal(first);
    expect(server.running).to.equal(first);
    expect((await fetch(`${first.url}/api/v1/health`)).status).to.equal(200);
    const auth = { authorization: `Bearer ${await signLocalToken(SECRET, 'carol')}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/api/v1/session/`, { method: 'POST', headers: auth, body: JSON.stringify({ label: 'kept' }) });
    expect(created.status).to.equal(201);

    await server.stop();
    expect(server.running).to.equal(undefined);
    const refused = await fetch(`${first.url}/api/v1/health`).then(() => 'answered', () => 'refused');
    expect(refused).to.equal('refused');

    const again = await server.start();
    try {
      expect(again).to.not.equal(first);
      const listed = await fetch(`${again.url}/api/v1/session/`, { headers: auth });
      expect(((await listed.json()) as { label: string }[]).map((s) => s.label)).to.deep.equal(['kept']);
    } finally {
      await server.stop();
    }
  });

  it('a start that fails (DATA_DIR is a file) rejects, leaves nothing running, and start() can be tried again', async () => {
    const blocker = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-create-server-file-'));
    const notADirectory = path.join(blocker, 'file');
    fs.writeFileSync(notADirectory, 'not a directory');
    try {
      const server = createServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: notADirectory, AUTH_JWT_SECRET: SECRET }), {
        logger: new RecordingLogger(),
      });
      const failure = await server.start().then(() => undefined, (error: unknown) => error);
      expect(failure).to.be.instanceOf(Error);
      expect(server.running).to.equal(undefined);
      const retried = await server.start().then(() => undefined, (error: unknown) => error);
      expect(retried, 'a second start() tries again rather than returning the first failure').to.be.instanceOf(Error);
      expect(retried).to.not.equal(failure);
      await server.stop();
    } finally {
      fs.rmSync(blocker, { recursive: true, force: true });
    }
  });
});
