import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { textPdf } from '../../support/make-pdf.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, embeddedAppInChromium, expectAccessible, expectNoSidewaysScroll, fixtures, lastAnswerSources, timetablePdf, waitForStatus, waitUntil, type UploadFile } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, layout');

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 800 };

/** Whether an element lies wholly inside the viewport and is what the page shows at its centre (nothing covers it). */
async function inView(page: Page, name: string, locator: ReturnType<Page['locator']>): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, `${name} is shown`).to.not.equal(null);
  expect(box!.y, `${name}'s top`).to.be.at.least(0);
  expect(box!.y + box!.height, `${name}'s bottom within ${viewport.height} px`).to.be.at.most(viewport.height);
  expect(box!.x + box!.width, `${name}'s right edge`).to.be.at.most(viewport.width);
  const onTop = await locator.evaluate((el) => {
    const r = (el as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }).getBoundingClientRect();
    const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): unknown } }).document;
    const hit = doc.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) as { closest?: unknown } | null;
    return hit === el || (el as unknown as { contains(o: unknown): boolean }).contains(hit);
  });
  expect(onTop, `${name} is not covered`).to.equal(true);
}

/** The page itself never scrolls: the conversation, the documents and the sessions scroll in their own boxes. */
async function pageDoesNotScroll(page: Page, screen: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollHeight: number; clientHeight: number } } }).document.documentElement;
    return { scroll: root.scrollHeight, client: root.clientHeight };
  });
  expect(scroll, `page height on ${screen}`).to.be.at.most(client);
}

