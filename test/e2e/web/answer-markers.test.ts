import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { textPdf } from '../../support/make-pdf.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, embeddedAppInChromium, waitForStatus } from './helpers.js';

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
});
