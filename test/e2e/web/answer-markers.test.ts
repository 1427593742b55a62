import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { pagedTextPdf } from '../../support/generated-documents.js';
import { textPdf } from '../../support/make-pdf.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, embeddedAppInChromium, expectAccessible, imageLoaded, waitForStatus, waitUntil } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, citation numbers in an answer');

describe('web app in Chromium, citation numbers in an answer', function () {
  this.timeout(60_000);
  const app = embeddedAppInChromium();

  it('opens a source by each "[n]" the answer cites, and leaves a "[n]" quoted from the document as text', async () => {
    const page = app.page();
    // As a photographed receipt reads "SUMME [3] EUR 152,00", cited as the answer's third source: the document's own
    // brackets, quoted, with the number of a source.
    const pdf = await textPdf({ title: 'Bank fees', paragraphs: ['The fee table [1] lists an overdraft fee of 25 dollars per item.'] });
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'marker-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    await page.getByLabel('Upload documents').setInputFiles([{ name: 'fees.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf.bytes) }]);
    await waitForStatus(page, 'fees.pdf', /^completed$/);
    const text = await ask(page, 'What is the overdraft fee?');
    expect(text).to.match(/“[^”]*fee table \[1\] lists an overdraft fee[^”]*” \[1\]/);
    const answer = page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last();
    const markers = answer.locator('.content').getByRole('button', { name: /^Source \d+: / });
    expect(await markers.count(), "the marker after the quote (the Sources line is shown as the list of sources)").to.equal(1);
    for (const marker of await markers.all()) {
      expect(await marker.textContent()).to.equal('[1]');
      expect(await marker.getAttribute('aria-label')).to.equal('Source 1: fees.pdf, page 1');
    }
  });

  it('answers a figure computed from a table with the computation first, and marks the row it read on the page', async () => {
    const page = app.page();
    await page.setViewportSize({ width: 1280, height: 860 });
    // One line per row, as a report prints its table; the third line is the row asked about.
    const lines = ['Harbour office accounts', '(in thousands) 2021 2020', 'Ferry tickets 2,400 2,000', 'Season passes 900 1,000', 'Berth dues 310 250', 'The harbour office collected its fees at the quay.'];
    const pdf = await pagedTextPdf([lines]);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor(); // its upload box, not the last session's
    await page.getByLabel('Upload documents').setInputFiles([{ name: 'harbour.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) }]);
    await waitForStatus(page, 'harbour.pdf', /^completed$/);
    const text = await ask(page, 'What was the percentage change in ferry tickets from 2020 to 2021?');
    expect(text.split('\n')[0]).to.equal('Percentage change in Ferry tickets from 2020 to 2021: 20% ((2,400 − 2,000) / 2,000 = 20%)');
    const answer = page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last();
    await answer.locator('.content').getByRole('button', { name: 'Source 1: harbour.pdf, page 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'harbour.pdf, page 1' });
    const image = dialog.getByRole('img', { name: 'Page 1 of harbour.pdf, the quoted passage marked' });
    await waitUntil('the marked page image to load', () => imageLoaded(image));
    // The row is marked, one line high, over the third line (its middle ~101 of the page's 792 points; what the
    // answer also quotes of the page is marked too).
    const box = (await image.boundingBox())!;
    const marks = await dialog.locator('.page-image .mark').all();
    const rows = [];
    for (const mark of marks) {
      const at = (await mark.boundingBox())!;
      rows.push({ middle: (at.y + at.height / 2 - box.y) / box.height, height: at.height / box.height });
    }
    expect(rows.filter((r) => r.middle > 0.118 && r.middle < 0.138 && r.height < 0.03), JSON.stringify(rows)).to.have.length(1);
    await expectAccessible(page, 'table answer with its row marked');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });
});
