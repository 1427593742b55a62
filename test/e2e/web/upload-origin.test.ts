import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { embeddedAppInChromium, fixtures, waitForStatus } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, opened at an address other than PUBLIC_URL');

// `npm start` with no PUBLIC_URL, the app opened at 127.0.0.1 (or from another machine): uploads went to
// http://localhost, which the page may not reach (its Content-Security-Policy allows its own origin), so every file
// failed with "the storage server could not be reached".
describe('web app in Chromium, opened at an address other than localhost, no PUBLIC_URL', function () {
  this.timeout(120_000);
  const app = embeddedAppInChromium({ PUBLIC_URL: '' });

  it('uploads a document to the address the page was opened at, and it completes', async () => {
    const page = app.page();
    expect(new URL(app.service().baseUrl).hostname).to.equal('127.0.0.1');
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'lan-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') uploads.push(request.url());
    });
    const { acme } = await fixtures();
    await page.getByLabel('Upload documents').setInputFiles([acme]);
    await waitForStatus(page, acme.name, /^completed$/, 60_000);
    expect(await page.getByRole('alert').count(), 'no problem reported').to.equal(0);
    expect(uploads).to.have.length(1);
    expect(uploads[0]!.startsWith(`${app.service().baseUrl}/uploads/`), uploads[0]).to.equal(true);
  });
});
