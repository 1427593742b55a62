import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import type { IngestCheckpoint } from '../../core/domain/model.js';
import { ApiClient } from '../support/api-client.js';
import { childProcesses } from '../support/child-processes.js';
import { eventually } from '../support/extraction-processes.js';
import { freePort } from '../support/free-port.js';
import { pagedTextPdf } from '../support/generated-documents.js';
import { EXTRACTION_CHILD, isLiveExtractionChild, startServiceProcess, type ServiceProcess } from '../support/service-processes.js';
import { TEST_JWT_SECRET } from '../support/test-service.js';

/**
 * 700 pages of a harbour ledger, each saying which page it is; page 650 is a scan (OCR takes the reader seconds
 * there, as a page that ends up killing its reader does). Pages are indexed, and checkpoints recorded, once the
 * running-header window (501 pages) is read: a run resumed from page n records its first checkpoint after page
 * n + 500 is read, so three runs killed at their first checkpoint each leave the next one pages to get further on.
 */
const PAGES = 700;
const SLOW_PAGE = 650;
const ledgerPage = (n: number) => [
  `Ledger page ${n}`,
  `On ledger page ${n} the harbour office recorded ${n * 3 + 7} crates of tea and ${n + 11} barrels of oil.`,
  'Every crate was weighed twice and sealed by the clerk on duty before it left the quay.',
  // The slow page is a full page of lines: its OCR takes seconds, so a kill sent while the row names it lands while
  // it is read (with three lines a fast machine read it in a moment, and a run got past it before the kill).
  ...(n === SLOW_PAGE ? Array.from({ length: 36 }, (_, i) => `Ledger page ${n} line ${i + 1}`) : []),
];

interface JobRow {
  status: string;
  attempts: number;
  error: string | null;
  checkpoint: IngestCheckpoint | null;
  readingPage: number | null;
}

/**
 * The embedded service (API, queue and extraction in one process on SQLite) SIGKILLed in the middle of a long
 * ingestion, again and again, and started again each time, as a supervisor (systemd, Docker's restart policy) does.
 * Nothing else is done by hand: the restarted service resumes the job on its own.
 */
