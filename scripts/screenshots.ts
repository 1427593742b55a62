/**
 * Writes the README's screenshots (docs/screenshots/*.png) from a real run: the embedded service, Debian's Chromium,
 * a session with two fee schedules at 1280×800, a streamed answer and a cited page beside the chat (in dark mode too;
 * on a phone over the chat, zoomed), an answer's pages found but not quoted; then a photographed page with its cited
 * lines marked.
 * `npx tsx scripts/screenshots.ts`
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { ask, fixtures, lastAnswerSources, timetablePdf, waitForStatus } from '../test/e2e/web/helpers.js';
import { chromiumUnavailableReason, launchChromium } from '../test/support/browser.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { embeddedStack } from '../test/support/stacks.js';
import { TEST_JWT_SECRET } from '../test/support/test-service.js';
import { ensureWebBuilt } from '../test/support/web-build.js';

const OUT = path.join(REPO_ROOT, 'docs', 'screenshots');
const reason = chromiumUnavailableReason();
if (reason) {
  console.error(reason);
  process.exit(2);
}
ensureWebBuilt();
fs.mkdirSync(OUT, { recursive: true });
const stack = embeddedStack();
const service = await stack.start();
const browser = await launchChromium({ width: 1280, height: 800 });
try {
  const page = await browser.context.newPage();
  const shot = async (name: string) => {
    const file = path.join(OUT, `${name}.png`);
    await page.screenshot({ path: file });
    // Fewer colours: the same picture at a fraction of the bytes (ImageMagick, when installed).
    try {
      execFileSync('convert', [file, '-colors', '128', '-strip', `PNG8:${file}`]);
    } catch {
      // Kept as Chromium wrote it.
    }
    console.log(`${path.relative(REPO_ROOT, file)} ${Math.round(fs.statSync(file).size / 1024)} KB`);
  };

  const imagesLoaded = () =>
    page.waitForFunction(() => [...(globalThis as unknown as { document: { images: Iterable<{ complete: boolean }> } }).document.images].every((i) => i.complete));

  await page.goto(`${service.baseUrl}/`);
  await page.getByRole('textbox', { name: 'Access token' }).waitFor();
  await shot('sign-in');

  const files = await fixtures();
  await page.goto(`${service.baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'demo')}`);
  await page.getByRole('button', { name: 'New session' }).click();
  await page.getByRole('button', { name: 'Rename Untitled session' }).click();
  await page.getByRole('textbox', { name: 'Session name' }).fill('Bank fees 2024');
  await page.getByRole('textbox', { name: 'Session name' }).press('Enter');
  await page.getByText('Tags for the next upload').click();
  for (const [file, institution] of [[files.acme, 'acme'], [files.globex, 'globex']] as const) {
    await page.getByRole('textbox', { name: 'Institution' }).fill(institution);
    await page.getByLabel('Upload documents').setInputFiles([file]);
    await waitForStatus(page, file.name, /^completed$/);
  }
  await page.getByText('Tags for the next upload').click();
  await ask(page, 'What is the monthly maintenance fee on checking accounts?');
  await ask(page, 'How much do international wire transfers cost?');
  await shot('session');

  // Pages found for a question but not quoted by its answer, unfolded: another session, a timetable.
  await page.getByRole('button', { name: 'New session' }).click();
  await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
  await page.getByLabel('Upload documents').setInputFiles([await timetablePdf()]);
  await waitForStatus(page, 'timetable.pdf', /^completed$/);
  await ask(page, 'Does the ferry run on Sundays?');
  await page.getByText(/^Pages found, not quoted/).click();
  await shot('also-found');
  // The library: the user's documents across sessions, each addable here without an upload.
  await page.getByRole('button', { name: 'Library' }).click();
  const library = page.getByRole('dialog', { name: 'Library' });
  await library.getByRole('list', { name: 'Library documents' }).getByRole('listitem').first().waitFor();
  await shot('library');
  await library.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'Bank fees 2024' }).click();
  await page.getByRole('heading', { name: 'Bank fees 2024' }).waitFor();
  await lastAnswerSources(page).first().waitFor();

  await lastAnswerSources(page).first().click();
  // The quoted lines marked on the page come with a request of their own.
  await page.getByRole('dialog').getByRole('img', { name: /the quoted passages? marked$/ }).waitFor();
  await imagesLoaded();
  await shot('source-page');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');

  // A phone: the chat is the screen (sessions and documents behind the top bar's buttons); a citation previewed.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last().getByRole('button', { name: /^Source 1: / }).first().focus();
  await page.getByRole('tooltip').waitFor();
  await shot('phone');
  await page.keyboard.press('Escape');

  // On a phone a printed page is small: the cited page zoomed, its frame scrolled sideways to the line cited.
  await lastAnswerSources(page).first().click();
  await page.getByRole('dialog').getByRole('img').waitFor();
  const larger = page.waitForResponse((r) => /\/pages\/\d+\?width=\d+$/.test(r.url()));
  await page.getByRole('dialog').getByRole('button', { name: 'Zoom' }).click();
  await larger;
  await imagesLoaded();
  await page.getByRole('dialog').getByRole('region', { name: /zoomed$/ }).evaluate((frame) => ((frame as unknown as { scrollLeft: number }).scrollLeft = 40));
  await shot('phone-page');
  await page.keyboard.press('Escape');

  // A photographed page (a real newspaper page where the corpus is beside the clone): the cited lines marked on the
  // photo, found by OCR.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'New session' }).click();
  await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
  await page.getByLabel('Upload documents').setInputFiles([files.jpeg]);
  await waitForStatus(page, files.jpeg.name, /^completed$/);
  await ask(page, 'What is this document about?');
  await lastAnswerSources(page).first().click();
  await page.getByRole('dialog').getByRole('img', { name: /the quoted passages? marked$/ }).waitFor({ timeout: 30_000 });
  await imagesLoaded();
  await page.locator('.page-image .mark').first().scrollIntoViewIfNeeded();
  await shot('photo-page');
} finally {
  await browser.close();
  await stack.close();
}
