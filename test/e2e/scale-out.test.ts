import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.js';
import { ACME } from '../support/bank-fee-pdfs.js';
import { busyProcesses, childProcesses } from '../support/child-processes.js';
import { scannedPdf } from '../support/generated-documents.js';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { queryRecords } from '../support/records-query.js';
import { EXTRACTION_CHILD, isLiveExtractionChild, startServiceProcess, type ServiceProcess } from '../support/service-processes.js';
import { scaledStack, type ProductionStack } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value, failing with `what` after `timeoutMs`. */
async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) expect.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

async function jobOf(api: ApiClient, jobId: string): Promise<any> {
  const res = await api.get(`/api/v1/ingest/${jobId}`);
  if (res.status !== 200) throw new Error(`job ${jobId}: ${res.status} ${res.text}`);
  return res.body.data;
}

/**
 * Ten scanned pages (OCR, a few seconds each): long enough to be caught, and killed, in the middle of reading (with
 * eight, a CI run once found the busy extraction process only after 6.2 pages: progress 0.712).
 */
const SCAN_PAGES = Array.from({ length: 10 }, (_, i) => [
  `Harbour ledger, scanned page ${i + 1}.`,
  'The pelican fund paid nine hundred crowns',
  'to the lighthouse keepers this season.',
]);

/**
 * Scale-out: two `serve` instances (in this process) and two `worker` processes on one PostgreSQL, with S3 (s3rver),
 * Chroma and the Ollama-shaped server, as `docker compose up --scale worker=2` runs them. What one instance writes the
 * other reads, jobs run in the workers only, and a worker killed mid-extraction loses nothing: the other finishes it.
 */
