import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { chromiumUnavailableReason, openWatchedPage, requireChromium, sayWhyBrowserSuitesSkip, takeExpectedRefusals, type BrowserSession, type PageWatch } from '../../support/browser.js';
import { postgresUnavailableReason } from '../../support/postgres-cluster.js';
import { embeddedStack, scaledStack, type ProductionStack, type Stack } from '../../support/stacks.js';
import { TEST_JWT_SECRET, type TestService } from '../../support/test-service.js';
import { ensureWebBuilt } from '../../support/web-build.js';
import { encodePng } from '../../../adapters/extraction/png-encoder.js';
import { sourceLine } from '../../support/answer-source-line.js';
import { textPdf } from '../../support/make-pdf.js';
import {
  ask, documentItem, expectAccessible, expectNoSidewaysScroll, fixtures, imageLoaded, lastAnswerSources, MARKUP_FILENAME, MARKUP_LABEL, streamedSources, timetablePdf,
  waitForStatus, waitUntil, type UploadFile,
} from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium');
const STACK_FACTORIES = postgresUnavailableReason() ? [embeddedStack] : [embeddedStack, scaledStack];
if (postgresUnavailableReason()) describe('web app on the scaled stack', () => it(`skipped: ${postgresUnavailableReason()}`, function () { this.skip(); }));

/** Object stores answer a browser's PUT only with CORS for the app's origin (SeaweedFS and MinIO allow every origin by default). */
async function allowBrowserUploads(stack: ProductionStack): Promise<void> {
  const xml = '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader></CORSRule></CORSConfiguration>';
  const response = await fetch(`${stack.s3PublicUrl}/${stack.bucket}?cors`, { method: 'PUT', body: xml });
  if (!response.ok) throw new Error(`could not set the bucket's CORS rules: ${response.status}`);
}

