import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { budgetXlsx, contractDocx, DOCX_TYPE, XLSX_TYPE } from '../../support/office-documents.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, documentItem, embeddedAppInChromium, expectAccessible, lastAnswerSources, waitForStatus } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, the documents people have (ACCEPTED_TYPES=all)');

describe('web app in Chromium, the documents people have (ACCEPTED_TYPES=all)', function () {
  this.timeout(120_000);
  const app = embeddedAppInChromium({ ACCEPTED_TYPES: 'all' });

  it('says which kinds it takes, uploads a Word document, Markdown and text, and answers from the Word document', async () => {
    const page = app.page();
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'formats-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    await page.getByText(/Word, Excel, PowerPoint/).waitFor();
    const accept = await page.getByLabel('Upload documents').getAttribute('accept');
    expect(accept).to.include('.docx').and.include('.eml').and.include(DOCX_TYPE);
    // Browsers report no type for .md files: the extension decides.
    await page.getByLabel('Upload documents').setInputFiles([
      { name: 'contract.docx', mimeType: DOCX_TYPE, buffer: Buffer.from(await contractDocx()) },
      { name: 'README.md', mimeType: '', buffer: Buffer.from('# Kettle\n\nThe kettle boils water in ninety seconds.\n') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The plumber comes on Tuesday.') },
    ]);
    for (const name of ['contract.docx', 'README.md', 'notes.txt']) await waitForStatus(page, name, /^completed$/, 90_000);
    expect(await documentItem(page, 'contract.docx').textContent()).to.include('4 pages');
    const answer = await ask(page, 'How much notice ends the agreement?');
    expect(answer).to.match(/ninety days notice/);
    // The cited section, named by its heading: its text, the quoted words marked, no page image and no error.
    await lastAnswerSources(page).first().click();
    const dialog = page.getByRole('dialog', { name: 'contract.docx, 7. Termination' });
    await dialog.getByRole('heading', { name: '7. Termination' }).waitFor();
    const text = dialog.getByRole('region', { name: 'Text of 7. Termination' });
    await text.locator('.unit-text mark').first().waitFor();
    expect(await text.locator('.unit-text mark').first().textContent()).to.include('ninety days notice');
    expect(await text.locator('blockquote').count()).to.equal(0);
    expect(await dialog.locator('.error, img').count()).to.equal(0);
  });

  it('names a workbook’s sheet as the source, and shows the sheet as text with the quoted row marked', async () => {
    const page = app.page();
    // A workbook chosen before the page has heard which kinds the server takes waits for the answer: it is not refused
    // as "Only PDF and JPEG files" (a lone-clone run once chose it that early).
    let release!: () => void;
    const told = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/ingest/upload/types', async (route) => (await told, route.continue()));
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'sheets-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    try {
      await page.getByLabel('Upload documents').setInputFiles([{ name: 'budget.xlsx', mimeType: XLSX_TYPE, buffer: Buffer.from(await budgetXlsx()) }]);
      expect(await page.getByText(/Only PDF and JPEG files can be added/).count(), 'not refused while the kinds are unknown').to.equal(0);
    } finally {
      release();
    }
    await waitForStatus(page, 'budget.xlsx', /^completed$/, 90_000);
    await page.unroute('**/api/v1/ingest/upload/types');
    expect(await ask(page, 'What was the travel budget in 2019?')).to.contain('budget.xlsx, Sheet Q3');
    const source = page.getByRole('log', { name: 'Conversation' }).getByRole('button', { name: 'budget.xlsx, Sheet Q3' });
    expect(await lastAnswerSources(page).first().textContent()).to.equal('budget.xlsx, Sheet Q3');
    await source.first().click();
    const dialog = page.getByRole('dialog', { name: 'budget.xlsx, Sheet Q3' });
    await dialog.getByRole('heading', { name: 'Sheet Q3' }).waitFor();
    const text = dialog.getByRole('region', { name: 'Text of Sheet Q3' });
    const sheet = text.locator('.unit-text');
    await sheet.locator('mark').first().waitFor();
    // The whole sheet is there (the rows around the quoted one), as text: no element but the marks; the quoted rows
    // marked, a row the answer does not quote (Training) and the sheet's name not; no excerpt stands in for marks.
    expect(await sheet.textContent()).to.include('Training 8,000').and.include('Share of total');
    const marks = await sheet.locator('mark').allTextContents();
    expect(marks).to.include('Travel budget 12,500 11,800.50');
    expect(marks.join('\n')).to.not.include('Training').and.not.include('Sheet Q3');
    expect(await sheet.locator('*').evaluateAll((all) => all.map((e) => e.tagName))).to.satisfy((tags: string[]) => tags.length > 0 && tags.every((t) => t === 'MARK'));
    expect(await text.locator('blockquote').count()).to.equal(0);
    await expectAccessible(page, 'a sheet as a source');
    await page.screenshot({ path: path.join(os.tmpdir(), 'doc-chat-unit-source.png') });
  });
});
