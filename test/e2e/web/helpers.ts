import fs from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { chromiumUnavailableReason, openWatchedPage, type BrowserSession, type PageWatch } from '../../support/browser.js';
import { embeddedStack, type Stack } from '../../support/stacks.js';
import type { TestService } from '../../support/test-service.js';
import { ensureWebBuilt } from '../../support/web-build.js';
import { ACME, GLOBEX } from '../../support/bank-fee-pdfs.js';
import { textJpeg } from '../../support/generated-documents.js';
import { PAGE_BREAK, textPdf } from '../../support/make-pdf.js';
import { CORPUS_AVAILABLE, corpusPath } from '../../support/paths.js';
import { parseServerSentEvents } from '../../support/server-sent-events.js';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Markup and a script where a careless app would render HTML: it must show as written and never run. */
export const MARKUP_FILENAME = '<img src=x onerror="window.__xss=1">fees<b>bold</b>.pdf';
export const MARKUP_LABEL = '<script>window.__xss=2</script><b>Q3 review</b>';
export const MARKUP_TEXT = 'Overdraft penalty <script>window.__xss=3</script> is <b>25 dollars</b> per item.';

/** The documents the flows upload: two fee schedules (tags acme / globex), a real PDF and JPEG (or generated ones in a lone clone). */
export async function fixtures(): Promise<Record<'acme' | 'globex' | 'pdf' | 'jpeg' | 'markup' | 'malformed' | 'text', UploadFile>> {
  const pdf = (name: string, bytes: Uint8Array): UploadFile => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
  const realPdf = CORPUS_AVAILABLE
    ? pdf('dmca-summary-1998.pdf', fs.readFileSync(corpusPath('pdfs/dmca-summary-1998.pdf')))
    : pdf('generated-report.pdf', (await textPdf({ title: 'Quarterly report', paragraphs: ['Revenue grew by 8 percent in the quarter.'] })).bytes);
  const jpeg: UploadFile = CORPUS_AVAILABLE
    ? { name: 'congress_1871.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(corpusPath('images/congress_1871.jpg')) }
    : { name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(textJpeg(['Receipt total 18 dollars', 'Paid by card'])) };
  const markup = await textPdf({ title: 'Penalties <i>schedule</i>', paragraphs: [MARKUP_TEXT] });
  return {
    acme: pdf('acme-fees.pdf', ACME.bytes),
    globex: pdf('globex-fees.pdf', GLOBEX.bytes),
    pdf: realPdf,
    jpeg,
    markup: pdf(MARKUP_FILENAME, markup.bytes),
    malformed: pdf('broken.pdf', new TextEncoder().encode('%PDF-1.3\nThis is not a valid PDF file\n%%EOF\n')),
    text: { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain text') },
  };
}

/**
 * A three-page timetable: asked "Does the ferry run on Sundays?", the extractive answer quotes pages 3 and 1, and
 * page 2 is found but not quoted.
 */
export async function timetablePdf(): Promise<UploadFile> {
  const timetable = await textPdf({
    title: 'Island ferry timetable',
    paragraphs: [
      'The island ferry leaves the north pier at 8 in the morning.', 'Tickets for the island ferry are sold on board.', PAGE_BREAK,
      'The ferry returns from the island at 6 in the evening.', 'Bicycles travel free on the ferry.', PAGE_BREAK,
      'In winter the ferry does not run on Sundays.', 'Ferry staff can help passengers with heavy luggage.',
    ],
  });
  return { name: 'timetable.pdf', mimeType: 'application/pdf', buffer: Buffer.from(timetable.bytes) };
}

/** axe-core on the current screen: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${screen}`).to.deep.equal([]);
}

/** Nothing wider than the viewport (no sideways scrolling). */
export async function expectNoSidewaysScroll(page: Page, screen: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth };
  });
  expect(scroll, `page width on ${screen}`).to.be.at.most(client);
}

/** Presses Tab until `target` has the focus (proving it is reachable by keyboard), at most `limit` times. */
export async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement, handle)) return;
  }
  throw new Error(`not reachable with Tab: ${target}`);
}