describe('web app in Chromium, layout: the question box in view, a phone shows the chat first, sources beside it', function () {
  this.timeout(180_000);
  const app = embeddedAppInChromium();
  let page: Page;
  const question = () => page.getByRole('textbox', { name: 'Question' });
  const log = () => page.getByRole('log', { name: 'Conversation' });
  const questionInView = async (screen: string) => {
    await inView(page, `the question box (${screen})`, question());
    await inView(page, `Ask (${screen})`, page.getByRole('button', { name: 'Ask' }));
    await pageDoesNotScroll(page, screen);
    await expectNoSidewaysScroll(page, screen);
  };

  before(async () => {
    page = app.page();
    await page.setViewportSize(WIDE);
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'layout-user')}`);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
  });

  it('keeps the question box and Ask in view at 1280×800 and 375×800 after 2, 4 and 12 documents and a long conversation', async () => {
    const { acme, globex } = await fixtures();
    const others: UploadFile[] = [await timetablePdf()];
    for (let i = 1; i <= 9; i++) {
      const pdf = await textPdf({ title: `Branch ${i} opening hours`, paragraphs: [`Branch ${i} opens at ${i + 6} in the morning on weekdays.`] });
      others.push({ name: `branch-${String(i).padStart(2, '0')}-opening-hours-and-holidays.pdf`, mimeType: 'application/pdf', buffer: Buffer.from(pdf.bytes) });
    }
    const batches = [[acme, globex], others.slice(0, 2), others.slice(2)];
    let count = 0;
    for (const batch of batches) {
      await page.setViewportSize(WIDE);
      await page.getByLabel('Upload documents').setInputFiles(batch);
      for (const f of batch) await waitForStatus(page, f.name, /^completed$/);
      count += batch.length;
      // Two files chosen together name the session once, after whichever was sent first.
      if (count === 2) await page.getByRole('heading', { name: /^(acme|globex)-fees$/ }).waitFor();
      if (count === 2) for (const q of ['How much do international wire transfers cost?', 'What is the monthly maintenance fee?', 'Does the ferry run on Sundays?']) await ask(page, q);
      await page.getByRole('group', { name: 'Only these documents' }).waitFor();
      await questionInView(`1280×800, ${count} documents`);
      await page.setViewportSize(PHONE);
      await questionInView(`375×800, ${count} documents`);
    }
    expect(count).to.equal(12);
    await expectAccessible(page, 'phone with 12 documents');
    await page.setViewportSize(WIDE);
    await expectAccessible(page, 'wide with 12 documents');
  });

  it('on a phone the chat is the first screen; Sessions and Documents open from the top bar', async () => {
    await page.setViewportSize(PHONE);
    await page.reload();
    await question().waitFor();
    await inView(page, 'the conversation', log());
    const sessionsNav = page.getByRole('navigation', { name: 'Sessions' });
    const documents = page.getByRole('region', { name: 'Documents' });
    expect(await sessionsNav.isVisible(), 'sessions behind the menu').to.equal(false);
    expect(await documents.isVisible(), 'documents behind their button').to.equal(false);
    const sessionsButton = page.getByRole('button', { name: 'Sessions', exact: true });
    await sessionsButton.click();
    expect(await sessionsButton.getAttribute('aria-expanded')).to.equal('true');
    await sessionsNav.getByRole('button', { name: 'New session' }).waitFor();
    await expectAccessible(page, 'phone, sessions open');
    await sessionsButton.click();
    await sessionsNav.waitFor({ state: 'hidden' });
    const documentsButton = page.getByRole('button', { name: 'Documents', exact: true });
    await documentsButton.click();
    await documents.getByText('acme-fees.pdf', { exact: true }).waitFor();
    await expectAccessible(page, 'phone, documents open');
    await page.keyboard.press('Escape');
    await documents.waitFor({ state: 'hidden' });
    expect(await documentsButton.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement), 'the focus back on its button').to.equal(true);
    // A session chosen in the menu closes it: the chat of that session is what comes next.
    await sessionsButton.click();
    await sessionsNav.getByRole('link').first().click();
    await sessionsNav.waitFor({ state: 'hidden' });
    await questionInView('375×800, a session chosen');
  });

  it('reaches the question box from the top with the skip link: one Tab and Enter, at both widths', async () => {
    for (const size of [WIDE, PHONE]) {
      await page.setViewportSize(size);
      await page.reload();
      await question().waitFor();
      let tabs = 0;
      // At most 5 presses allowed (issue 50); the skip link is the first stop.
      while (tabs < 5) {
        await page.keyboard.press('Tab');
        tabs++;
        if ((await page.getByRole('link', { name: 'Skip to question' }).evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement))) break;
      }
      expect(tabs, `Tab presses to the skip link at ${size.width} px`).to.equal(1);
      await inView(page, 'the skip link when focused', page.getByRole('link', { name: 'Skip to question' }));
      await page.keyboard.press('Enter');
      expect(await question().evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).to.equal(true);
      await page.keyboard.type('Does the ferry run on Sundays?');
      expect(await question().inputValue()).to.equal('Does the ferry run on Sundays?');
      await question().fill('');
    }
  });

  it('previews the passage a [n] mark cites when hovered or focused (a tooltip); Escape hides it', async () => {
    await page.setViewportSize(WIDE);
    await ask(page, 'Does the ferry run on Sundays?');
    const answer = log().locator('article.assistant').last();
    const marker = answer.locator('.content').getByRole('button', { name: /^Source 1: / }).first();
    // Hovered once the conversation has stopped moving (it scrolls to the latest answer as that one settles).
    await answer.getByRole('button', { name: 'Copy' }).waitFor();
    await marker.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await marker.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).to.match(/^timetable\.pdf, page 3.*does not run on Sundays/);
    expect(await marker.getAttribute('aria-describedby')).to.equal(await tooltip.getAttribute('id'));
    await expectAccessible(page, 'a citation previewed');
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: 'detached' });
    await marker.focus();
    await tooltip.waitFor();
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });
    // On a phone a mark at the end of a line keeps its preview on the screen.
    await page.setViewportSize(PHONE);
    for (const fold of await answer.locator('.content details:not([open]) > summary').all()) await fold.click();
    const last = answer.locator('.content').getByRole('button', { name: /^Source \d+: / }).last();
    await last.focus();
    await tooltip.waitFor();
    const box = (await tooltip.boundingBox())!;
    expect(box.x, 'the preview\'s left edge').to.be.at.least(0);
    expect(box.x + box.width, 'the preview\'s right edge').to.be.at.most(PHONE.width);
    await page.keyboard.press('Escape');
    await page.setViewportSize(WIDE);
  });

  it('opens a source beside the chat on a wide screen, the chat still in view; its head stays in view as the page scrolls', async () => {
    await page.setViewportSize(WIDE);
    await lastAnswerSources(page).first().click();
    const panel = page.getByRole('dialog', { name: 'timetable.pdf, page 3' });
    await panel.getByRole('img', { name: /^Page 3 of timetable\.pdf/ }).waitFor();
    await inView(page, 'the conversation beside the source', log());
    await questionInView('1280×800, a source open');
    const [panelBox, logBox] = [await panel.boundingBox(), await log().boundingBox()];
    expect(panelBox!.x, 'the panel to the right of the conversation').to.be.at.least(logBox!.x + logBox!.width);
    // The chat stays usable: a question can be typed while the page is open.
    await question().fill('When does the ferry leave?');
    expect(await panel.isVisible()).to.equal(true);
    await question().fill('');
    await panel.getByRole('button', { name: 'Zoom' }).click();
    await panel.getByRole('region', { name: /^Passage and page/ }).evaluate((body) => ((body as unknown as { scrollTop: number }).scrollTop = 10_000));
    for (const name of ['Close', 'Previous page', 'Next page']) await inView(page, `${name} in the panel's head`, panel.getByRole('button', { name }));
    await inView(page, 'the panel title', panel.getByRole('heading', { name: 'timetable.pdf, page 3' }));
    await expectAccessible(page, 'a source beside the chat');
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    // Closed, the focus goes back to the source it was opened from.
    expect(await lastAnswerSources(page).first().evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).to.equal(true);
  });

  it('opens a source over the chat on a phone, its head in view while the page scrolls under it', async () => {
    await page.setViewportSize(PHONE);
    await lastAnswerSources(page).first().click();
    const dialog = page.getByRole('dialog', { name: 'timetable.pdf, page 3' });
    await dialog.getByRole('img', { name: /^Page 3 of timetable\.pdf/ }).waitFor();
    await dialog.getByRole('region', { name: /^Passage and page/ }).evaluate((body) => ((body as unknown as { scrollTop: number }).scrollTop = 10_000));
    for (const name of ['Close', 'Previous page', 'Next page', 'Zoom']) await inView(page, `${name} in the dialog's head`, dialog.getByRole('button', { name }));
    await expectNoSidewaysScroll(page, 'source dialog on a phone');
    await expectAccessible(page, 'a source over the chat on a phone');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.setViewportSize(WIDE);
  });
});
