import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { embeddedStack, STACKS } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

function database(t: TestService): SqliteDatabase {
  return t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
}

const put = (url: string, body: Uint8Array) => fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'application/pdf' } });

async function signedUrl(client: ApiClient, bytes: Uint8Array) {
  const res = await client.post('/api/v1/ingest/upload/url', { filename: 'fees.pdf', contentType: 'application/pdf', contentSize: bytes.length });
  expect(res.status, res.text).to.equal(200);
  return res.body.uploadData as { signedUrl: string; key: string };
}

/** GLOBEX's bytes cut or padded to `length`, so a replay can send other content of the signed size. */
function otherBytesOfLength(length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(GLOBEX.bytes.subarray(0, Math.min(length, GLOBEX.bytes.length)));
  return out;
}

// Issue 11: uploads are single-use and owned; session deletion is atomic; files are private; limits apply.
for (const makeStack of STACKS) {
  const stack = makeStack();

  describe(`upload security (${stack.name} stack)`, function () {
    this.timeout(120_000);
    let t: TestService;
    let alice: ApiClient;

    before(async () => {
      t = await stack.start();
      alice = await t.as('alice');
    });
    after(() => stack.close());

    it('a replayed upload URL cannot change what was ingested', async () => {
      const sessionId = await alice.createSession('replay');
      const { signedUrl: url, key } = await signedUrl(alice, ACME.bytes);
      expect((await put(url, ACME.bytes)).status).to.equal(200);
      const job = await alice.waitForJob(await alice.ingest(sessionId, key, 'fees.pdf'));
      expect(job.status).to.equal('completed');

      const replay = await put(url, otherBytesOfLength(ACME.bytes.length));
      const again = await alice.post('/api/v1/ingest/process', { key, filename: 'fees.pdf', session_id: sessionId, tags: {} });
      if (stack.name === 'embedded') {
        // The app's own upload route refuses a second PUT: the stored file stays the first one.
        expect(replay.status).to.equal(409);
        expect(((await replay.json()) as { error: string }).error).to.match(/already been used/);
        expect(again.status, again.text).to.equal(201);
      } else {
        // S3 accepts the replay until the URL expires; the ingest notices the changed object and refuses it.
        expect(replay.status).to.equal(200);
        expect(again.status, again.text).to.equal(409);
        expect(again.body.error).to.match(/changed after it was first ingested/);
      }
    });

    it('a user whose id looks like another user’s hashed key prefix cannot ingest or delete that user’s file', async () => {
      const victimId = 'victim@example.com';
      const forgedId = `u-${createHash('sha256').update(victimId).digest('hex').slice(0, 32)}`;
      const victim = await t.as(victimId);
      const attacker = await t.as(forgedId);
      const victimKey = await victim.upload('victim.pdf', ACME.bytes, 'application/pdf');
      expect(victimKey.startsWith(`${forgedId}/`)).to.equal(true);

      const attackerSession = await attacker.createSession('mine');
      const stolen = await attacker.post('/api/v1/ingest/process', { key: victimKey, filename: 'x.pdf', session_id: attackerSession, tags: {} });
      expect(stolen.status, stolen.text).to.equal(403);

      // A job that references the victim's key (as a database written before ownership was recorded could hold)
      // must not take the victim's file with it when the attacker deletes their session.
      const victimSession = await victim.createSession('theirs');
      await victim.ingest(victimSession, victimKey, 'victim.pdf');
      await t.service.whenIngestionIdle();
      database(t).raw
        .prepare(`INSERT INTO ingest_jobs (id, user_id, session_id, blob_key, filename, content_type, tags_json, status, created_at, updated_at)
                  VALUES ('legacy-job', ?, ?, ?, 'x.pdf', 'application/pdf', '{}', 'completed', ?, ?)`)
        .run(forgedId, attackerSession, victimKey, new Date().toISOString(), new Date().toISOString());
      expect((await attacker.delete(`/api/v1/session/${attackerSession}`)).status).to.equal(204);
      expect(await stack.storedObjectKeys()).to.include(victimKey);
    });

    it('a session whose record deletion failed half-way can be deleted again', async () => {
      const sessionId = await alice.createSession('atomic');
      const { jobId } = await alice.uploadAndIngest(sessionId, 'fees.pdf', ACME.bytes, 'application/pdf');
      await alice.waitForJob(jobId);
      expect((await alice.ask(sessionId, 'What is the monthly maintenance fee?')).status).to.equal(200);
      const raw = database(t).raw;
      raw.exec(`CREATE TEMP TRIGGER fail_job_delete BEFORE DELETE ON ingest_jobs BEGIN SELECT RAISE(FAIL, 'injected failure'); END`);
      try {
        expect((await alice.delete(`/api/v1/session/${sessionId}`)).status).to.equal(500);
      } finally {
        raw.exec('DROP TRIGGER fail_job_delete');
      }
      expect((await alice.get(`/api/v1/chat/history/${sessionId}`)).status).to.equal(200);
      expect((await alice.delete(`/api/v1/session/${sessionId}`)).status).to.equal(204);
      expect(raw.prepare('SELECT count(*) AS n FROM chat_messages WHERE session_id = ?').get(sessionId)).to.deep.equal({ n: 0 });
      expect(raw.prepare('SELECT count(*) AS n FROM ingest_jobs WHERE session_id = ?').get(sessionId)).to.deep.equal({ n: 0 });
    });
  });
}