/** Waits for `condition` (polled in the test, not in the page), failing with `what` after `ms`. */
export async function waitUntil(what: string, condition: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Whether an <img> has loaded a real picture (more than 100 px wide), not still loading or broken. */
export const imageLoaded = (image: Locator): Promise<boolean> =>
  image.evaluate((img) => {
    const { complete, naturalWidth } = img as unknown as { complete: boolean; naturalWidth: number };
    return complete && naturalWidth > 100;
  });

/** The Documents list's item for a file. */
export const documentItem = (page: Page, filename: string) =>
  page.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ has: page.getByText(filename, { exact: true }) });

/** Waits until the file's status is `completed` (or the given text); returns the status shown. */
export async function waitForStatus(page: Page, filename: string, status: RegExp, ms = 60_000): Promise<string> {
  const item = documentItem(page, filename);
  let shown = '';
  try {
    await waitUntil(`${filename} to reach ${status}`, async () => {
      shown = (await item.locator('.status').textContent().catch(() => null)) ?? '';
      return status.test(shown);
    }, ms);
  } catch (e) {
    // Say what the page showed instead: a job still running, one failed, or a problem the app reported.
    const problems = await page.getByRole('alert').allTextContents().catch(() => []);
    const lists = page.getByRole('list', { name: 'Documents' });
    const listed = await lists.evaluateAll((found) => found.map((list) => (list as unknown as { innerText: string }).innerText.replace(/\s+/g, ' '))).catch((error) => [String(error)]);
    throw new Error(`${(e as Error).message}; it shows "${shown}"${problems.length ? `; the page says: ${problems.join(' / ')}` : ''}; ` +
      `${await item.count().catch(() => '?')} items of that name; at ${page.url()} the lists named Documents (${listed.length}) hold: ${listed.join(' // ')}`);
  }
  return shown;
}

/** The source buttons of the last answer in the Conversation log. */
export const lastAnswerSources = (page: Page) =>
  page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last().getByRole('list', { name: 'Sources' }).getByRole('button');

/** The `sources` event of a streamed answer's body (what the app was given to show). */
export function streamedSources(body: string): { filename: string; page: number; excerpt: string; cited: boolean; quote?: string }[] {
  const event = parseServerSentEvents(body).events.find((e) => e.event === 'sources');
  if (!event) throw new Error(`no sources event in the answer: ${body.slice(0, 200)}`);
  return (JSON.parse(event.data) as { sources: ReturnType<typeof streamedSources> }).sources;
}

/**
 * Asks through the Question box (Enter sends) and waits for the answer to finish streaming; returns the answer's text
 * as the server sent it (the app shows it reshaped: its Sources line as buttons, "Also found" folded).
 */
/**
 * Types a question and sends it with Enter once the Ask button is enabled, as a person sees it. Pressed while a
 * session's history is still loading, the app sends it once the history is shown (app.test.ts).
 */
export async function sendQuestion(page: Page, question: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Question' });
  await box.fill(question);
  await waitUntil('the Ask button to be enabled', () => page.getByRole('button', { name: 'Ask' }).isEnabled());
  await box.press('Enter');
}

export async function ask(page: Page, question: string): Promise<string> {
  const streamed = page.waitForResponse((r) => r.url().endsWith('/api/v1/chat/completions'));
  await sendQuestion(page, question);
  const answer = page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last();
  await waitUntil('the answer to finish', async () => (await answer.getAttribute('aria-busy')) === null && (await page.getByRole('button', { name: 'Ask' }).count()) === 1);
  return streamedText(await (await streamed).text());
}

/** The text of a streamed answer's body: its `delta` events joined. */
export function streamedText(body: string): string {
  return parseServerSentEvents(body).events.filter((e) => e.event === 'delta').map((e) => (JSON.parse(e.data) as { text: string }).text).join('');
}

/**
 * A suite's embedded service and a watched Chromium page, started before its tests (skipped with the reason when
 * Chromium is absent) and stopped after them; read them inside the tests.
 */
export function embeddedAppInChromium(env: Record<string, string> = {}): { service(): TestService; page(): Page; watch(): PageWatch } {
  let stack: Stack | undefined;
  let service: TestService;
  let opened: { browser: BrowserSession; page: Page; watch: PageWatch } | undefined;
  before(async function () {
    if (chromiumUnavailableReason()) this.skip();
    ensureWebBuilt();
    stack = embeddedStack();
    service = await stack.start(env);
    opened = await openWatchedPage();
  });
  after(async () => {
    await opened?.browser.close();
    await stack?.close();
  });
  return { service: () => service, page: () => opened!.page, watch: () => opened!.watch };
}
