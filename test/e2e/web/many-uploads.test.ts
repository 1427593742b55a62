import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { launchChromium, requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { textPdf } from '../../support/make-pdf.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { UPLOAD_STALL_MS } from '../../../web/src/upload-rules.js';
import { documentItem, embeddedAppInChromium, waitForStatus, waitUntil } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, a folder of files at once');

/** More files at once than the server keeps uploads pending for one user (MAX_PENDING_UPLOADS, 20 by default). */
const FILES = 25;

describe('web app in Chromium, a folder of files at once', function () {
  this.timeout(120_000);
  const app = embeddedAppInChromium();

  /** `count` small PDFs, note-01.pdf … (`prefix`-01.pdf …). */
  const notes = (count: number, prefix = 'note') => Promise.all(Array.from({ length: count }, async (_, i) => ({
    name: `${prefix}-${String(i + 1).padStart(2, '0')}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.from((await textPdf({ title: `Note ${i + 1}`, paragraphs: [`Note number ${i + 1} is about topic ${i + 1}.`] })).bytes),
  })));

  it(`uploads ${FILES} files chosen in two goes, a few at a time, the others shown waiting: every one completes`, async () => {
    const page = app.page();
    const files = await notes(FILES);
    // Upload URLs asked for and not yet answered by an ingest request: the uploads the server holds pending.
    let pending = 0;
    let mostPending = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/ingest/upload/url')) mostPending = Math.max(mostPending, ++pending);
      if (request.url().endsWith('/api/v1/ingest/process')) pending--;
    });
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'folder-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    // A second choice while the first is still being sent joins the same queue: still a few at a time.
    await page.getByLabel('Upload documents').setInputFiles(files.slice(0, 12));
    await page.getByLabel('Upload documents').setInputFiles(files.slice(12));
    await documentItem(page, files.at(-1)!.name).getByText('waiting to upload').waitFor();
    for (const file of files) await waitForStatus(page, file.name, /^completed$/, 90_000);
    expect(await page.getByRole('alert').count(), 'no problem reported').to.equal(0);
    expect(mostPending).to.be.within(1, 3);
  });

  it('keeps a file sent to one session out of another opened meanwhile, and lists it in its own', async () => {
    const page = app.page();
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'switching-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await waitUntil('the new session’s address', async () => page.url().includes('/sessions/'));
    const first = page.url();
    // The file's bytes (PUT to the signed upload URL) are held back until the other session is open.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => url.pathname.startsWith('/uploads/'), async (route) => {
      await released;
      await route.continue();
    });
    const [file] = await notes(1, 'first-session');
    await page.getByLabel('Upload documents').setInputFiles([file]);
    await documentItem(page, file.name).waitFor();
    await page.getByRole('button', { name: 'New session' }).click();
    await waitUntil('the other session’s address', async () => page.url().includes('/sessions/') && page.url() !== first);
    const uploaded = page.waitForResponse((response) => response.url().endsWith('/api/v1/ingest/process'));
    release();
    await uploaded;
    await page.waitForTimeout(1500); // two polls of the other session's list
    expect(await documentItem(page, file.name).count(), 'not in the session opened meanwhile').to.equal(0);
    await page.goBack();
    await waitUntil('the first session again', async () => page.url() === first);
    await waitForStatus(page, file.name, /^completed$/, 30_000);
    await page.unrouteAll();
  });
  it('gives up an upload whose bytes stall, says so, and frees its place: the same file sent again completes', async () => {
    // A browser of its own: its clock is faked (the app's timers run as usual until the test jumps ahead).
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.clock.install();
      let stalled = 0;
      await page.route((url) => url.pathname.startsWith('/uploads/'), () => void stalled++); // never answered
      await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'stalled-user')}`);
      await page.getByRole('button', { name: 'New session' }).click();
      const [file] = await notes(1, 'stalled');
      await page.getByLabel('Upload documents').setInputFiles([file]);
      await documentItem(page, file.name).getByText('uploading').waitFor();
      await waitUntil('the PUT held', async () => stalled === 1);
      await page.clock.fastForward(UPLOAD_STALL_MS - 5_000);
      expect(await page.getByRole('alert').count(), 'not given up before its time').to.equal(0);
      await page.clock.fastForward(10_000);
      await page.getByRole('alert').getByText(`${file.name}: Upload stalled`).waitFor();
      expect(await documentItem(page, file.name).count(), 'no longer shown as uploading').to.equal(0);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.getByLabel('Upload documents').setInputFiles([file]);
      await waitForStatus(page, file.name, /^completed$/, 30_000);
    } finally {
      await browser.close();
    }
  });
});