describe('upload limits (embedded stack)', function () {
  this.timeout(60_000);
  const stack = embeddedStack();
  let t: TestService;
  after(() => stack.close());

  it('refuses an upload URL past the pending-upload limit (429) and past the storage quota (413)', async () => {
    t = await stack.start({ MAX_PENDING_UPLOADS: '2', USER_STORAGE_QUOTA_BYTES: String(3 * ACME.bytes.length) });
    const carol = await t.as('carol');
    await signedUrl(carol, ACME.bytes);
    await signedUrl(carol, ACME.bytes);
    const third = await carol.post('/api/v1/ingest/upload/url', { filename: 'c.pdf', contentType: 'application/pdf', contentSize: ACME.bytes.length });
    expect(third.status, third.text).to.equal(429);
    expect(third.body.error).to.match(/Too many pending uploads/);
    const big = await carol.post('/api/v1/ingest/upload/url', { filename: 'c.pdf', contentType: 'application/pdf', contentSize: 2 * ACME.bytes.length });
    expect(big.status, big.text).to.equal(413);
    expect(big.body.error).to.match(/Storage quota exceeded/);
    // The spec's own 400 for an oversized file still comes first.
    expect((await carol.post('/api/v1/ingest/upload/url', { filename: 'c.pdf', contentType: 'application/pdf', contentSize: 52_428_801 })).status).to.equal(400);
    // Another user has their own allowance.
    await signedUrl(await t.as('dave'), ACME.bytes);
  });
});

describe('private files (embedded stack)', function () {
  this.timeout(60_000);
  const stack = embeddedStack();
  after(() => stack.close());

  it('keeps the database, its WAL, uploaded files and secrets 0600, and their folders 0700', async () => {
    const t = await stack.start();
    const erin = await t.as('erin');
    const sessionId = await erin.createSession('modes');
    const { key, jobId } = await erin.uploadAndIngest(sessionId, 'fees.pdf', ACME.bytes, 'application/pdf');
    await erin.waitForJob(jobId);
    const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
    const dir = t.dataDir;
    const files = ['doc-chat.sqlite', 'doc-chat.sqlite-wal', 'doc-chat.sqlite-shm', 'upload-signing-secret', path.join('blobs', 'objects', key)];
    for (const file of files) expect(mode(path.join(dir, file)), file).to.equal('600');
    const meta = fs.readdirSync(path.join(dir, 'blobs', 'meta', key.split('/')[0]!));
    for (const file of meta) expect(mode(path.join(dir, 'blobs', 'meta', key.split('/')[0]!, file)), file).to.equal('600');
    const folders = ['.', 'blobs', 'blobs/objects', 'blobs/meta', 'blobs/tmp', `blobs/objects/${key.split('/')[0]}`, `blobs/meta/${key.split('/')[0]}`];
    for (const folder of folders) expect(mode(path.join(dir, folder)), folder).to.equal('700');
  });
});
