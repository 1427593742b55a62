import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { contractDocx, DOCX_TYPE } from '../../support/office-documents.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, documentItem, embeddedAppInChromium, lastAnswerSources, waitForStatus } from './helpers.js';

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
    // The cited section: its passage as text, with a word that its page is a section, not an error.
    await lastAnswerSources(page).first().click();
    const dialog = page.getByRole('dialog', { name: 'contract.docx, page 4' });
    await dialog.getByText('contract.docx has no drawn pages: page 4 is its section (in the order of its headings)', { exact: false }).waitFor();
    expect(await dialog.locator('blockquote.excerpt').first().textContent()).to.include('ninety days notice');
    expect(await dialog.locator('.error').count()).to.equal(0);
  });
});
