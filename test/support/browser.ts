import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Flags for a quiet headless Chromium that reaches nothing on its own (no updates, sync or background requests). */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

/** Debian's chromium, found on PATH (or CHROMIUM_PATH); undefined when absent. */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return fs.existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why browser suites cannot run, or null. With DOC_CHAT_REQUIRE_CHROMIUM=1 (CI) a missing browser is an error, not a
 * skip: `requireChromium()` throws.
 */
export function chromiumUnavailableReason(): string | null {
  return chromiumPath() ? null : 'Chromium is not installed (apt-get install chromium): the browser suites are skipped';
}

export function requireChromium(): void {
  const reason = chromiumUnavailableReason();
  if (reason && process.env.DOC_CHAT_REQUIRE_CHROMIUM === '1') throw new Error(`DOC_CHAT_REQUIRE_CHROMIUM=1 but ${reason}`);
}

/** Under mocha: one skipped test that says why a browser suite is absent (nothing when Chromium is here). */
export function sayWhyBrowserSuitesSkip(title: string): void {
  const reason = chromiumUnavailableReason();
  if (reason) describe(title, () => it(`skipped: ${reason}`, function () { this.skip(); }));
}

export interface BrowserSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context on a fresh user-data directory (no profile state leaks between runs). */
export async function launchChromium(options: { width?: number; height?: number } = {}): Promise<BrowserSession> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium is not installed');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** What a page did that a test must see: console errors (with the URL they name), uncaught errors, and every request. */
export interface PageWatch {
  consoleErrors: string[];
  requests: { url: string; headers: Record<string, string> }[];
  /** Responses of status 400 or more: Chromium logs one console error for each. */
  refusals: { url: string; status: number }[];
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { consoleErrors: [], requests: [], refusals: [] };
  page.on('response', (response) => response.status() >= 400 && watch.refusals.push({ url: response.url(), status: response.status() }));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    watch.consoleErrors.push(url ? `${message.text()} (${url})` : message.text());
  });
  page.on('pageerror', (error) => watch.consoleErrors.push(`uncaught: ${error.message}`));
  page.on('request', (request) => watch.requests.push({ url: request.url(), headers: request.headers() }));
  return watch;
}

/**
 * For a step expected to be refused with `status`: waits until each refusal's console error has come (Chromium logs
 * them on a channel of their own, which can arrive after the page has shown the refusal), checks that every console
 * error and refusal so far is of that status, and clears them.
 */
export async function takeExpectedRefusals(watch: PageWatch, status: number, ms = 10_000): Promise<void> {
  const logged = () => watch.consoleErrors.filter((e) => e.includes(`status of ${status}`)).length;
  const refused = () => watch.refusals.filter((r) => r.status === status).length;
  const end = Date.now() + ms;
  while (refused() === 0 || logged() < refused()) {
    if (Date.now() > end) throw new Error(`the refusals ${JSON.stringify(watch.refusals)} were not all logged within ${ms} ms; logged: ${JSON.stringify(watch.consoleErrors)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const other = [...watch.consoleErrors.filter((e) => !e.includes(`status of ${status}`)), ...watch.refusals.filter((r) => r.status !== status).map((r) => `${r.status} ${r.url}`)];
  if (other.length) throw new Error(`unexpected console errors or refusals: ${JSON.stringify(other)}`);
  watch.consoleErrors.length = 0;
  watch.refusals.length = 0;
}

/** A browser with one page whose console errors and requests are watched (every web suite starts with this). */
export async function openWatchedPage(): Promise<{ browser: BrowserSession; page: Page; watch: PageWatch }> {
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  return { browser, page, watch: watchPage(page) };
}
