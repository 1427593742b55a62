import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/container.js';
import { childProcesses } from '../support/child-processes.js';
import { describeWithCorpus } from '../support/corpus.js';
import { MERGED_CORPUS_PAGES, mergedCorpusPdf } from '../support/merged-corpus-pdf.js';
import { startTestService, type TestService } from '../support/test-service.js';

interface ChunkRow {
  page: number;
  ordinal: number;
  text: string;
}

/** Waits until `check()` resolves true, failing after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) expect.fail(`${what} (still not after ${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithCorpus('ingesting one long PDF read as page ranges by 2 extraction processes (embedded service)', function () {
  this.timeout(600_000);
  let t: TestService;
  let database: SqliteDatabase;
  const chunksOf = (jobId: string) =>
    database.raw.prepare('SELECT page, ordinal, text FROM chunks WHERE job_id = ? ORDER BY page, ordinal').all(jobId) as ChunkRow[];

  before(async () => {
    t = await startTestService({ EXTRACTION_WORKERS: '2', EXTRACTION_RANGE_PAGES: '40' });
    database = t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
  });
  after(async () => t?.close());

  it('indexes the same chunks, none twice, when an extraction process is killed mid-document', async () => {
    const api = await t.as('dana');
    const bytes = mergedCorpusPdf();

    const undisturbed = await api.uploadAndIngest(await api.createSession('reports'), 'merged.pdf', bytes, 'application/pdf');
    expect((await api.waitForJob(undisturbed.jobId, 300_000)).status).to.equal('completed');
    const expected = chunksOf(undisturbed.jobId);
    expect(new Set(expected.map((chunk) => chunk.page)).size, 'chunks from across the document').to.be.greaterThan(MERGED_CORPUS_PAGES / 2);

    const killed = await api.uploadAndIngest(await api.createSession('reports again'), 'merged.pdf', bytes, 'application/pdf');
    // Mid-document: both processes reading ranges, a third of the pages read (pages reach the index in batches, running
    // headers are judged over 501-page windows, so chunks of a 309-page document come at its end).
    let victim = 0;
    await until(async () => {
      const pids = childProcesses('extraction-worker');
      const { stage, progress } = (await api.get(`/api/v1/ingest/${killed.jobId}`)).body.data;
      if (pids.length < 2 || stage !== 'extracting' || !(progress > 0.05 + 0.85 / 3)) return false;
      victim = pids[pids.length - 1];
      return true;
    }, 'both extraction processes reading, a third of the pages read', 300_000);
    process.kill(victim, 'SIGKILL');
    const job = await api.waitForJob(killed.jobId, 300_000);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    const chunks = chunksOf(killed.jobId);
    const keys = chunks.map((chunk) => `${chunk.page}/${chunk.ordinal}`);
    expect(new Set(keys).size, 'no chunk twice').to.equal(keys.length);
    expect(chunks).to.deep.equal(expected);
    expect(job.chunks).to.equal(expected.length);
  });
});
