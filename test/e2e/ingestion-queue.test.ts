import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/container.js';
import type { ApiClient } from '../support/api-client.js';
import { busyProcesses, childProcesses } from '../support/child-processes.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** A word found only in the large document, to look for its chunks in the full-text index. */
const MARKER = 'quokkaledger';
const EXTRACTION_CHILD = 'extraction-worker';

/** A text PDF of `pages` pages (about 45 lines each): a few hundred milliseconds per 10 pages to extract. */
async function largeTextPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const lines = Array.from({ length: 45 }, (_, l) => `Page ${p} line ${l}: the ${MARKER} of the marmalade cooperative lists invoice ${p * 100 + l}.`);
    doc.addPage([612, 792]).drawText(lines.join('\n'), { x: 50, y: 740, size: 10, font, lineHeight: 15 });
  }
  return doc.save();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function jobStatus(api: ApiClient, jobId: string): Promise<any> {
  const res = await api.get(`/api/v1/ingest/${jobId}`);
  if (res.status !== 200) throw new Error(`job ${jobId}: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Polls until `done` holds, failing with `what` after `timeoutMs`. */
async function until(done: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) expect.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

describe('the ingest queue on the embedded service (fairness, 409, cancellation)', function () {
  this.timeout(600_000);
  let t: TestService;
  let database: SqliteDatabase;
  let bigPdf: Uint8Array;
  const chunksOfJob = (jobId: string) => (database.raw.prepare('SELECT count(*) AS n FROM chunks WHERE job_id = ?').get(jobId) as { n: number }).n;
  const markerHits = () => (database.raw.prepare('SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?').get(MARKER) as { n: number }).n;

  before(async function () {
    // Defaults on purpose: INGEST_CONCURRENCY 2, INGEST_PER_USER_CONCURRENCY 1, EXTRACTION_WORKERS = concurrency.
    t = await startTestService();
    database = t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
    // Big enough that extracting it takes tens of seconds even on a fast machine (3,000 pages, 1.2 MB).
    bigPdf = await largeTextPdf(3000);
  });
  after(async () => t?.close());

  it('answers 409 with the active job’s id for a key already queued or processing, and takes it again once completed', async () => {
    const api = await t.as('carol');
    const sessionId = await api.createSession('receipts');
    const key = await api.upload('fees.pdf', ACME.bytes, 'application/pdf');
    const body = { key, filename: 'fees.pdf', session_id: sessionId, tags: {} };
    // Two at once: one starts the job, the other is told which job that is.
    const answers = await Promise.all([api.post('/api/v1/ingest/process', body), api.post('/api/v1/ingest/process', body)]);
    const created = answers.find((r) => r.status === 201);
    const refused = answers.find((r) => r.status === 409);
    expect(answers.map((r) => r.status).sort(), JSON.stringify(answers.map((r) => r.body))).to.deep.equal([201, 409]);
    expect(refused!.body).to.deep.equal({ error: 'An ingest job for this key is already queued or processing', data: created!.body.data });
    const first = await api.waitForJob(created!.body.data);
    expect(first.status).to.equal('completed');
    const again = await api.post('/api/v1/ingest/process', body);
    expect(again.status).to.equal(201);
    const second = await api.waitForJob(again.body.data);
    expect(second).to.include({ status: 'completed', reusedFrom: first.id });
  });

  describe('a user with large documents in progress, another user with a small one', () => {
    let alice: ApiClient;
    let aliceSession: string;
    let bigJobs: string[];

    before(async () => {
      alice = await t.as('alice');
      aliceSession = await alice.createSession('archive');
      bigJobs = [];
      for (const name of ['ledger-2024.pdf', 'ledger-2025.pdf']) bigJobs.push((await alice.uploadAndIngest(aliceSession, name, bigPdf, 'application/pdf')).jobId);
      await until(async () => (await jobStatus(alice, bigJobs[0]!)).stage === 'extracting', 'the first large document to be extracted', 120_000);
    });

    it('runs the other user’s document at once, while the first user’s second document waits its turn', async () => {
      const bob = await t.as('bob');
      const bobSession = await bob.createSession('fees');
      const { jobId } = await bob.uploadAndIngest(bobSession, 'fees.pdf', GLOBEX.bytes, 'application/pdf');
      const small = await bob.waitForJob(jobId, 120_000);
      expect(small.status).to.equal('completed');
      const [first, second] = await Promise.all(bigJobs.map((id) => jobStatus(alice, id)));
      expect(first.status, 'alice’s first document is still being read').to.equal('processing');
      expect(second.status, 'alice’s second document waits: one at a time per user').to.equal('queued');
    });

    it('deleting the session stops its extraction; its chunks, never cited, are gone and none is added after', async () => {
      // Pages are indexed while later ones are read, so chunks of the running job reach the index before it completes.
      await until(async () => chunksOfJob(bigJobs[0]!) > 0, 'the first pages of the large document to be indexed', 120_000);
      const before = await jobStatus(alice, bigJobs[0]!);
      expect(before).to.include({ status: 'processing', stage: 'extracting' });
      // Less than half of it read (extraction spans progress 0.05..0.7): what remains takes far longer than the 10 s
      // the extraction is given to stop, so a reader that went on would be seen busy.
      expect(before.progress, 'the document was almost read before the test could delete it').to.be.below(0.375);
      const children = childProcesses(EXTRACTION_CHILD);
      expect(await busyProcesses(children), 'an extraction process is busy with the document').to.not.be.empty;

      // An answer must not cite a document before its job completes.
      const early = await alice.ask(aliceSession, `What does the ${MARKER} of the marmalade cooperative list?`);
      expect(early.status).to.equal(200);
      expect(early.body.data, 'an answer cited a document still being ingested').to.not.match(new RegExp(`${MARKER}|marmalade`, 'i'));

      const deleted = await alice.delete(`/api/v1/session/${aliceSession}`);
      expect(deleted.status).to.equal(204);
      // Once the deletion answered, sample the index until the runs end: the count of their chunks may only fall.
      let sampling = true;
      let grew = false;
      let last = Infinity;
      const sampler = (async () => {
        while (sampling) {
          const now = markerHits() + bigJobs.reduce((n, id) => n + chunksOfJob(id), 0);
          if (now > last) grew = true;
          last = now;
          await sleep(50);
        }
      })();
      const deletedAt = Date.now();
      // The extraction stops: within 10 s every extraction process is gone or idle (see busyProcesses).
      let stillBusy: number[] = [];
      for (;;) {
        stillBusy = await busyProcesses(childProcesses(EXTRACTION_CHILD));
        if (stillBusy.length === 0 || Date.now() - deletedAt > 10_000) break;
      }
      const stoppedAfterMs = Date.now() - deletedAt;

      // The runs end (whether or not the reader honoured the abort), and nothing of them is left in the index.
      await t.service.whenIngestionIdle();
      sampling = false;
      await sampler;
      expect(grew, 'chunks of the deleted session’s documents were added after its deletion').to.equal(false);
      expect(markerHits()).to.equal(0);
      for (const id of bigJobs) {
        expect(chunksOfJob(id)).to.equal(0);
        expect((await alice.get(`/api/v1/ingest/${id}`)).status).to.equal(404);
      }
      expect(stillBusy, `extraction processes still busy ${stoppedAfterMs} ms after the session was deleted`).to.deep.equal([]);
    });
  });
});
