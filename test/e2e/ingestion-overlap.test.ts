import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ApiClient } from '../support/api-client.js';
import { ACME } from '../support/bank-fee-pdfs.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** A text PDF of `pages` pages (about 45 lines each), `word` on every page. */
async function textPdf(pages: number, word: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const lines = Array.from({ length: 45 }, (_, l) => `Page ${p} line ${l}: the ${word} register lists entry ${p * 100 + l}.`);
    doc.addPage([612, 792]).drawText(lines.join('\n'), { x: 50, y: 740, size: 10, font, lineHeight: 15 });
  }
  return doc.save();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The jobs' statuses, read one after the other from the last job to the first: a later job starts only after an
 * earlier one did, so a sample that shows a later job running and an earlier one still running was true at once.
 */
async function statusesOf(api: ApiClient, jobIds: string[]): Promise<string[]> {
  const statuses: string[] = [];
  for (const id of [...jobIds].reverse()) statuses.unshift((await api.get(`/api/v1/ingest/${id}`)).body.data.status as string);
  return statuses;
}

/** Statuses of the jobs, polled every 20 ms until all are completed or failed: the samples, in order. */
async function follow(api: ApiClient, jobIds: string[], timeoutMs: number): Promise<string[][]> {
  const samples: string[][] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await statusesOf(api, jobIds);
    samples.push(statuses);
    if (statuses.every((s) => s === 'completed' || s === 'failed')) return samples;
    if (Date.now() > deadline) expect.fail(`jobs not done after ${timeoutMs} ms: ${JSON.stringify(statuses)}`);
    await sleep(20);
  }
}

/**
 * One user's documents overlap by their tails (issue 18): with the defaults (2 jobs at once, 1 per user, 50-page
 * ranges), the next document starts once the previous one's last range is handed out, not once it completes; and
 * the user still never has more than one document beyond the limit, so another user's document starts at once.
 */
describe('one user’s documents on the embedded service: the next starts while the previous one finishes', function () {
  this.timeout(300_000);
  let t: TestService;
  let first: Uint8Array;
  let second: Uint8Array;
  let third: Uint8Array;

  before(async () => {
    t = await startTestService();
    // Two 50-page ranges each: the second is handed out as soon as the page count is known, so a document is
    // finishing for most of its reading, which leaves the tests time to see it.
    [first, second, third] = await Promise.all([textPdf(100, 'wombat'), textPdf(100, 'numbat'), textPdf(100, 'quoll')]);
  });
  after(async () => t?.close());

  it('starts the second document before the first completes, and the third only after one of them ended', async () => {
    const alice = await t.as('alice');
    const session = await alice.createSession('registers');
    const jobIds: string[] = [];
    for (const [name, bytes] of [['a.pdf', first], ['b.pdf', second], ['c.pdf', third]] as const) {
      jobIds.push((await alice.uploadAndIngest(session, name, bytes, 'application/pdf')).jobId);
    }
    const samples = await follow(alice, jobIds, 240_000);
    const ended = (s: string) => s === 'completed' || s === 'failed';
    expect(samples.at(-1), 'every document ingested').to.deep.equal(['completed', 'completed', 'completed']);
    // The second was processing while the first was still processing (reading its last pages or indexing them).
    expect(samples.some(([a, b]) => a === 'processing' && b === 'processing'), JSON.stringify(samples)).to.equal(true);
    // Never three at once: the third waited for one of the first two to end. Which one is a race: the second, short
    // of the first's tail, can complete first, and then the first is the one finishing beside the third.
    expect(samples.every(([a, b, c]) => c === 'queued' || ended(a!) || ended(b!)), JSON.stringify(samples)).to.equal(true);
    expect(samples.every((s) => s.filter((status) => status === 'processing').length <= 2), JSON.stringify(samples)).to.equal(true);
  });

  it('leaves another user’s document to start at once while one user’s two overlap', async () => {
    const alice = await t.as('alice');
    const bob = await t.as('bob');
    const aliceSession = await alice.createSession('more registers');
    const bobSession = await bob.createSession('fees');
    const aliceJobs: string[] = [];
    for (const [name, bytes] of [['d.pdf', first], ['e.pdf', second], ['f.pdf', third]] as const) {
      aliceJobs.push((await alice.uploadAndIngest(aliceSession, name, bytes, 'application/pdf')).jobId);
    }
    // Once alice's first two run together, bob's small document must not wait for them.
    let statuses: string[] = [];
    for (const deadline = Date.now() + 120_000; !(statuses[0] === 'processing' && statuses[1] === 'processing'); await sleep(20)) {
      if (Date.now() > deadline) expect.fail(`alice's documents never overlapped: ${JSON.stringify(statuses)}`);
      statuses = await statusesOf(alice, aliceJobs);
    }
    const { jobId } = await bob.uploadAndIngest(bobSession, 'fees.pdf', ACME.bytes, 'application/pdf');
    // Bob's job starts while alice's first document is still being finished: it did not wait for a slot.
    let bobStatus = 'queued';
    let aliceFirst = '';
    for (const deadline = Date.now() + 60_000; bobStatus === 'queued'; await sleep(10)) {
      if (Date.now() > deadline) expect.fail('bob’s document never started');
      // Bob's first, then alice's: if bob's had started by the first read, alice's was still running at the second.
      bobStatus = (await bob.get(`/api/v1/ingest/${jobId}`)).body.data.status;
      aliceFirst = (await alice.get(`/api/v1/ingest/${aliceJobs[0]}`)).body.data.status;
    }
    expect(aliceFirst, 'alice’s first document was still finishing when bob’s started').to.equal('processing');
    expect((await bob.waitForJob(jobId, 120_000)).status).to.equal('completed');
    await Promise.all(aliceJobs.map((id) => alice.waitForJob(id, 240_000)));
  });
});
