import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { chromiumUnavailableReason, openWatchedPage, requireChromium, sayWhyBrowserSuitesSkip, type BrowserSession } from '../../support/browser.js';
import { textPdf } from '../../support/make-pdf.js';
import { embeddedStack, type Stack } from '../../support/stacks.js';
import { TEST_JWT_SECRET, type TestService } from '../../support/test-service.js';
import { ensureWebBuilt } from '../../support/web-build.js';
import { documentItem, waitForStatus } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, a folder of files at once');

/** More files at once than the server keeps uploads pending for one user (MAX_PENDING_UPLOADS, 20 by default). */
const FILES = 25;

describe('web app in Chromium, a folder of files at once', function () {
  this.timeout(120_000);
  let stack: Stack;
  let service: TestService;
  let browser: BrowserSession;
  let page: Page;

  before(async function () {
    if (chromiumUnavailableReason()) this.skip();
    ensureWebBuilt();
    stack = embeddedStack();
    service = await stack.start();
    ({ browser, page } = await openWatchedPage());
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it(`uploads ${FILES} files chosen together, a few at a time, the others shown waiting: every one completes`, async () => {
    const files = await Promise.all(Array.from({ length: FILES }, async (_, i) => ({
      name: `note-${String(i + 1).padStart(2, '0')}.pdf`,
      mimeType: 'application/pdf',
      buffer: Buffer.from((await textPdf({ title: `Note ${i + 1}`, paragraphs: [`Note number ${i + 1} is about topic ${i + 1}.`] })).bytes),
    })));
    // Upload URLs asked for and not yet answered by an ingest request: the uploads the server holds pending.
    let pending = 0;
    let mostPending = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/ingest/upload/url')) mostPending = Math.max(mostPending, ++pending);
      if (request.url().endsWith('/api/v1/ingest/process')) pending--;
    });
    await page.goto(`${service.baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'folder-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    await page.getByLabel('Upload documents').setInputFiles(files);
    await documentItem(page, files.at(-1)!.name).getByText('waiting to upload').waitFor();
    for (const file of files) await waitForStatus(page, file.name, /^completed$/, 90_000);
    expect(await page.getByRole('alert').count(), 'no problem reported').to.equal(0);
    expect(mostPending).to.be.within(1, 3);
  });
});
