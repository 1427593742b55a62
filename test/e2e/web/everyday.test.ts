import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Page, Route } from 'playwright-core';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, documentItem, embeddedAppInChromium, expectAccessible, fixtures, sendQuestion, waitForStatus, waitUntil } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, the things used every day');

const CHAT = /\/api\/v1\/chat\/completions$/;
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Answers the next question with `text` and `sources`, streamed as the service streams (docs/api.md): the shapes the
 * answerers write (a direct line, "Also found", "Closest found", a model's table) shown by the app without waiting
 * for an answerer that writes each one on demand.
 */
async function answerNextWith(page: Page, text: string, sources: unknown[]): Promise<void> {
  await page.route(CHAT, (route: Route) => route.fulfill({
    status: 200, contentType: 'text/event-stream', body: frame('delta', { text }) + frame('sources', { sources }) + frame('done', {}),
  }), { times: 1 });
}

const source = (marker: number | undefined, page: number, quote: string, cited = true) => ({
  filename: 'report.pdf', page, excerpt: `… ${quote} …`, score: 1, ingestId: 'not-a-job', cited, ...(marker !== undefined && { marker }), quote,
});

describe('web app in Chromium, the things used every day: answer shapes, copy, export, names, limits, tabs, dark mode', function () {
  this.timeout(120_000);
  const app = embeddedAppInChromium();
  let page: Page;
  const answer = () => page.getByRole('log', { name: 'Conversation' }).locator('article.assistant').last();
  const askFaked = async (question: string) => {
    await sendQuestion(page, question);
    await waitUntil('the answer', async () => (await page.getByRole('button', { name: 'Ask' }).count()) === 1 && (await answer().getAttribute('aria-busy')) === null);
  };

  before(async () => {
    page = app.page();
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'everyday-user')}`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.service().baseUrl });
  });

  it('names a new session after its first document, and another after its first question', async () => {
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    const { acme } = await fixtures();
    await page.getByLabel('Upload documents').setInputFiles([acme]);
    await page.getByRole('heading', { name: 'acme-fees' }).waitFor();
    await waitForStatus(page, acme.name, /^completed$/);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    await ask(page, 'What does the overdraft fee cost at the bank downtown near the old station?');
    await page.getByRole('heading', { name: 'What does the overdraft fee cost at the bank downtown near…' }).waitFor();
    await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'acme-fees' }).click();
    await page.getByRole('heading', { name: 'acme-fees' }).waitFor();
  });

  it('shows "Searching your documents…" while an answer is on its way, and says it once to a screen reader', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(CHAT, async (route) => (await released, route.continue()), { times: 1 });
    // Released whatever happens: a request held past a failure here would hold every later test's answer too.
    try {
      await sendQuestion(page, 'How much do international wire transfers cost?');
      await answer().getByText('Searching your documents…').waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Searching your documents…' }).count()).to.equal(1);
      expect(await answer().getByText('Searching your documents…').getAttribute('aria-hidden'), 'the visible one is not said twice').to.equal('true');
    } finally {
      release();
    }
    await waitUntil('the answer', async () => (await page.getByRole('button', { name: 'Ask' }).count()) === 1);
    expect(await page.getByRole('status').filter({ hasText: 'Searching' }).count()).to.equal(0);
    expect(await answer().textContent()).to.include('45 dollars');
  });

  it('copies an answer with its sources', async () => {
    const streamed = await ask(page, 'How much do international wire transfers cost?');
    await answer().getByRole('button', { name: 'Copy' }).click();
    await answer().getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    expect(copied).to.equal(streamed.trim());
    expect(copied).to.match(/Sources: \[1\] acme-fees\.pdf, page 2/);
  });

  it('exports the conversation as Markdown with its sources', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).to.equal('acme-fees.md');
    const markdown = fs.readFileSync((await file.path())!, 'utf8');
    expect(markdown.startsWith('# acme-fees\n\n## Question')).to.equal(true);
    expect(markdown).to.include('How much do international wire transfers cost?');
    expect(markdown).to.include('### Answer');
    expect(markdown).to.match(/Sources: \[1\] acme-fees\.pdf, page 2/);
  });

  it('shows the direct line first, the quote, "Also found (n)" folded, and each source once in the order the marks cite them', async () => {
    await answerNextWith(page,
      'Net income, 2019: $8,985 million [1]\n\n“Consolidated Net Income 7,768 8,985 6,476” [1]\n\nAlso found: “Net income rose in 2019.” [3] “Other income was 34.” [2]\n\nSources: [1] report.pdf, page 52; [3] report.pdf, page 3; [2] report.pdf, page 9',
      [source(2, 9, 'Other income was 34.'), source(1, 52, 'Consolidated Net Income 7,768 8,985 6,476'), source(3, 3, 'Net income rose in 2019.'), source(undefined, 60, 'Net income attributable', false)]);
    await askFaked('What was the net income in 2019?');
    const content = answer().locator('.content');
    expect(await content.locator('p').first().textContent()).to.equal('Net income, 2019: $8,985 million [1]');
    expect(await content.locator('p').first().getAttribute('class')).to.equal('lead');
    expect(await content.textContent()).to.not.include('Sources:');
    const folded = content.getByText('Also found (2)');
    await folded.waitFor();
    expect(await content.getByText('“Net income rose in 2019.”').isVisible(), 'folded until opened').to.equal(false);
    await folded.click();
    await content.getByText(/Net income rose in 2019/).waitFor();
    const sources = answer().getByRole('list', { name: 'Sources' });
    expect(await sources.getByRole('button').allTextContents()).to.deep.equal(['report.pdf, page 52', 'report.pdf, page 3', 'report.pdf, page 9']);
    expect(await sources.locator('.number').allTextContents()).to.deep.equal(['[1]', '[3]', '[2]']);
    expect(await answer().getByText('Pages found, not quoted: 1').count()).to.equal(1);
    await expectAccessible(page, 'an answer with a direct line and Also found');
  });

  it('shows "not found" plainly, the closest passages folded as "Closest found"', async () => {
    await answerNextWith(page, 'I could not find this in your documents.\n\nClosest found: “bottlers in continental France” [1]\n\nSources: [1] report.pdf, page 7',
      [source(1, 7, 'bottlers in continental France')]);
    await askFaked('What is the capital of France?');
    const content = answer().locator('.content');
    expect(await content.locator('p.not-found').textContent()).to.equal('I could not find this in your documents.');
    const closest = content.locator('details').filter({ hasText: 'Closest found' });
    expect(await closest.getAttribute('open')).to.equal(null);
    expect(await closest.locator('summary').textContent()).to.equal('Closest found');
  });

  it('shows an answer holding a Markdown table as a table', async () => {
    await answerNextWith(page, 'Revenue by year [1]:\n\n| Year | Revenue |\n|---|---:|\n| 2019 | 37,266 |\n| 2018 | 34,300 |',
      [source(1, 52, 'Net operating revenues 37,266 34,300')]);
    await askFaked('Revenue by year?');
    const table = answer().getByRole('table');
    expect(await table.getByRole('columnheader').allTextContents()).to.deep.equal(['Year', 'Revenue']);
    expect(await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).to.deep.equal(['2019', '37,266']);
    expect(await answer().textContent()).to.not.include('|---');
    await expectAccessible(page, 'an answer with a table');
  });

  it('shows the length of the question against the limit as one types, keeps every character, and asks only once it fits', async () => {
    const box = page.getByRole('textbox', { name: 'Question' });
    const long = 'Why is that so?'.repeat(410) + 'Why?!'; // 6,155 characters
    await box.fill(long);
    expect((await box.inputValue()).length, 'nothing cut').to.equal(6155);
    await page.getByText('Your question is 6,155 characters; the limit is 4,000. Shorten it by 2,155 to ask.').waitFor();
    expect(await page.getByRole('button', { name: 'Ask' }).isDisabled()).to.equal(true);
    expect(await box.getAttribute('aria-invalid')).to.equal('true');
    await box.fill('x'.repeat(3500));
    await page.getByText('3,500 of 4,000 characters').waitFor();
    expect(await page.getByRole('button', { name: 'Ask' }).isDisabled()).to.equal(false);
    await box.fill('');
  });

  it('refuses a file over 50 MB before sending it, in words for people', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'big-upload-'));
    try {
      const big = path.join(dir, 'annual-report.pdf');
      fs.writeFileSync(big, '');
      fs.truncateSync(big, 60 * 1_048_576); // sparse: 60 MB on paper, nothing on disk
      await page.getByLabel('Upload documents').setInputFiles(big);
      await page.getByText('annual-report.pdf: This file is 60 MB; the limit is 50 MB').waitFor();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what a running ingestion is doing in words, and offers Retry for a failed one', async () => {
    // The job record as the API gives it while a long document is read (page 52 of 194, 30 % after 20 s).
    const patchRunning = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> | Record<string, unknown>[] };
      const running = (job: Record<string, unknown>) => job.filename === 'globex-fees.pdf'
        ? { ...job, status: 'processing', stage: 'extracting', readingPage: 52, progress: 0.3, pages: 194, createdAt: new Date(Date.now() - 20_000).toISOString() }
        : job;
      await route.fulfill({ response, json: { data: Array.isArray(body.data) ? body.data.map(running) : running(body.data) } });
    };
    const jobRoutes = /\/api\/v1\/(ingest\/[^/]+|session\/[^/]+\/documents)$/;
    await page.route(jobRoutes, patchRunning);
    const { globex, malformed } = await fixtures();
    await page.getByLabel('Upload documents').setInputFiles([globex]);
    const shown = await waitForStatus(page, 'globex-fees.pdf', /^extracting page 52 of 194, about \d+ s left$/);
    expect(await documentItem(page, 'globex-fees.pdf').getByRole('progressbar').getAttribute('aria-valuetext')).to.equal(shown);
    await page.unroute(jobRoutes);
    await waitForStatus(page, 'globex-fees.pdf', /^completed$/);

    await page.getByLabel('Upload documents').setInputFiles([malformed]);
    await waitForStatus(page, 'broken.pdf', /^failed: .{5,}/);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/ingest/process'));
    await documentItem(page, 'broken.pdf').getByRole('button', { name: 'Retry broken.pdf' }).click();
    await sent;
    await waitForStatus(page, 'broken.pdf', /^failed: .{5,}/);
    expect(await page.getByRole('list', { name: 'Documents' }).getByText('broken.pdf', { exact: true }).count(), 'the retried job replaces the failed one').to.equal(1);
  });

  it('follows prefers-color-scheme: dark, still readable (axe contrast)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => {
      const g = globalThis as unknown as { getComputedStyle(el: unknown): { backgroundColor: string }; document: { body: unknown } };
      return g.getComputedStyle(g.document.body).backgroundColor;
    });
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r + g + b, `a dark background (${background})`).to.be.below(150);
    await expectAccessible(page, 'dark mode');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('keeps a second tab signed in, and each tab sees the sessions the other makes, renames and signs out of', async () => {
    const second = await page.context().newPage();
    try {
      await second.goto(`${app.service().baseUrl}/`);
      const secondNav = second.getByRole('navigation', { name: 'Sessions' });
      await secondNav.getByRole('link', { name: 'acme-fees' }).waitFor();
      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
      await secondNav.getByRole('link', { name: 'Untitled session' }).waitFor();
      await secondNav.getByRole('button', { name: 'Rename Untitled session' }).click();
      await second.getByRole('textbox', { name: 'Session name' }).fill('Renamed in the second tab');
      await second.getByRole('textbox', { name: 'Session name' }).press('Enter');
      await page.getByRole('heading', { name: 'Renamed in the second tab' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await second.getByRole('textbox', { name: 'Access token' }).waitFor();
    } finally {
      await second.close();
    }
  });
});