for (const makeStack of STACK_FACTORIES) {
  describe(`web app in Chromium, ${makeStack === embeddedStack ? 'embedded' : 'scaled'} stack`, function () {
    this.timeout(90_000);
    let stack: Stack;
    let service: TestService;
    let browser: BrowserSession;
    let page: Page;
    let watch: PageWatch;
    let token: string;
    let files: Awaited<ReturnType<typeof fixtures>>;
    let sessionUrl: string;
    const allowedOrigins: string[] = [];

    before(async function () {
      const reason = chromiumUnavailableReason();
      if (reason) this.skip();
      ensureWebBuilt();
      stack = makeStack();
      service = await stack.start();
      allowedOrigins.push(new URL(service.baseUrl).origin);
      if (stack.name === 'scaled') {
        await allowBrowserUploads(stack as ProductionStack);
        // The browser sends files straight to the object store (the signed URL): the one other origin it may reach.
        allowedOrigins.push(new URL((stack as ProductionStack).s3PublicUrl).origin);
      }
      token = await signLocalToken(TEST_JWT_SECRET, 'web-user');
      files = await fixtures();
      ({ browser, page, watch } = await openWatchedPage());
    });

    after(async () => {
      await browser?.close();
      await stack?.close();
    });

    // A failure in CI is read from its log alone: say what the service warned of meanwhile.
    let linesBefore = 0;
    beforeEach(() => void (linesBefore = service?.logger.lines.length ?? 0));
    afterEach(function () {
      if (this.currentTest?.state !== 'failed' || !service) return;
      const said = service.logger.lines.slice(linesBefore).filter((l) => l.level !== 'info');
      console.log(`    the service's warnings and errors during it (${said.length}):`);
      for (const line of said.slice(-30)) console.log(`      ${line.level} ${line.message} ${JSON.stringify(line.fields ?? {})}`);
    });

    it('serves the app: CSP without inline scripts, index.html not cached, hashed assets immutable, not for /api or /metrics', async () => {
      const index = await fetch(`${service.baseUrl}/sessions/any-id`);
      expect(index.status).to.equal(200);
      expect(index.headers.get('content-type')).to.match(/^text\/html/);
      expect(index.headers.get('cache-control')).to.equal('no-cache');
      const csp = index.headers.get('content-security-policy')!;
      expect(csp).to.include("script-src 'self'").and.not.include('unsafe-inline');
      expect(csp).to.include("img-src 'self' blob: data:");
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await index.text())![1];
      const script = await fetch(`${service.baseUrl}${asset}`);
      expect(script.headers.get('cache-control')).to.match(/max-age=31536000\b.*\bimmutable/);
      expect((await fetch(`${service.baseUrl}/assets/missing-0000.js`)).status).to.equal(404);
      expect((await fetch(`${service.baseUrl}/api/v1/nothing`)).headers.get('content-type')).to.not.match(/html/);
      expect((await fetch(`${service.baseUrl}/metrics`)).headers.get('content-type')).to.match(/^text\/plain/);
    });

    it('signs in by the form; a refused token returns to the form with a message', async () => {
      await page.goto(`${service.baseUrl}/`);
      await expectAccessible(page, 'sign-in');
      await page.getByRole('textbox', { name: 'Access token' }).fill('not-a-valid-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'sign in again' }).waitFor();
      // The refused token's 401 is the only console error expected here.
      await takeExpectedRefusals(watch, 401);
      await page.getByRole('textbox', { name: 'Access token' }).fill(token);
      // The sessions are asked for after the workspace has painted: the next test clears the token, and must not do
      // so before that request has gone with it (it then went without, and was refused with a 401).
      const sessionsListed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/session/' && r.request().method() === 'GET');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
      expect((await sessionsListed).status()).to.equal(200);
    });

    it('signs in by /#token= and removes the token from the address', async () => {
      // A fresh tab opening the link `doc-chat open` prints.
      await page.evaluate(() => localStorage.clear());
      await page.goto('about:blank');
      await page.goto(`${service.baseUrl}/#token=${token}`);
      await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
      expect(page.url()).to.equal(`${service.baseUrl}/`);
      await expectAccessible(page, 'workspace without a session');
    });

    it('creates a session and renames it in place; a label with markup shows as written', async () => {
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
      sessionUrl = page.url();
      expect(sessionUrl).to.match(/\/sessions\/[0-9a-f-]{36}$/);
      await page.getByRole('button', { name: 'Rename Untitled session' }).click();
      await page.getByRole('textbox', { name: 'Session name' }).fill(MARKUP_LABEL);
      await page.getByRole('textbox', { name: 'Session name' }).press('Enter');
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: MARKUP_LABEL }).waitFor();
      await page.getByRole('heading', { name: MARKUP_LABEL }).waitFor();
      expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).to.equal(undefined);
    });

    it('uploads a real PDF and a JPEG with a progressbar and watches them complete', async () => {
      await page.getByText('Tags for the next upload').click();
      await page.getByRole('textbox', { name: 'Institution' }).fill('acme');
      const upload = (f: UploadFile[]) => page.getByLabel('Upload documents').setInputFiles(f);
      await upload([files.acme, files.pdf, files.jpeg]);
      await page.getByRole('progressbar').first().waitFor();
      for (const f of [files.acme, files.pdf, files.jpeg]) await waitForStatus(page, f.name, /^completed$/, 80_000);
      const acme = documentItem(page, files.acme.name);
      expect(await acme.textContent()).to.include('institution: acme').and.include('2 pages');
      await page.getByRole('textbox', { name: 'Institution' }).fill('globex');
      await upload([files.globex]);
      await waitForStatus(page, files.globex.name, /^completed$/);
      await expectAccessible(page, 'session with documents');
    });

    it('refuses a file type before upload in words for people (not the API contract text), and a failed ingest shows its reason', async () => {
      const before = watch.requests.length;
      await page.getByLabel('Upload documents').setInputFiles([files.text]);
      await page.getByText('notes.txt: Only PDF and JPEG files can be added (this one is a .txt file)').waitFor();
      expect(watch.requests.slice(before).filter((r) => r.url.includes('/upload/url'))).to.deep.equal([]);
      await page.getByRole('textbox', { name: 'Institution' }).fill('');
      await page.getByLabel('Upload documents').setInputFiles([files.malformed]);
      const status = await waitForStatus(page, files.malformed.name, /^failed: .+/);
      expect(status.length).to.be.greaterThan('failed: '.length + 5);
    });

    it('streams an answer into the Conversation log, then its sources', async () => {
      const streamed = page.waitForResponse((r) => r.url().endsWith('/api/v1/chat/completions'));
      const answer = await ask(page, 'How much do international wire transfers cost?');
      const response = await streamed;
      expect(response.headers()['content-type']).to.match(/^text\/event-stream/);
      expect(response.request().headers()['accept']).to.equal('text/event-stream');
      expect(answer).to.include('45');
      const sources = lastAnswerSources(page);
      expect(await sources.count()).to.be.greaterThan(0);
      expect(await sources.first().textContent()).to.equal('acme-fees.pdf, page 2');
    });

    it('opens a source: the page image and the excerpt marked; Escape closes it', async () => {
      await lastAnswerSources(page).first().click();
      const dialog = page.getByRole('dialog', { name: 'acme-fees.pdf, page 2' });
      await dialog.waitFor();
      const image = dialog.getByRole('img', { name: 'Page 2 of acme-fees.pdf' });
      await image.waitFor();
      await waitUntil('the page image to load', () => imageLoaded(image));
      expect(await image.getAttribute('src')).to.match(/^blob:/);
      expect(await dialog.locator('mark').textContent()).to.include('45 dollars');
      // The pages around the cited one can be turned to; the document's length bounds them.
      const pages = dialog.getByRole('navigation', { name: 'Pages of the document' });
      await pages.getByText('Page 2 of 2 (cited)').waitFor();
      const previous = pages.getByRole('button', { name: 'Previous page' });
      const next = pages.getByRole('button', { name: 'Next page' });
      expect(await next.getAttribute('aria-disabled')).to.equal('true');
      // By keyboard: a button at its end does nothing; the button that reached the first page keeps the focus.
      await next.focus();
      await page.keyboard.press('Enter');
      await pages.getByText('Page 2 of 2 (cited)').waitFor();
      // While the next page comes (held back here), the page shown stays, dimmed, under "Loading page 1…".
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/pages\/1(\?|$)/, async (route) => (await released, route.continue()));
      await previous.focus();
      await page.keyboard.press('Enter');
      await pages.getByText('Page 1 of 2', { exact: true }).waitFor();
      await dialog.getByText('Loading page 1…').waitFor();
      expect(await image.getAttribute('class')).to.equal('stale');
      // Unrouted only once the held request went on: unrouting while its handler still waits can leave it unanswered.
      const answered = page.waitForResponse(/\/pages\/1(\?|$)/);
      release();
      await answered;
      await page.unroute(/\/pages\/1(\?|$)/);
      expect(await previous.evaluate((button) => (button as unknown as { matches(selector: string): boolean }).matches(':focus'))).to.equal(true);
      const first = dialog.getByRole('img', { name: 'Page 1 of acme-fees.pdf' });
      await waitUntil('page 1 to load', () => imageLoaded(first));
      expect(await previous.getAttribute('aria-disabled')).to.equal('true');
      await page.keyboard.press('Enter');
      await pages.getByText('Page 1 of 2', { exact: true }).waitFor(); // still page 1
      await expectAccessible(page, 'source dialog on another page');
      await pages.getByRole('button', { name: 'Back to the cited page' }).click();
      await image.waitFor();
      await pages.getByText('Page 2 of 2 (cited)').waitFor();
      expect(await pages.getByRole('button', { name: 'Back to the cited page' }).count()).to.equal(0);
      // The buttons at the ends asked for no page the document does not have.
      expect(watch.requests.map((r) => r.url).filter((url) => /\/pages\/(0|3)(\?|$)/.test(url))).to.deep.equal([]);
      await expectAccessible(page, 'source dialog');
      await page.setViewportSize({ width: 375, height: 800 });
      await expectNoSidewaysScroll(page, 'source dialog at 375 px');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });

    it('opens the page an answer cites by its number: each "[n]" in the answer is a button naming its source', async () => {
      const answer = page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last();
      const markers = answer.locator('.content').getByRole('button', { name: /^Source \d+: / });
      expect(await markers.count()).to.be.greaterThan(0);
      for (const marker of await markers.all()) {
        const [, n] = /^Source (\d+): /.exec((await marker.getAttribute('aria-label'))!)!;
        expect(await marker.textContent()).to.equal(`[${n}]`);
      }
      // The extractive answer's own source line says which page [1] is: the button opens that one.
      expect(await markers.first().getAttribute('aria-label')).to.equal('Source 1: acme-fees.pdf, page 2');
      await markers.first().focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'acme-fees.pdf, page 2' });
      await dialog.getByText('Page 2 of 2 (cited)').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });

    it('asks once more, larger, for a page taller than A4 (a receipt): its longest side is longer for the same width', async () => {
      await page.setViewportSize({ width: 1280, height: 860 });
      // The service's page, replaced by a receipt-shaped one (three times taller than wide) at the size asked for.
      const asked: number[] = [];
      await page.route(/\/pages\/2\?width=\d+$/, (route) => {
        const side = Number(new URL(route.request().url()).searchParams.get('width'));
        asked.push(side);
        const width = Math.round(side / 3);
        const rgba = new Uint8Array(width * side * 4).fill(255);
        for (let y = 40; y < side; y += 40) rgba.fill(0, y * width * 4, (y + 2) * width * 4); // lines, as of a receipt
        return route.fulfill({ status: 200, contentType: 'image/png', body: Buffer.from(encodePng(rgba, width, side)) });
      });
      try {
        await lastAnswerSources(page).first().click();
        const dialog = page.getByRole('dialog', { name: 'acme-fees.pdf, page 2' });
        const image = dialog.getByRole('img', { name: 'Page 2 of acme-fees.pdf' });
        await waitUntil('the larger receipt', async () => (await image.count()) > 0 && (await image.evaluate((img) => (img as unknown as { naturalHeight: number }).naturalHeight)) === 1600);
        expect(asked).to.have.length(2);
        expect(asked[0]).to.be.below(1600);
        expect(asked[1]).to.equal(1600);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      } finally {
        await page.unroute(/\/pages\/2\?width=\d+$/);
      }
    });

    it('asks for the page image at the size it is drawn; Zoom draws it twice as wide in a frame that scrolls, on a phone too', async () => {
      const sizesAsked = () => watch.requests.map((r) => /\/pages\/2\?width=(\d+)$/.exec(r.url)?.[1]).filter((w) => w !== undefined).map(Number);
      const before = sizesAsked().length;
      await page.setViewportSize({ width: 1280, height: 860 });
      await lastAnswerSources(page).first().click();
      const dialog = page.getByRole('dialog', { name: 'acme-fees.pdf, page 2' });
      const image = dialog.getByRole('img', { name: 'Page 2 of acme-fees.pdf' });
      await waitUntil('the page image to load', () => imageLoaded(image));
      const drawn = () => image.evaluate((img) => {
        type Box = { clientWidth: number; scrollWidth: number };
        const i = img as unknown as { naturalWidth: number; clientWidth: number; closest(selector: string): Box };
        const frame = i.closest('.page-image');
        return { natural: i.naturalWidth, width: i.clientWidth, frame: frame.clientWidth, frameScroll: frame.scrollWidth };
      });
      // 1280 px wide at one device pixel per CSS pixel: less than the largest size, and still no smaller than drawn.
      const fitted = await drawn();
      expect(sizesAsked().slice(before)).to.have.length(1);
      expect(sizesAsked().at(-1)).to.be.below(1600);
      expect(fitted.natural).to.be.at.least(fitted.width);
      expect(fitted.frameScroll).to.be.at.most(fitted.frame);
      const zoom = dialog.getByRole('button', { name: 'Zoom' });
      expect(await zoom.getAttribute('aria-pressed')).to.equal('false');
      expect(await dialog.getByRole('region', { name: /zoomed$/ }).count()).to.equal(0);
      await zoom.click();
      expect(await zoom.getAttribute('aria-pressed')).to.equal('true');
      await waitUntil('the larger image', async () => sizesAsked().at(-1) === 1600 && (await imageLoaded(image)) && (await drawn()).natural > fitted.natural);
      const zoomed = await drawn();
      expect(zoomed.width).to.be.within(2 * zoomed.frame - 2, 2 * zoomed.frame + 2);
      expect(zoomed.frameScroll).to.be.greaterThan(zoomed.frame);
      await expectNoSidewaysScroll(page, 'zoomed page');
      // The zoomed frame is a named region the keyboard reaches and scrolls.
      const frame = dialog.getByRole('region', { name: 'Page 2, zoomed' });
      await frame.focus();
      await page.keyboard.press('ArrowRight');
      await waitUntil('the frame to scroll sideways', async () => (await frame.evaluate((f) => (f as unknown as { scrollLeft: number }).scrollLeft)) > 0);
      await expectAccessible(page, 'zoomed page');
      await page.setViewportSize({ width: 375, height: 800 });
      await expectNoSidewaysScroll(page, 'zoomed page at 375 px');
      await waitUntil('the image to fill twice the narrower frame', async () => {
        const narrow = await drawn();
        return narrow.frame < 375 && Math.abs(narrow.width - 2 * narrow.frame) <= 2;
      });
      await zoom.click();
      expect(await zoom.getAttribute('aria-pressed')).to.equal('false');
      expect(await dialog.getByRole('region', { name: /zoomed$/ }).count()).to.equal(0);
      const phone = await drawn();
      expect(phone.width).to.be.at.most(phone.frame);
      await expectNoSidewaysScroll(page, 'page at 375 px');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });

    it('marks the quoted passage on the cited page, over its words, fitted and zoomed; not on the pages around it', async () => {
      await page.setViewportSize({ width: 1280, height: 860 });
      await lastAnswerSources(page).first().click();
      const dialog = page.getByRole('dialog', { name: 'acme-fees.pdf, page 2' });
      const image = dialog.getByRole('img', { name: 'Page 2 of acme-fees.pdf, the quoted passage marked' });
      await waitUntil('the marked page image to load', () => imageLoaded(image));
      const marks = dialog.locator('.page-image .mark');
      expect(await marks.count()).to.equal(1); // "International wire transfers at Acme Bank cost 45 dollars each." is one line
      // The mark lies on the image, a line high, over dark pixels (the words), with white above the line.
      const inkUnder = () => marks.first().evaluate((mark) => {
        type Rect = { left: number; top: number; width: number; height: number };
        type Canvas = { getContext(kind: string): { drawImage(...a: unknown[]): void; getImageData(...a: number[]): { data: Uint8ClampedArray } } };
        const el = mark as unknown as { getBoundingClientRect(): Rect; parentElement: { querySelector(s: string): unknown } };
        const img = el.parentElement.querySelector('img') as { getBoundingClientRect(): Rect; complete: boolean; naturalWidth: number; naturalHeight: number };
        const [m, i] = [el.getBoundingClientRect(), img.getBoundingClientRect()];
        // While another image loads (Zoom asks for a larger one) there are no pixels to read yet.
        if (!img.complete || img.naturalWidth === 0 || i.width === 0 || m.width === 0) return null;
        const canvas = (globalThis as unknown as { document: { createElement(t: string): Canvas & { width: number; height: number } } }).document.createElement('canvas');
        [canvas.width, canvas.height] = [img.naturalWidth, img.naturalHeight];
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const scale = img.naturalWidth / i.width;
        // Dark pixels under the mark, and in as tall a strip right above it (no named helper: tsx would wrap it in
        // __name, which the page does not have).
        const [dark, darkAbove] = [m.top - i.top, m.top - i.top - m.height].map((top) => {
          const { data } = ctx.getImageData((m.left - i.left) * scale, top * scale, m.width * scale, Math.max(1, m.height * scale));
          let count = 0;
          for (let p = 0; p < data.length; p += 4) if (data[p] < 100 && data[p + 1] < 100 && data[p + 2] < 100) count++;
          return count;
        });
        const inside = m.left >= i.left - 1 && m.top >= i.top - 1 && m.left + m.width <= i.left + i.width + 1;
        return { inside, height: m.height, width: m.width, imageWidth: i.width, natural: img.naturalWidth, dark, darkAbove };
      });
      const fitted = (await inkUnder())!;
      expect(fitted.inside).to.equal(true);
      expect(fitted.height).to.be.within(4, 40);
      expect(fitted.dark).to.be.greaterThan(50);
      expect(fitted.darkAbove).to.equal(0);
      // Zoomed, the mark grows with the page and is scrolled into the frame's view.
      await dialog.getByRole('button', { name: 'Zoom' }).click();
      // Until the larger image has come and the mark has grown with it.
      const grown = async () => {
        const now = await inkUnder();
        return now !== null && now.natural > fitted.natural && now.width > 1.9 * fitted.width;
      };
      await waitUntil('the mark to follow the zoomed page', grown);
      const zoomed = (await inkUnder())!;
      expect(zoomed.width / zoomed.imageWidth).to.be.closeTo(fitted.width / fitted.imageWidth, 0.01);
      expect(zoomed.dark).to.be.greaterThan(fitted.dark);
      const frame = dialog.getByRole('region', { name: 'Page 2, zoomed' });
      const inView = () => Promise.all([frame.boundingBox(), marks.first().boundingBox()]).then(([f, m]) => m!.y >= f!.y && m!.y + m!.height <= f!.y + f!.height);
      await waitUntil('the mark to be in the frame’s view', inView);
      await dialog.getByRole('button', { name: 'Zoom' }).click();
      // Another page has no marks; back on the cited page they return.
      const pages = dialog.getByRole('navigation', { name: 'Pages of the document' });
      await pages.getByRole('button', { name: 'Previous page' }).click();
      await waitUntil('page 1 to load', () => imageLoaded(dialog.getByRole('img', { name: 'Page 1 of acme-fees.pdf', exact: true })));
      expect(await marks.count()).to.equal(0);
      await pages.getByRole('button', { name: 'Back to the cited page' }).click();
      await waitUntil('the marked page again', () => imageLoaded(image));
      expect(await marks.count()).to.equal(1);
      await expectAccessible(page, 'marked page');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });

    it('at 375 px wide nothing scrolls sideways', async () => {
      await expectNoSidewaysScroll(page, 'session at 375 px');
      await expectAccessible(page, 'session at 375 px');
      await page.setViewportSize({ width: 1280, height: 860 });
    });

    it('a reload reopens the session with its conversation and sources', async () => {
      await page.reload();
      expect(page.url()).to.equal(sessionUrl);
      const log = page.getByRole('log', { name: 'Conversation' });
      await log.getByText('How much do international wire transfers cost?').waitFor();
      await log.getByRole('button', { name: 'acme-fees.pdf, page 2' }).first().waitFor();
    });

    it('loads history page by page as the reader scrolls up, sources included', async () => {
      // 12 more questions through the API: 13 exchanges are 26 messages, two pages of 20.
      const api = await service.as('web-user');
      const sessionId = sessionUrl.split('/').pop()!;
      for (let i = 0; i < 12; i++) await api.ask(sessionId, `Question ${i + 1}: how much do international wire transfers cost?`);
      await page.reload();
      const log = page.getByRole('log', { name: 'Conversation' });
      await log.getByText('Question 12:', { exact: false }).waitFor();
      expect(await log.locator('article').count()).to.equal(6);
      await log.getByRole('button', { name: 'Load earlier messages' }).waitFor();
      await log.evaluate((el) => ((el as unknown as { scrollTop: number }).scrollTop = 0));
      await log.getByText('How much do international wire transfers cost?', { exact: true }).waitFor();
      expect(await log.locator('article').count()).to.equal(26);
      expect(await log.getByRole('button', { name: 'Load earlier messages' }).count()).to.equal(0);
      expect(await log.locator('article.assistant').first().getByRole('button', { name: 'acme-fees.pdf, page 2' }).count()).to.be.greaterThan(0);
      // By keyboard: the button goes once the first page has come; the focus moves to the earliest message, not <body>.
      await page.reload();
      const earlier = log.getByRole('button', { name: 'Load earlier messages' });
      await earlier.focus();
      await page.keyboard.press('Enter');
      await log.getByText('How much do international wire transfers cost?', { exact: true }).waitFor();
      await waitUntil('the focus on the earliest message', () => log.locator('article').first().evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
    });

    it('sends a question asked while the conversation so far loads once it is shown: an answer never streams into a history still loading', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/v1/chat/history/**', async (route) => {
        await held;
        await route.continue();
      });
      await page.reload();
      const box = page.getByRole('textbox', { name: 'Question' });
      const question = 'How much do international wire transfers cost?';
      await box.fill(question);
      await box.press('Enter');
      // Not lost, nor sent yet: it waits in the box, and the page says so (to a screen reader too).
      await page.getByText('Your question is sent once the conversation so far has loaded…').waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Your question is sent once the conversation so far has loaded.' }).count()).to.equal(1);
      expect(await page.getByRole('button', { name: 'Ask' }).isDisabled(), 'sent once, not twice').to.equal(true);
      expect(await box.inputValue(), 'kept in the box').to.equal(question);
      await page.screenshot({ path: path.join(os.tmpdir(), 'doc-chat-question-waits.png') });
      const log = page.getByRole('log', { name: 'Conversation' });
      const asked = page.waitForResponse('**/api/v1/chat/completions');
      release();
      await asked;
      await page.unroute('**/api/v1/chat/history/**');
      // The history came first, then the question went: it and its answer follow it, the answer before as it was.
      await waitUntil('the answer', async () => (await page.getByRole('button', { name: 'Ask' }).count()) === 1 && (await log.locator('article.assistant .content').last().textContent())!.length > 0);
      const user = log.locator('article.user');
      expect(await user.last().textContent()).to.include(question);
      expect(await box.inputValue(), 'the box emptied').to.equal('');
      const count = await log.locator('article').count();
      await page.reload();
      await log.locator('article').first().waitFor();
      expect(await log.locator('article').count(), 'stored once, after the history').to.equal(count);
    });

    it('filters by a tag the documents carry', async () => {
      await page.getByRole('checkbox', { name: 'institution: globex' }).check();
      await ask(page, 'What is the monthly maintenance fee on checking accounts?');
      const names = await lastAnswerSources(page).allTextContents();
      expect(names.length).to.be.greaterThan(0);
      expect(names.every((n) => n.startsWith('globex-fees.pdf, page'))).to.equal(true, names.join('; '));
      await page.getByRole('checkbox', { name: 'institution: globex' }).uncheck();
    });

    it('asks only the documents chosen, naming them in the request; none chosen asks them all', async () => {
      const choice = page.getByRole('group', { name: 'Only these documents' });
      expect(await choice.getByRole('checkbox').count(), 'one per completed document').to.equal(4);
      // Many documents scroll in a short box; its shadows (covers that scroll with the content) say more lies there.
      type Styled = { getComputedStyle(el: unknown): { backgroundAttachment: string } };
      const layers = await choice.locator('.choices').evaluate((el) => (globalThis as unknown as Styled).getComputedStyle(el).backgroundAttachment);
      expect(layers).to.equal('local, local, scroll, scroll');
      await choice.getByRole('checkbox', { name: files.globex.name }).check();
      const asked = page.waitForRequest((r) => r.url().endsWith('/api/v1/chat/completions'));
      await ask(page, 'What is the monthly maintenance fee on checking accounts?');
      expect(JSON.parse((await asked).postData()!).documents).to.have.length(1);
      const names = await lastAnswerSources(page).allTextContents();
      expect(names.length).to.be.greaterThan(0);
      expect(names.every((n) => n.startsWith('globex-fees.pdf, page'))).to.equal(true, names.join('; '));
      await choice.getByRole('checkbox', { name: files.globex.name }).uncheck();
      const all = page.waitForRequest((r) => r.url().endsWith('/api/v1/chat/completions'));
      await ask(page, 'What is the monthly maintenance fee on checking accounts?');
      expect(JSON.parse((await all).postData()!)).not.to.have.property('documents');
    });

    it('removes a document: its sources are no longer cited', async () => {
      await documentItem(page, files.globex.name).getByRole('button', { name: `Remove ${files.globex.name}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      await documentItem(page, files.globex.name).waitFor({ state: 'detached' });
      await ask(page, 'What is the monthly maintenance fee on checking accounts at Globex Credit Union?');
      const names = await lastAnswerSources(page).allTextContents();
      expect(names.filter((n) => n.startsWith('globex'))).to.deep.equal([]);
    });

    it('shows markup in a file name and in document text as written; nothing runs', async () => {
      await page.getByLabel('Upload documents').setInputFiles([files.markup]);
      await waitForStatus(page, MARKUP_FILENAME, /^completed$/);
      await ask(page, 'How much is the overdraft penalty?');
      const log = page.getByRole('log', { name: 'Conversation' });
      const source = lastAnswerSources(page).filter({ hasText: MARKUP_FILENAME }).first();
      await source.waitFor();
      await source.click();
      await page.getByRole('dialog').locator('mark').filter({ hasText: '<script>window.__xss=3</script>' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).to.equal(undefined);
      expect(await page.locator('#app script, #app b, #app i').count()).to.equal(0);
      expect(await log.count()).to.equal(1);
    });

    it('closes a source beside the chat with an Escape pressed as soon as it opens, the focus still on its button', async () => {
      // Open, the panel hides the documents beside the chat: an Escape it missed left them hidden for what came next.
      const source = lastAnswerSources(page).first();
      await source.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 });
      expect(await documentItem(page, MARKUP_FILENAME).isVisible()).to.equal(true);
      expect(await source.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement), 'the focus is back on the button').to.equal(true);
    });

    it('keeps following a document whose progress could not be read once, says so only while it cannot, and lets a job gone go', async () => {
      // 503: the server could not answer, and the next reads go on. 404: the job is gone, and the list says what is left.
      for (const [name, status] of [['progress.pdf', 503], ['gone.pdf', 404]] as const) {
        const file = await textPdf({ title: 'Progress', paragraphs: [`The progress of ${name} is read again after a read that failed.`] });
        // Listed as running whatever the job's pace, so that the app follows it through GET /ingest/:id.
        let listed = false;
        let listings = 0;
        await page.route('**/api/v1/session/*/documents', async (route) => {
          listings++;
          const response = await route.fetch();
          const body = (await response.json()) as { data: { filename: string; status: string }[] };
          if (listed || !body.data.some((d) => d.filename === name)) return route.fulfill({ response });
          listed = true;
          await route.fulfill({ response, json: { data: body.data.map((d) => (d.filename === name ? { ...d, status: 'processing' } : d)) } });
        });
        let reads = 0;
        let listingsBefore = 0;
        await page.route(/\/api\/v1\/ingest\/[^/?]+$/, (route) => {
          if (route.request().method() !== 'GET' || reads++ > 0) return route.continue();
          listingsBefore = listings;
          return route.fulfill({ status, json: { error: status === 404 ? 'Not Found' : 'Service Unavailable' } });
        });
        await page.getByLabel('Upload documents').setInputFiles([{ name, mimeType: 'application/pdf', buffer: Buffer.from(file.bytes) }]);
        await waitForStatus(page, name, /^completed$/);
        await page.unroute('**/api/v1/session/*/documents');
        await page.unroute(/\/api\/v1\/ingest\/[^/?]+$/);
        if (status === 503) expect(reads, 'read again after the refusal').to.be.greaterThan(1);
        else expect(listings, 'the list asked for again').to.be.greaterThan(listingsBefore);
        expect((await page.getByRole('alert').allTextContents()).join(' / '), 'no problem left').to.not.match(/Progress could not be read/);
        await takeExpectedRefusals(watch, status);
      }
    });

    it('Stop aborts a streaming answer', async () => {
      // Hold the answer's stream open so the Stop button is there to press; the abort must reach the request.
      await page.route('**/api/v1/chat/completions', async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue().catch(() => {});
      });
      const failed = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/v1/chat/completions'));
      const box = page.getByRole('textbox', { name: 'Question' });
      await box.fill('Summarize the fees');
      await box.press('Enter');
      await page.getByRole('button', { name: 'Stop' }).click();
      expect((await failed).failure()?.errorText).to.match(/ABORTED/i);
      await page.getByRole('button', { name: 'Ask' }).waitFor();
      await page.unroute('**/api/v1/chat/completions');
    });

    it('shows the passages an answer quotes from one page as one source, each quoted and marked on the page', async () => {
      // Two paragraphs of one page, each long enough to be a passage of its own, both answering the question.
      const ferry = await textPdf({
        title: 'Harbour ferry timetable',
        paragraphs: [
          'The harbour ferry leaves the north pier at seven in the morning on weekdays. It carries cars, bicycles and foot passengers across the bay to the island, and the crossing takes forty minutes when the sea is calm. Tickets are sold on board and at the kiosk beside the pier gate.',
          'The harbour ferry returns from the island at nine in the evening. On Sundays it runs twice, at noon and at six, and in winter storms the crossing may be cancelled at short notice. Season passes for islanders are sold at the town hall, not on the ferry itself.',
        ],
      });
      const sources = await askOfOnly(page, { name: 'ferry.pdf', mimeType: 'application/pdf', buffer: Buffer.from(ferry.bytes) }, 'When does the harbour ferry leave and when does it return?');
      expect(await lastAnswerSources(page).allTextContents()).to.deep.equal(['ferry.pdf, page 1']);
      // The extractive answerer quotes both paragraphs; a model (the scaled stack's) cites what it cites: each quoted
      // passage is one quote in the dialog, and only those.
      const cited = sources.filter((s) => s.cited).map((s) => s.excerpt);
      if (stack.answerer === 'extractive') expect(cited).to.have.length(2);
      await lastAnswerSources(page).first().click();
      const dialog = page.getByRole('dialog', { name: 'ferry.pdf, page 1' });
      await dialog.locator('blockquote').nth(cited.length - 1).waitFor();
      expect(await dialog.locator('blockquote').allTextContents()).to.deep.equal(cited);
      for (const quote of cited) expect(quote).to.match(/leaves the north pier at seven|returns from the island at nine/);
      if (stack.answerer === 'extractive') {
        // Within each excerpt, the words the answer quotes are marked (the service says which), not all of it.
        const quotes = sources.filter((s) => s.cited).map((s) => s.quote);
        expect(quotes.every((quote) => typeof quote === 'string')).to.equal(true);
        expect(await dialog.locator('blockquote mark').allTextContents()).to.deep.equal(quotes);
      }
      if (cited.length === 2) {
        expect(cited[0]).to.include('leaves the north pier at seven');
        expect(cited[1]).to.include('returns from the island at nine');
        await dialog.getByRole('img', { name: 'Page 1 of ferry.pdf, the quoted passages marked' }).waitFor();
        // Both paragraphs marked: a mark on the first one's lines and one below, on the second's.
        await page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('.source-dialog .mark').length >= 4);
        const tops = await dialog.locator('.mark').evaluateAll((marks) => marks.map((m) => parseFloat((m as unknown as { style: { top: string } }).style.top)));
        expect(Math.max(...tops) - Math.min(...tops), tops.join(', ')).to.be.greaterThan(5);
      } else {
        await dialog.getByRole('img', { name: 'Page 1 of ferry.pdf, the quoted passage marked' }).waitFor();
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });

    it('marks in an excerpt each sentence the answer quotes of it, not the sentence it skipped between them', async () => {
      if (stack.answerer !== 'extractive') return; // a model's sources say nothing of what it quotes: the whole excerpt is marked (above)
      const leaflet = await textPdf({
        title: 'Sequencer Leaflet',
        paragraphs: ['Each song holds 32 tracks. The screen shows characters in green. The disk holds 110,000 notes. Each track holds 16 channels. The disk holds 100 songs.'],
      });
      const leafletFile = { name: 'leaflet.pdf', mimeType: 'application/pdf', buffer: Buffer.from(leaflet.bytes) };
      const [cited] = (await askOfOnly(page, leafletFile, 'How many tracks, notes and songs does the disk hold?')).filter((s) => s.cited);
      // The sentence that answers best leads the quote; the others follow in reading order.
      expect(cited.quote).to.equal('The disk holds 110,000 notes. Each song holds 32 tracks. Each track holds 16 channels. The disk holds 100 songs.');
      await lastAnswerSources(page).first().click();
      const dialog = page.getByRole('dialog', { name: 'leaflet.pdf, page 1' });
      await dialog.locator('blockquote mark').first().waitFor();
      // The quote is not one run of the excerpt: its sentences are marked where they stand, the green screen not.
      expect(await dialog.locator('blockquote mark').allTextContents()).to.deep.equal([
        'Each song holds 32 tracks.',
        'The disk holds 110,000 notes. Each track holds 16 channels. The disk holds 100 songs.',
      ]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });

    it('lists the pages an answer quotes as its sources, and apart, folded, the pages found that it does not quote', async () => {
      await page.getByLabel('Upload documents').setInputFiles([await timetablePdf()]);
      await waitForStatus(page, 'timetable.pdf', /^completed$/);
      const only = page.getByRole('group', { name: 'Only these documents' }).getByRole('checkbox', { name: 'timetable.pdf' });
      await only.check();
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/chat/completions'));
      const answer = await ask(page, 'Does the ferry run on Sundays?');
      await only.uncheck();
      const sources = streamedSources(await (await answered).text());
      const pagesOf = (list: typeof sources) => [...new Set(list.map((s) => `${s.filename}, page ${s.page}`))];
      const citedPages = pagesOf(sources.filter((s) => s.cited));
      const foundPages = pagesOf(sources.filter((s) => !s.cited)).filter((name) => !citedPages.includes(name));
      if (stack.answerer === 'extractive') {
        // The pages the answer's own source line names are the ones the service says it cites; one more was found.
        expect(answer).to.include('does not run on Sundays');
        const named = [...sourceLine(answer).values()];
        expect([...citedPages].sort()).to.deep.equal([...named].sort());
        expect(foundPages).to.deep.equal(['timetable.pdf, page 2']);
      }
      const article = page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last();
      // Each page once, in the order the answer's marks first cite them, numbered as the marks are.
      expect([...(await lastAnswerSources(page).allTextContents())].sort()).to.deep.equal([...citedPages].sort());
      // What else the answer found is folded: opened, its marks count too.
      for (const fold of await article.locator('.content details:not([open]) > summary').all()) await fold.click();
      const marks = [...new Set((await article.locator('.content').getByRole('button', { name: /^Source \d+: / }).allTextContents()))];
      const numbers = await article.getByRole('list', { name: 'Sources' }).locator('.number').allTextContents();
      expect(numbers).to.deep.equal(marks.slice(0, numbers.length));
      expect(await article.locator('.content').textContent(), 'no Sources line: the list below is the sources').to.not.include('Sources:');
      const more = article.getByText(/^Pages found, not quoted: \d+$/);
      if (foundPages.length === 0) {
        // A model may cite every passage it was given: then nothing is folded away.
        expect(await more.count()).to.equal(0);
        return;
      }
      expect(await more.textContent()).to.equal(`Pages found, not quoted: ${foundPages.length}`);
      const others = article.getByRole('list', { name: 'Pages found, not quoted' }).getByRole('button');
      expect(await others.count(), 'folded away until opened').to.equal(0);
      await more.click();
      await others.first().waitFor();
      const found = await others.allTextContents();
      expect(found).to.deep.equal(foundPages);
      await expectAccessible(page, 'an answer with pages found but not quoted');
      await others.first().click();
      const dialog = page.getByRole('dialog', { name: found[0] });
      await dialog.getByRole('navigation', { name: 'Pages of the document' }).getByText(/^Page \d of 3 \(found\)$/).waitFor();
      await dialog.getByRole('img', { name: /^Page \d of timetable\.pdf, the found passage marked$/ }).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });

    it('clears the chat after confirmation', async () => {
      await page.getByRole('button', { name: 'Clear chat' }).click();
      await expectAccessible(page, 'confirmation dialog');
      await page.getByRole('dialog').getByRole('button', { name: 'Clear' }).click();
      await page.getByRole('log', { name: 'Conversation' }).getByText('Ask a question').waitFor();
      await page.reload();
      await page.getByRole('log', { name: 'Conversation' }).getByText('Ask a question').waitFor();
    });

    it('deletes the session after confirmation', async () => {
      await page.getByRole('button', { name: 'Delete session' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('heading', { name: 'Chat with your documents' }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link').count()).to.equal(0);
      expect(new URL(page.url()).pathname).to.equal('/');
    });

    it('left the origin never, logged no console error, and kept the token out of URLs, Referers and log lines', () => {
      const outside = watch.requests.filter((r) => !allowedOrigins.includes(new URL(r.url).origin) && !/^(blob|data):/.test(r.url));
      expect(outside.map((r) => r.url)).to.deep.equal([]);
      expect(watch.consoleErrors, `refused: ${JSON.stringify(watch.refusals)}`).to.deep.equal([]);
      expect(watch.requests.filter((r) => r.url.includes(token) || (r.headers.referer ?? '').includes(token))).to.deep.equal([]);
      expect(watch.requests.filter((r) => r.headers.referer)).to.deep.equal([]);
      expect(service.logger.lines.filter((l) => JSON.stringify(l).includes(token))).to.deep.equal([]);
    });
  });
}

/** Uploads a file, asks a question of it alone ("Only these documents") and returns the sources the answer streamed. */
async function askOfOnly(page: Page, file: UploadFile, question: string): Promise<ReturnType<typeof streamedSources>> {
  await page.getByLabel('Upload documents').setInputFiles([file]);
  await waitForStatus(page, file.name, /^completed$/);
  const only = page.getByRole('group', { name: 'Only these documents' }).getByRole('checkbox', { name: file.name });
  await only.check();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/chat/completions'));
  await ask(page, question);
  await only.uncheck();
  return streamedSources(await (await answered).text());
}
