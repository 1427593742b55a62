import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { withExifOrientation } from '../support/extraction-fixtures.js';
import {
  MALFORMED_PDF,
  pagedTextPdf,
  readFixture,
  scannedPdf,
  sidewaysTextJpeg,
  textJpeg,
  truncatedPdf,
} from '../support/generated-documents.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PDF = 'application/pdf';
const JPEG = 'image/jpeg';

/**
 * The kinds of document the real-document corpus holds (ingestion-real-documents.test.ts), generated, through the HTTP
 * API on the embedded defaults: a text PDF of several pages, a scanned page, a photographed page, a photo taken
 * sideways (EXIF orientation), a password-protected, a truncated and a malformed PDF.
 */
describe('ingestion of generated documents over HTTP (embedded defaults)', function () {
  this.timeout(180_000);
  let t: TestService;
  let api: ApiClient;
  let sessionId: string;
  const jobs = new Map<string, any>();

  before(async () => {
    const documents: [string, Uint8Array, string][] = [
      ['handbook.pdf', await pagedTextPdf([
        ['Staff handbook', 'Chapter one covers working hours and holidays.'],
        ['Chapter two: every employee gets thirty days of paid leave per year.'],
        ['Chapter three: expenses are refunded within fourteen days.'],
      ]), PDF],
      ['harbour-scan.pdf', await scannedPdf([[
        'Harbour log, spring season.',
        'The harbour master opened the north gate',
        'at six in the morning.',
        'Fishing boats returned before noon.',
      ]]), PDF],
      ['library-notice.jpg', textJpeg(['Library notice.', 'The reading room closes', 'at nine on Fridays.'], { width: 900, height: 600, fontSize: 48 }), JPEG],
      ['sideways.jpg', withExifOrientation(sidewaysTextJpeg(['Taken sideways', 'and read upright.'], { width: 900, height: 500, fontSize: 56 }), 6, 'II'), JPEG],
      ['locked.pdf', readFixture('encrypted-user-password.pdf'), PDF],
      ['truncated.pdf', await truncatedPdf(), PDF],
      ['malformed.pdf', MALFORMED_PDF, PDF],
    ];
    t = await startTestService();
    api = await t.as('reader');
    sessionId = await api.createSession('generated documents');
    const ids = new Map<string, string>();
    for (const [name, bytes, type] of documents) ids.set(name, (await api.uploadAndIngest(sessionId, name, bytes, type)).jobId);
    for (const [name, jobId] of ids) jobs.set(name, { ...(await api.waitForJob(jobId, 150_000)), jobId });
  });
  after(() => t?.close());

  const chunkTexts = (name: string): string => {
    const database = t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
    const rows = database.raw.prepare('SELECT text FROM chunks WHERE job_id = ? ORDER BY ordinal').all(jobs.get(name).jobId) as { text: string }[];
    return rows.map((r) => r.text).join('\n');
  };

  it('completes the readable documents with their pages, and the server stays up', async () => {
    expect(jobs.get('handbook.pdf')).to.include({ status: 'completed', pages: 3 });
    for (const name of ['harbour-scan.pdf', 'library-notice.jpg', 'sideways.jpg']) {
      expect(jobs.get(name), name).to.include({ status: 'completed', pages: 1 });
      expect(jobs.get(name).chunks, name).to.be.greaterThan(0);
    }
    expect((await t.anonymous.get('/api/v1/health')).text).to.equal('up');
  });

  it('fails the password-protected, truncated and malformed PDFs with reasons a user can act on', () => {
    expect(jobs.get('locked.pdf')).to.include({ status: 'failed' });
    expect(jobs.get('locked.pdf').error).to.match(/password/i);
    for (const name of ['truncated.pdf', 'malformed.pdf']) {
      expect(jobs.get(name), name).to.include({ status: 'failed' });
      expect(jobs.get(name).error, name).to.match(/damaged|not a valid PDF/i);
    }
  });

  it('indexes the OCR text of the scan and of both photos, the sideways one turned upright', () => {
    expect(chunkTexts('harbour-scan.pdf')).to.include('opened the north gate');
    expect(chunkTexts('library-notice.jpg')).to.include('The reading room closes');
    expect(chunkTexts('sideways.jpg')).to.include('read upright');
  });

  it('answers from a text PDF, citing the page', async () => {
    const res = await api.ask(sessionId, 'How many days of paid leave does every employee get per year?');
    expect(res.status).to.equal(200);
    expect(res.body.sources[0]).to.include({ filename: 'handbook.pdf', page: 2 });
    expect(res.body.data).to.match(/thirty days of paid leave/);
  });

  it('answers from a scanned page (OCR)', async () => {
    const res = await api.ask(sessionId, 'When did the harbour master open the north gate?');
    expect(res.status).to.equal(200);
    expect(res.body.sources[0].filename).to.equal('harbour-scan.pdf');
    expect(res.body.data).to.match(/six in the morning/);
  });

  it('answers from a photographed page (OCR)', async () => {
    const res = await api.ask(sessionId, 'When does the reading room close on Fridays?');
    expect(res.status).to.equal(200);
    expect(res.body.sources[0].filename).to.equal('library-notice.jpg');
    expect(res.body.data).to.match(/nine on Fridays/);
  });
});