describe('faults: a service process killed in the middle of a long ingestion', function () {
  // Generous: each run reads hundreds of pages at the extraction processes' background priority, which a busy CI
  // machine starves (two CPU-bound processes beside it make a run here 5x slower).
  this.timeout(300_000);
  let dataDir: string;
  let tempDir: string;
  let port: number;
  let service: ServiceProcess | undefined;
  let records: Database.Database | undefined;
  let api: ApiClient;
  let pdf: Uint8Array;
  /** The job the first test completed. */
  const completed = { jobId: '', chunks: 0 };
  /** Every extraction process seen, so that none outlives the suite. */
  const extractionPids = new Set<number>();

  const start = async () => {
    service = await startServiceProcess('service', {
      TMPDIR: tempDir, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_JWT_SECRET: TEST_JWT_SECRET,
      INGEST_CONCURRENCY: '1', PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
  };
  /** SIGKILL, as the OOM killer does; its orphaned extraction processes are remembered, to be sure they go. */
  const kill = async () => {
    for (const pid of childProcesses(EXTRACTION_CHILD, service!.pid)) extractionPids.add(pid);
    expect(await service!.stop('SIGKILL')).to.equal(null);
  };
  const jobRow = (jobId: string): JobRow => {
    records ??= new Database(path.join(dataDir, 'doc-chat.sqlite'), { readonly: true });
    const row = records
      .prepare('SELECT status, attempts, error, checkpoint_json, reading_page AS readingPage FROM ingest_jobs WHERE id = ?')
      .get(jobId) as Omit<JobRow, 'checkpoint'> & { checkpoint_json: string | null };
    const { checkpoint_json: json, ...rest } = row;
    return { ...rest, checkpoint: json ? (JSON.parse(json) as IngestCheckpoint) : null };
  };
  /** The job's row while the service may be recovering the database a kill left (a read then is refused: none yet). */
  const polledRow = (jobId: string): JobRow | undefined => {
    try {
      return jobRow(jobId);
    } catch (error) {
      if (/^SQLITE_(BUSY|READONLY)/.test(String((error as { code?: unknown }).code))) return undefined;
      throw error;
    }
  };
  const chunkRows = (jobId: string) =>
    records!.prepare('SELECT rowid, page, ordinal, text FROM chunks WHERE job_id = ? ORDER BY ordinal').all(jobId) as { rowid: number; page: number; ordinal: number; text: string }[];

  before(async function () {
    pdf = await pagedTextPdf(Array.from({ length: PAGES }, (_, i) => ledgerPage(i + 1)), [SLOW_PAGE]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-faults-'));
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-faults-tmp-'));
    port = await freePort();
    await start();
    api = new ApiClient(`http://127.0.0.1:${port}`, await signLocalToken(TEST_JWT_SECRET, 'u1'));
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed' && service) console.log(`--- service output:\n${service.output().slice(-6000)}`);
  });

  after(async () => {
    records?.close();
    if (service?.running) await kill();
    await eventually(() => ![...extractionPids].some(isLiveExtractionChild), 'the orphaned extraction processes exited', 30_000);
    for (const dir of [dataDir, tempDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('killed three times, each time after it indexed further pages: the job completes, every page’s chunks once', async () => {
    const sessionId = await api.createSession('ledger');
    const { jobId } = await api.uploadAndIngest(sessionId, 'ledger.pdf', pdf, 'application/pdf');
    const killedAfter: number[] = [];
    let firstRows: { rowid: number; page: number }[] = [];
    let diedOn = 0;
    for (let kills = 0; kills < 3; kills++) {
      // Killed once the run indexed further pages than the last one got, while it reads another page than that one
      // died on (so it is no page that kills its reader).
      const indexed = killedAfter.at(-1) ?? 0;
      await eventually(() => {
        const row = polledRow(jobId);
        return row !== undefined && (row.checkpoint?.pages ?? 0) > indexed && row.readingPage !== null && row.readingPage !== diedOn;
      }, `a checkpoint past page ${indexed}`, 120_000);
      await kill();
      const left = jobRow(jobId);
      expect(left).to.include({ status: 'processing', attempts: kills + 1 });
      killedAfter.push(left.checkpoint!.pages);
      diedOn = left.readingPage!;
      if (kills === 0) firstRows = chunkRows(jobId).filter((row) => row.page <= left.checkpoint!.pages);
      await start();
    }

    const job = await api.waitForJob(jobId, 180_000);
    console.log(`      killed after pages ${killedAfter.join(', ')} were indexed; completed in run ${job.attempts}`);
    expect(job, JSON.stringify(job)).to.include({ status: 'completed', pages: PAGES, attempts: 4 });
    const rows = chunkRows(jobId);
    expect(rows).to.have.length(job.chunks);
    // One chunk per ordinal, numbered 0.. in page order: no page was chunked twice, none was left out.
    expect(rows.map((row) => row.ordinal)).to.deep.equal(rows.map((_, i) => i));
    expect(rows.every((row, i) => i === 0 || row.page >= rows[i - 1]!.page)).to.equal(true);
    expect(new Set(rows.map((row) => row.page)).size).to.equal(PAGES);
    for (const row of rows) expect(row.text, `a chunk of page ${row.page}`).to.match(new RegExp(`ledger page ${row.page}\\b`, 'i'));
    // What the first run indexed was kept as it was written (the same rows), not written again.
    const kept = new Map(rows.map((row) => [row.rowid, row.page]));
    expect(firstRows.length).to.be.greaterThan(0);
    for (const row of firstRows) expect(kept.get(row.rowid), `row ${row.rowid} of page ${row.page}`).to.equal(row.page);
    expect(jobRow(jobId)).to.include({ checkpoint: null, readingPage: null });
    Object.assign(completed, { jobId, chunks: job.chunks });
  });

  it('a page that its reader dies on twice in a row fails the job with that page named, and leaves no chunks', async () => {
    const sessionId = await api.createSession('ledger again');
    const { jobId } = await api.uploadAndIngest(sessionId, 'ledger.pdf', pdf, 'application/pdf');
    // The process dies while it reads the slow page (as one that needs more memory than the process may have). The
    // page's progress write is throttled: a kill sent as the row names the page may land once the reader has moved on
    // (the run then died elsewhere), so each run is killed on that page until two deaths in a row name it.
    for (let run = 1; run <= 4; run++) {
      let status: string | undefined;
      await eventually(() => {
        const row = polledRow(jobId);
        status = row?.status;
        return status === 'failed' || status === 'completed' || (row?.attempts === run && row.readingPage === SLOW_PAGE);
      }, `run ${run} reading page ${SLOW_PAGE}`, 120_000);
      expect(status, `run ${run} got past page ${SLOW_PAGE} before it was killed`).to.not.equal('completed');
      if (status === 'failed') break;
      await kill();
      await start();
    }
    const job = await api.waitForJob(jobId, 60_000);
    expect(job, JSON.stringify(job)).to.include({ status: 'failed' });
    expect(job.attempts).to.be.within(2, 4);
    expect(job.error).to.include(`page ${SLOW_PAGE}`);
    expect(chunkRows(jobId)).to.deep.equal([]);
    // The service goes on: the job the first test completed is still there, with its chunks.
    if (completed.jobId) {
      expect((await api.get(`/api/v1/ingest/${completed.jobId}`)).body.data).to.include({ status: 'completed', chunks: completed.chunks });
      expect(chunkRows(completed.jobId)).to.have.length(completed.chunks);
    }
  });
});