describeWithPostgres('scale-out: two serve instances and two worker processes on one PostgreSQL', () =>
  describe('scale-out: two serve instances and two worker processes on one PostgreSQL', function () {
    this.timeout(600_000);
    let stack: ProductionStack;
    let databaseUrl: string;
    let a: TestService;
    let b: TestService;
    const workers: ServiceProcess[] = [];
    const workerDirs: string[] = [];
    /** Every extraction process seen, so that none outlives the suite even when a test fails. */
    const extractionPids = new Set<number>();
    /** A short lease, so that a dead worker's job comes back within seconds (lease + maintenance + retry delay). */
    const queueEnv = { ROLE: 'serve', QUEUE_LEASE_SECONDS: '3', QUEUE_POLL_INTERVAL_MS: '200' };
    let scan: Uint8Array;

    const extractionChildrenOf = (worker: ServiceProcess) => {
      const pids = childProcesses(EXTRACTION_CHILD, worker.pid);
      for (const pid of pids) extractionPids.add(pid);
      return pids;
    };

    before(async function () {
      this.timeout(180_000);
      // Rendered before any request: it blocks this process, whose serve instances would then close idle keep-alive
      // connections just as the client reuses them (ECONNRESET).
      scan = await scannedPdf(SCAN_PAGES);
      stack = scaledStack();
      databaseUrl = await sharedPostgresCluster().createDatabase('scale_out');
      // A first (it starts the dependencies and migrates the database), then B and the workers together.
      a = await stack.start({ ...queueEnv, DATABASE_URL: databaseUrl });
      const workerEnv = (): Record<string, string> => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-worker-'));
        workerDirs.push(dir);
        const { PORT: _port, PUBLIC_URL: _publicUrl, ...shared } = a.env; // a worker has no HTTP address
        return { ...shared, ROLE: 'worker', DATA_DIR: dir };
      };
      const [started, ...processes] = await Promise.allSettled([
        stack.start({ ...queueEnv, DATABASE_URL: databaseUrl }),
        startServiceProcess('worker 1', workerEnv()),
        startServiceProcess('worker 2', workerEnv()),
      ]);
      for (const result of processes) if (result.status === 'fulfilled') workers.push(result.value);
      if (started.status === 'rejected') throw started.reason;
      for (const result of processes) if (result.status === 'rejected') throw result.reason;
      b = started.value;
    });

    afterEach(function () {
      if (this.currentTest?.state !== 'failed') return;
      for (const worker of workers) console.log(`--- ${worker.name} (pid ${worker.pid}) output:\n${worker.output().slice(-6000)}`);
    });

    after(async function () {
      this.timeout(120_000);
      for (const worker of workers) if (worker.running) extractionChildrenOf(worker); // orphaned by the kill below
      await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
      for (const pid of extractionPids) if (isLiveExtractionChild(pid)) process.kill(pid, 'SIGKILL');
      await stack?.close();
      if (databaseUrl) await sharedPostgresCluster().dropDatabase(databaseUrl);
      for (const dir of workerDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** What the first test leaves for the later ones to find intact. */
    const earlier = { sessionId: '', jobId: '', chunks: 0, history: [] as unknown[] };
    const ACME_QUESTION = 'How much does an international wire transfer cost at Acme Bank?';

    /** The job's chunks in PostgreSQL: how many, distinct ids and ordinals, and the pages they cite. */
    const chunkRows = async (jobId: string) =>
      (await queryRecords(
        a,
        'SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids, count(DISTINCT ordinal)::int AS ordinals, count(DISTINCT page)::int AS pages FROM chunks WHERE job_id = ?',
        jobId,
      ))[0] as { n: number; ids: number; ordinals: number; pages: number };

    it('upload and ingest through A, a worker runs the job, ask through B, history the same from both', async () => {
      const aliceA = await a.as('alice');
      const aliceB = await b.as('alice');
      earlier.sessionId = await aliceA.createSession('fees');
      const { jobId } = await aliceA.uploadAndIngest(earlier.sessionId, 'acme-fees.pdf', ACME.bytes, 'application/pdf');
      const job = await aliceA.waitForJob(jobId, 90_000);
      expect(job, JSON.stringify(job)).to.include({ status: 'completed', pages: 2 });
      expect(await jobOf(aliceB, jobId)).to.deep.equal(job);
      // Run by a worker: the serve instances (this process) read no document; a worker process did.
      expect(childProcesses(EXTRACTION_CHILD), 'extraction processes of a serve instance').to.deep.equal([]);
      expect(workers.flatMap(extractionChildrenOf), 'extraction processes of the workers').to.have.length.greaterThan(0);
      Object.assign(earlier, { jobId, chunks: job.chunks });

      const answer = await aliceB.ask(earlier.sessionId, ACME_QUESTION);
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.data).to.include('45 dollars');
      expect(answer.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: jobId });

      const [fromA, fromB] = await Promise.all([aliceA, aliceB].map((api) => api.get(`/api/v1/chat/history/${earlier.sessionId}`)));
      expect([fromA!.status, fromB!.status]).to.deep.equal([200, 200]);
      expect(fromA!.body.data).to.have.length(2);
      expect(fromB!.body).to.deep.equal(fromA!.body);
      earlier.history = fromA!.body.data;
    });

    it('a worker SIGKILLed mid-extraction: the other finishes the job, no duplicate chunks, nothing lost', async () => {
      const bobB = await b.as('bob');
      const bobA = await a.as('bob');
      const sessionId = await bobB.createSession('ledger');
      const { jobId } = await bobB.uploadAndIngest(sessionId, 'ledger-scan.pdf', scan, 'application/pdf');
      // A scanned page is read by OCR: its stage says so ('recognizing'), as 'extracting' says a text page.
      const reading = (stage?: string) => stage === 'extracting' || stage === 'recognizing';
      await until(async () => (reading((await jobOf(bobA, jobId)).stage) ? true : undefined), 'the scanned document to be extracted', 90_000);

      // The worker holding the job is the one whose extraction process is busy (nothing else is being read).
      const { holder, extraction } = await until(async () => {
        const candidates = workers.flatMap((worker) => extractionChildrenOf(worker).map((pid) => ({ holder: worker, extraction: pid })));
        const busy = await busyProcesses(candidates.map((c) => c.extraction));
        expect(busy.length, 'busy extraction processes while one document is read').to.be.at.most(1);
        return candidates.find((c) => c.extraction === busy[0]);
      }, 'an extraction process of a worker to be busy with the document', 60_000);
      const survivor = workers.find((worker) => worker !== holder)!;
      const before = await jobOf(bobA, jobId);
      expect(before.status, 'the document was read before the kill (make it longer)').to.equal('processing');
      expect(reading(before.stage), `the document was read before the kill (stage ${before.stage})`).to.equal(true);
      // Pages left to read when the worker dies (finding the busy process takes a few samples, longer on a busy host).
      expect(before.progress).to.be.below(0.9);

      const killedAt = Date.now();
      expect(await holder.stop('SIGKILL')).to.equal(null);
      // Its extraction process is orphaned: it exits on its own once its IPC channel closes ('disconnect').
      await until(async () => (isLiveExtractionChild(extraction) ? undefined : true), `the orphaned extraction process ${extraction} to exit`, 30_000);
      const orphanGoneMs = Date.now() - killedAt;

      let takenAgainMs: number | undefined;
      const job = await until(async () => {
        const [{ attempts }] = await queryRecords(a, 'SELECT attempts FROM ingest_jobs WHERE id = ?', jobId);
        if (attempts >= 2) takenAgainMs ??= Date.now() - killedAt;
        const current = await jobOf(bobB, jobId);
        return current.status === 'completed' || current.status === 'failed' ? current : undefined;
      }, 'the other worker to finish the killed worker’s job', 120_000);
      const finishedMs = Date.now() - killedAt;
      console.log(`      after the SIGKILL: orphaned extraction process gone in ${orphanGoneMs} ms, job taken again in ${takenAgainMs} ms, completed in ${finishedMs} ms (lease 3 s)`);

      expect(job, JSON.stringify(job)).to.include({ status: 'completed', pages: SCAN_PAGES.length });
      expect(survivor.running, 'the other worker still runs').to.equal(true);
      expect(childProcesses(EXTRACTION_CHILD), 'extraction processes of a serve instance').to.deep.equal([]);
      const [{ attempts }] = await queryRecords(a, 'SELECT attempts FROM ingest_jobs WHERE id = ?', jobId);
      expect(attempts, 'runs of the job: the killed one and the one that finished').to.equal(2);
      // No duplicates: one row per chunk id and ordinal in PostgreSQL, as many as the job counts, and as many in Chroma.
      // Nothing lost: chunks never cross a page, so every page of the scan has its own.
      expect(await chunkRows(jobId)).to.deep.equal({ n: job.chunks, ids: job.chunks, ordinals: job.chunks, pages: SCAN_PAGES.length });
      expect(await stack.vectorRecordCount({ jobId })).to.equal(job.chunks);
      expect(await stack.vectorRecordCount({ sessionId })).to.equal(job.chunks);

      const answer = await bobA.ask(sessionId, 'How much did the pelican fund pay the lighthouse keepers?');
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.sources[0]).to.include({ filename: 'ledger-scan.pdf', ingestId: jobId });
      const [fromA, fromB] = await Promise.all([bobA, bobB].map((api) => api.get(`/api/v1/chat/history/${sessionId}`)));
      expect(fromA!.body.data).to.have.length(2);
      expect(fromB!.body).to.deep.equal(fromA!.body);

      // Nothing earlier was lost: alice's job, its chunks in both indexes, her history from both instances, her answer.
      const aliceA = await a.as('alice');
      const aliceB = await b.as('alice');
      expect(await jobOf(aliceB, earlier.jobId)).to.include({ status: 'completed', chunks: earlier.chunks });
      expect(await chunkRows(earlier.jobId)).to.deep.equal({ n: earlier.chunks, ids: earlier.chunks, ordinals: earlier.chunks, pages: 2 });
      expect(await stack.vectorRecordCount({ jobId: earlier.jobId })).to.equal(earlier.chunks);
      for (const api of [aliceA, aliceB]) expect((await api.get(`/api/v1/chat/history/${earlier.sessionId}`)).body.data).to.deep.equal(earlier.history);
      const again = await aliceA.ask(earlier.sessionId, ACME_QUESTION);
      expect(again.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: earlier.jobId });
    });

    it('the remaining worker stops on SIGTERM (exit 0) and no extraction process is left running', async () => {
      const remaining = workers.filter((worker) => worker.running);
      expect(remaining).to.have.length(1);
      extractionChildrenOf(remaining[0]!);
      expect(await remaining[0]!.stop('SIGTERM')).to.equal(0);
      const left = [...extractionPids].filter(isLiveExtractionChild);
      expect(left, 'extraction processes still running').to.deep.equal([]);
    });
  }),
);
