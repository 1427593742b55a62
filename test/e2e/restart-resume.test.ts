import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { openSqliteDatabase } from '../../adapters/sqlite/database.js';
import { ApiClient } from '../support/api-client.js';
import { freePort } from '../support/free-port.js';
import { describeWithCorpus } from '../support/corpus.js';
import { pagedTextPdf, scannedPdf } from '../support/generated-documents.js';
import { corpusPath, REPO_ROOT } from '../support/paths.js';
import { startTestService, TEST_JWT_SECRET } from '../support/test-service.js';

interface Document {
  name: string;
  bytes: Uint8Array;
}

/** Five PDFs, the first long enough to be killed in: a 60-page book, a scanned page, and three short reports. */
async function generatedDocuments(): Promise<Document[]> {
  const prose = 'The river ran past the old mill and the town grew along both of its banks over the years.';
  const book = await pagedTextPdf(Array.from({ length: 60 }, (_, i) => [`Chapter ${i + 1}`, ...Array(20).fill(prose)]));
  const scan = await scannedPdf([['The scanned page of the minutes:', 'the board met on the third of May', 'and approved the new budget.']]);
  const report = (topic: string, pages: number) =>
    pagedTextPdf(Array.from({ length: pages }, (_, i) => [`${topic}, part ${i + 1}`, `This part of the ${topic} lists the figures of the year.`]));
  return [
    { name: 'book.pdf', bytes: book },
    { name: 'report-sales.pdf', bytes: await report('sales report', 12) },
    { name: 'report-staff.pdf', bytes: await report('staff report', 8) },
    { name: 'minutes-scan.pdf', bytes: scan },
    { name: 'report-audit.pdf', bytes: await report('audit report', 18) },
  ];
}

const CORPUS_DOCUMENTS = ['GeoTopo-komprimiert.pdf', 'irs-i1040nr-2007.pdf', 'federal-register-2020-17221.pdf', 'scanned-huckfinn-p22.pdf', 'dmca-summary-1998.pdf'];

/** The real server as a separate process, so it can be killed the hard way. */
async function startServerProcess(dataDir: string, tempDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, TMPDIR: tempDir, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_JWT_SECRET: TEST_JWT_SECRET, INGEST_CONCURRENCY: '1', PUBLIC_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.resume();
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await new ApiClient(`http://127.0.0.1:${port}`).get('/api/v1/health').then((r) => r.status === 200, () => false);
    if (up) return child;
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Entries of the temporary folder named after this process id (`<prefix>-<pid>-XXXXXX`). */
function tempEntriesOf(tempDir: string, pid: number): string[] {
  return fs.readdirSync(tempDir).filter((name) => name.includes(`-${pid}-`));
}

function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function ingestAll(api: ApiClient, sessionId: string, documents: Document[]): Promise<Map<string, string>> {
  const jobs = new Map<string, string>();
  for (const { name, bytes } of documents) {
    const { jobId } = await api.uploadAndIngest(sessionId, name, bytes, 'application/pdf');
    jobs.set(name, jobId);
  }
  return jobs;
}

/** The test, on the documents given (loaded when it runs). */
function resumesAfterKill(loadDocuments: () => Promise<Document[]>): void {
  let dataDir: string | undefined;
  let tempDir: string | undefined;
  let child: ChildProcess | undefined;
  after(async () => {
    if (child) await killHard(child);
    for (const dir of [dataDir, tempDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('completes every job with the same chunks as an uninterrupted run, and no duplicates', async () => {
    const documents = await loadDocuments();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-restart-'));
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-restart-tmp-')); // the server's TMPDIR
    // The reference: the same documents ingested without interruption.
    const reference = await startTestService({ INGEST_CONCURRENCY: '1' });
    const expected = new Map<string, number>();
    try {
      const api = await reference.as('u1');
      const sessionId = await api.createSession('reference');
      for (const [name, jobId] of await ingestAll(api, sessionId, documents)) expected.set(name, (await api.waitForJob(jobId, 300_000)).chunks);
    } finally {
      await reference.close();
    }

    const port = await freePort();
    child = await startServerProcess(dataDir, tempDir, port);
    const api = new ApiClient(`http://127.0.0.1:${port}`, await signLocalToken(TEST_JWT_SECRET, 'u1'));
    const sessionId = await api.createSession('interrupted');
    const jobs = await ingestAll(api, sessionId, documents);

    // Kill while the first document is being processed and the others wait.
    let statuses: string[] = [];
    for (;;) {
      statuses = await Promise.all([...jobs.values()].map(async (id) => (await api.get(`/api/v1/ingest/${id}`)).body.data.status));
      if (statuses.includes('processing')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // The document being read has its copy in the server's temporary folder by now (or within moments).
    const killedPid = child.pid!;
    const readingCopy = () => tempEntriesOf(tempDir!, killedPid).some((name) => name.startsWith(`doc-chat-extraction-${killedPid}-`));
    for (const deadline = Date.now() + 10_000; !readingCopy() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await killHard(child);
    expect(readingCopy(), 'the killed server left the copy of the document it was reading').to.equal(true);
    expect(statuses.filter((s) => s === 'queued' || s === 'processing').length, statuses.join()).to.be.greaterThanOrEqual(3);

    child = await startServerProcess(dataDir, tempDir, port);
    for (const [name, jobId] of jobs) {
      const job = await api.waitForJob(jobId, 300_000);
      expect(job.status, name).to.equal('completed');
      expect(job.chunks, name).to.equal(expected.get(name));
    }
    // The server that started again removed what the killed one left in the temporary folder.
    expect(tempEntriesOf(tempDir, killedPid)).to.deep.equal([]);
    await killHard(child);

    const database = openSqliteDatabase(path.join(dataDir, 'doc-chat.sqlite'));
    try {
      const perJob = database.raw.prepare('SELECT job_id, count(*) AS n, count(DISTINCT ordinal) AS distinctOrdinals FROM chunks WHERE session_id = ? GROUP BY job_id').all(sessionId) as { job_id: string; n: number; distinctOrdinals: number }[];
      expect(perJob).to.have.length(documents.length);
      for (const row of perJob) expect(row.n).to.equal(row.distinctOrdinals);
      const total = perJob.reduce((n, r) => n + r.n, 0);
      expect(total).to.equal([...expected.values()].reduce((a, b) => a + b, 0));
      const fts = database.raw.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'the'").get() as { n: number };
      expect(fts.n).to.be.greaterThan(0);
    } finally {
      await database.close();
    }
  });
}

describe('a server killed in the middle of ingestion resumes every job when it starts again', function () {
  this.timeout(600_000);
  resumesAfterKill(generatedDocuments);
});

describeWithCorpus('a server killed in the middle of ingesting real documents resumes every job', function () {
  this.timeout(600_000);
  resumesAfterKill(async () => CORPUS_DOCUMENTS.map((name) => ({ name, bytes: fs.readFileSync(corpusPath(`pdfs/${name}`)) })));
});
