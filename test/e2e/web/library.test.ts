import { expect } from 'chai';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, documentItem, embeddedAppInChromium, expectAccessible, fixtures, waitForStatus } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, the document library');

describe('web app in Chromium, the document library', function () {
  this.timeout(120_000);
  const app = embeddedAppInChromium();

  it('adds a document of another session from the Library without uploading it, then answers from it', async () => {
    const page = app.page();
    const { acme } = await fixtures();
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'library-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    await page.getByLabel('Upload documents').setInputFiles([acme]);
    await waitForStatus(page, acme.name, /^completed$/);
    // The session is named from its first document.
    await page.getByRole('heading', { level: 1, name: 'Untitled session' }).waitFor({ state: 'detached' });
    const firstLabel = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    const first = page.url();

    // A second session: the document reaches it from the library, with no upload request at all.
    await page.getByRole('button', { name: 'New session' }).click();
    await page.waitForURL((url) => url.href !== first && url.pathname.startsWith('/sessions/'));
    const uploads: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/v1/ingest/upload/url' || path === '/api/v1/ingest/process' || path.startsWith('/uploads/')) uploads.push(path);
    });
    await page.getByRole('button', { name: 'Library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Library' });
    const item = dialog.getByRole('list', { name: 'Library documents' }).getByRole('listitem').filter({ hasText: acme.name });
    await item.getByText(`In: ${firstLabel}`).waitFor();
    await expectAccessible(page, 'the library dialog');
    const added = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/v1\/session\/[^/]+\/documents$/.test(new URL(r.url()).pathname));
    await item.getByRole('button', { name: 'Add to this session' }).click();
    expect((await added).status()).to.equal(201);
    await dialog.getByRole('status').filter({ hasText: `${acme.name} was added to this session.` }).waitFor();
    await item.getByText('In this session').waitFor();
    expect(await item.getByRole('button', { name: 'Add to this session' }).count()).to.equal(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Listed at once as completed, and asked about.
    expect(await waitForStatus(page, acme.name, /^completed$/, 5_000)).to.equal('completed');
    expect(await documentItem(page, acme.name).count()).to.equal(1);
    const answer = await ask(page, 'What is the monthly maintenance fee on checking accounts?');
    expect(answer).to.match(/12 dollars/);
    expect(uploads, 'nothing uploaded or ingested again').to.deep.equal([]);
    expect(await page.getByRole('alert').count(), 'no problem reported').to.equal(0);
  });
});
