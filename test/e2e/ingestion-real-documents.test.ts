import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { MORE_RECEIPTS_NOTE } from '../../adapters/receipts/index.js';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { describeWithCorpus } from '../support/corpus.js';
import { corpusPath } from '../support/paths.js';
import { startTestService, type TestService } from '../support/test-service.js';

interface Ingested {
  file: string;
  jobId: string;
  job: any;
}

/** Every PDF and JPEG of the corpus; listed when the suite starts (the corpus may be absent). */
const listDocuments = (): string[] =>
  [
    ...fs.readdirSync(corpusPath('pdfs')).filter((f) => f.endsWith('.pdf')).map((f) => `pdfs/${f}`),
    ...fs.readdirSync(corpusPath('images')).filter((f) => f.endsWith('.jpg')).map((f) => `images/${f}`),
  ].sort();

/**
 * Every PDF and JPEG of the real-document corpus (DOC_CHAT_CORPUS, default ../shared/data) through the HTTP API on the embedded defaults: upload URL, PUT, ingest,
 * status until done; then questions answered from a text PDF, a scanned PDF and a photographed page.
 */
describeWithCorpus('ingestion of the real documents over HTTP (embedded defaults)', function () {
  this.timeout(600_000);
  let t: TestService;
  let api: ApiClient;
  let sessionId: string;
  const results = new Map<string, Ingested>();
  let documents: string[] = [];

  before(async () => {
    t = await startTestService({ EXTRACTION_WORKERS: '2', INGEST_CONCURRENCY: '2' });
    api = await t.as('reader');
    sessionId = await api.createSession('all shared documents');
    documents = listDocuments();
    for (const file of documents) {
      const bytes = fs.readFileSync(corpusPath(file));
      const type = file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg';
      const { jobId } = await api.uploadAndIngest(sessionId, path.basename(file), bytes, type, { kind: file.split('/')[0] });
      results.set(file, { file, jobId, job: undefined });
    }
    for (const entry of results.values()) entry.job = await api.waitForJob(entry.jobId, 540_000);
  });
  after(() => t.close());

  const chunkTexts = (jobId: string): string => {
    const database = t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
    const rows = database.raw.prepare('SELECT text FROM chunks WHERE job_id = ? ORDER BY ordinal').all(jobId) as { text: string }[];
    return rows.map((r) => r.text).join('\n');
  };

  it('ends every document completed or failed with a reason, and the server stays up', async () => {
    expect(results.size).to.equal(documents.length);
    for (const { file, job } of results.values()) {
      expect(['completed', 'failed'], file).to.include(job.status);
      if (job.status === 'failed') expect(job.error, file).to.be.a('string').with.length.greaterThan(10);
      else expect(job.chunks, file).to.be.greaterThan(0);
    }
    expect((await t.anonymous.get('/api/v1/health')).text).to.equal('up');
  });

  it('fails only the encrypted and the malformed PDFs: every other document has text to index', () => {
    const failed = [...results.values()].filter((r) => r.job.status === 'failed').map((r) => `${r.file}: ${r.job.error}`);
    expect(failed.map((f) => f.split(':')[0]).sort()).to.deep.equal(
      ['pdfs/encrypted-libreoffice-openpassword.pdf', 'pdfs/encrypted-skew-password.pdf', 'pdfs/malformed-invalid.pdf'],
      failed.join('\n'),
    );
  });

  it('fails encrypted and malformed PDFs with reasons a user can act on', () => {
    for (const file of ['pdfs/encrypted-libreoffice-openpassword.pdf', 'pdfs/encrypted-skew-password.pdf']) {
      expect(results.get(file)!.job).to.include({ status: 'failed' });
      expect(results.get(file)!.job.error, file).to.match(/password/i);
    }
    expect(results.get('pdfs/malformed-invalid.pdf')!.job.status).to.equal('failed');
    expect(results.get('pdfs/malformed-invalid.pdf')!.job.error).to.match(/damaged|not a valid PDF|malformed|corrupt/i);
  });

  it('completes the scanned PDFs with their OCR text, and the 117-page PDF with every page', () => {
    for (const file of ['pdfs/scanned-epson-wikipedia-ocr.pdf', 'pdfs/scanned-huckfinn-p22.pdf', 'pdfs/scanned-linn-2col.pdf']) {
      const { job, jobId } = results.get(file)!;
      expect(job.status, file).to.equal('completed');
      expect(chunkTexts(jobId).split(/\s+/).length, file).to.be.greaterThan(100);
    }
    expect(chunkTexts(results.get('pdfs/scanned-epson-wikipedia-ocr.pdf')!.jobId)).to.match(/optical character recognition/i);
    expect(results.get('pdfs/GeoTopo-komprimiert.pdf')!.job).to.include({ status: 'completed', pages: 117 });
  });

  it('finds each receipt’s total (from its file name) in its extracted text', () => {
    const receipts = [...results.keys()].filter((f) => f.includes('receipt_'));
    expect(receipts).to.have.length(7);
    for (const file of receipts) {
      const cents = /_(\d+)\.jpg$/.exec(file)![1];
      const total = `${Number(cents.slice(0, -2))},${cents.slice(-2)}`;
      const text = chunkTexts(results.get(file)!.jobId);
      expect(results.get(file)!.job.status, file).to.equal('completed');
      // Receipts print German decimals; OCR sometimes reads the comma as a dot.
      expect(text.includes(total) || text.includes(total.replace(',', '.')), `${file}: ${total}`).to.equal(true);
    }
  });

  it('answers a question about a text PDF from its content, with the source', async () => {
    const res = await api.ask(sessionId, 'What does the DMCA say about the liability of online service providers?');
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.sources.map((s: any) => s.filename)).to.include('dmca-summary-1998.pdf');
    expect(res.body.data).to.match(/service provider/i);
  });

  it('gives the overview of the one document a question names by its file name, among every corpus document', async () => {
    const res = await api.ask(sessionId, 'What is the IRS document about?');
    expect(res.status).to.equal(200);
    expect([...new Set(res.body.sources.map((s: { filename: string }) => s.filename))]).to.deep.equal(['irs-i1040nr-2007.pdf']);
    expect(res.body.data).to.include('Instructions for Form 1040NR');
    // Its footer, which the reading order puts between the columns mid-text, is in no sentence.
    const irs = chunkTexts(results.get('pdfs/irs-i1040nr-2007.pdf')!.jobId);
    expect(irs).to.include('Usually, this is 3 years from the date the return was due or filed');
  });

  it('gives the overview of a document named by words its file name runs together ("Huck Finn" of huckfinn)', async () => {
    const res = await api.ask(sessionId, 'Summarize the Huck Finn page');
    expect(res.status).to.equal(200);
    expect([...new Set(res.body.sources.map((s: { filename: string }) => s.filename))]).to.deep.equal(['scanned-huckfinn-p22.pdf']);
    expect(res.body.data).to.match(/tip-toeing along a path/);
  });

  it('gives a notice’s overview from its summary, not from the boilerplate and running headers around it', async () => {
    const res = await api.ask(sessionId, 'What is the Federal Register document about?');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include('The FAA proposes to supersede Airworthiness Directive (AD) 2018–23–51');
    expect(res.body.data).to.not.include('This section of the FEDERAL REGISTER');
    // Its running header ('47700 Federal Register / Vol. 85 …', left and right pages) is in no chunk.
    expect(chunkTexts(results.get('pdfs/federal-register-2020-17221.pdf')!.jobId)).to.not.include('Vol. 85, No. 152 / Thursday');
  });

  it('answers a notice’s costs with the table its sentence announces, rows read through their dot leaders', async () => {
    const res = await api.ask(sessionId, 'What are the estimated costs?');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include('the following costs to comply with this proposed AD:');
    expect(res.body.data).to.match(/operators \| FCC OPS installation and verification 1 work-hour × \$85 per hour = \$85 \$0 \$85 \$6,205 \| AFM/);
  });

  it('answers what was paid at a shop with its photographed receipt’s total line, cited', async () => {
    // Ikea's receipt is named by its file name only: the OCR reads its heading as "TKEA".
    for (const [shop, total, file] of [['Aldi', '24,23', 'receipt_aldi_02032020_19_02423.jpg'], ['Hornbach', '152,00', 'receipt_hornbach_23092016_03_15200.jpg'], ['Ikea', '134,39', 'receipt_ikea_08102016_12_13439.jpg']]) {
      const res = await api.ask(sessionId, `How much did I pay at ${shop}?`);
      expect(res.status).to.equal(200);
      expect(res.body.data, shop).to.match(new RegExp(`^${total} — “[^”]*${total}” \\[1\\]`));
      expect(res.body.sources.filter((s: { cited: boolean }) => s.cited).map((s: { filename: string }) => s.filename), shop).to.deep.equal([file]);
    }
  });

  /**
   * An answer of one line per receipt, each cited to its own: the lines with each one's number, and its total as the
   * receipt's file name gives it in cents ("…_02423.jpg": 24,23).
   */
  async function receiptLines(question: string, receipts: [number, number]): Promise<{ line: string; total: string; n: number }[]> {
    const res = await api.ask(sessionId, question);
    expect(res.status).to.equal(200);
    const lines = (res.body.data as string).split('\n\nSources:')[0].split('\n').filter((line) => line !== MORE_RECEIPTS_NOTE);
    const cited: string[] = res.body.sources.filter((s: { cited: boolean }) => s.cited).map((s: { filename: string }) => s.filename);
    expect(lines.length, res.body.data).to.be.within(...receipts);
    expect(cited).to.have.length(lines.length);
    return lines.map((line, i) => {
      const cents = /^receipt_.*_(\d+)\.jpg$/.exec(cited[i])?.[1];
      expect(cents, cited[i]).to.be.a('string');
      return { line, total: `${Number(cents!.slice(0, -2))},${cents!.slice(-2)}`, n: i + 1 };
    });
  }

  it('asked what I paid, names no shop: lists the receipts’ totals, each cited to its receipt', async () => {
    for (const { line, total, n } of await receiptLines('How much did I pay?', [3, 5]))
      expect(line).to.match(new RegExp(`^${total} — “[^”]+” \\[${n}\\]$`));
  });

  it('tells each photographed receipt in an overview by its total and items, not by the OCR of its shop’s address', async () => {
    for (const shop of ['Ikea', 'Hornbach']) {
      const res = await api.ask(sessionId, `What is the ${shop} receipt about?`);
      expect(res.status).to.equal(200);
      const cited = [...new Set(res.body.sources.filter((s: { cited: boolean }) => s.cited).map((s: { filename: string }) => s.filename))] as string[];
      expect(cited, res.body.data).to.have.length(1);
      const cents = /^receipt_.*_(\d+)\.jpg$/.exec(cited[0])![1];
      expect(res.body.data).to.match(new RegExp(`^A receipt(?: of [\\d.: ]+)?, total ${Number(cents.slice(0, -2))},${cents.slice(-2)} \\(“[^”]+”\\): “[^”]+ … [^”]+”`));
    }
  });

  it('answers what was bought at a shop named only by its receipts’ file names with their item lines', async () => {
    const res = await api.ask(sessionId, 'What did I buy at Lidl?');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.match(/Emmentaler/);
    const cited = res.body.sources.filter((s: { cited: boolean }) => s.cited).map((s: { filename: string }) => s.filename);
    expect(cited.length).to.be.greaterThan(0);
    expect(cited.every((f: string) => f.startsWith('receipt_lidl_')), cited.join()).to.equal(true);
  });

  it('asked what I bought, names no shop: quotes several receipts’ lines, each ending with its total, and nothing else', async () => {
    const lines = await receiptLines('What did I buy?', [2, 5]);
    for (const { line, total, n } of lines) expect(line).to.match(new RegExp(`^“.*${total}” \\[${n}\\]$`));
    // Items above the total: the OCR of one Lidl receipt runs them into one line with its total (not an item line).
    expect(lines.filter(({ line }) => line.includes(' … ')).length, lines.map(({ line }) => line).join('\n')).to.be.at.least(2);
  });

  it('answers what was bought at a shop with the item lines of its whole receipt, not only of the passages found', async () => {
    // The Aldi receipt's OCR is four chunks; its items hold no word of the question.
    const res = await api.ask(sessionId, 'What did I buy at Aldi?');
    expect(res.status).to.equal(200);
    const items = res.body.data.split('\n\nSources:')[0].split(' … ');
    expect(items.length, res.body.data).to.be.at.least(6);
    expect(res.body.data).to.include('FERRERO KINDER RIEGEL').and.include('24,23');
  });

  it('answers what is in or on a shop’s receipt with its item lines, cited to that receipt alone', async () => {
    // "in" makes it an overview question (of the receipt its file name names), "on" a search: both reach the receipt.
    for (const [question, item, file] of [['What is in the Hornbach receipt?', 'PARKETTZUBEHOR', 'receipt_hornbach_23092016_03_15200.jpg'], ['What is on the Ikea receipt?', 'POANG', 'receipt_ikea_08102016_12_13439.jpg']]) {
      const res = await api.ask(sessionId, question);
      expect(res.status).to.equal(200);
      // Item lines, one of them the item's (the Ikea receipt's total is in another passage than its first items).
      expect(res.body.data, question).to.match(new RegExp(`^“[^”]* … [^”]*” \\[1\\]`)).and.include(item);
      // Its item lines may come from two of its passages, each cited (under the one number).
      expect([...new Set(res.body.sources.filter((s: { cited: boolean }) => s.cited).map((s: { filename: string }) => s.filename))], question).to.deep.equal([file]);
    }
  });

  it('answers what an item on a photographed receipt cost with the item’s line, not the total', async () => {
    const res = await api.ask(sessionId, 'How much did the POANG cushion cost at Ikea?');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.match(/^20,00 — “POANG [^”]*20,00[^”]*” \[1\]/);
    expect(res.body.sources.filter((s: { cited: boolean }) => s.cited).map((s: { filename: string }) => s.filename)).to.deep.equal(['receipt_ikea_08102016_12_13439.jpg']);
  });

  it('answers a question about a scanned PDF from its OCR text', async () => {
    const res = await api.ask(sessionId, 'Who was setting in the kitchen door of the widow’s garden?');
    expect(res.status).to.equal(200);
    expect(res.body.sources[0].filename).to.equal('scanned-huckfinn-p22.pdf');
    expect(res.body.data).to.include('scanned-huckfinn-p22.pdf');
    expect(res.body.data).to.match(/Jim, was setting in the kitchen door/);
  });

  it('answers a question about a photographed page (tesseractjs_testocr.jpg)', async () => {
    const res = await api.ask(sessionId, 'How many points is the text used to test the ocr code on all types of file format?');
    expect(res.status).to.equal(200);
    expect(res.body.sources[0].filename).to.equal('tesseractjs_testocr.jpg');
    expect(res.body.data).to.include('12 point text');
  });

  it('honours EXIF orientation: the rotated sample reads like the upright one', () => {
    expect(chunkTexts(results.get('images/tesseractjs_simple-90.jpg')!.jobId)).to.include('Tesseract.js');
    expect(chunkTexts(results.get('images/tesseractjs_simple.jpg')!.jobId)).to.include('Tesseract.js');
  });
});
