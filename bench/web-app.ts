/**
 * The web app in Chromium: bundle size (gzipped, what the first load needs and everything including the lazily loaded
 * Supabase chunk; budget 120 KB), time to first render (a fresh page opening a /#token= link until the Sessions
 * landmark shows) and time to an answer's first token (Enter in the Question box until the first streamed text is on
 * screen), on the embedded service. Medians and p95 over WEB_BENCH_RUNS runs (default 15).
 * `npx tsx bench/web-app.ts`
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { fixtures, waitForStatus } from '../test/e2e/web/helpers.js';
import { chromiumUnavailableReason, launchChromium } from '../test/support/browser.js';
import { embeddedStack } from '../test/support/stacks.js';
import { TEST_JWT_SECRET } from '../test/support/test-service.js';
import { ensureWebBuilt, WEB_DIST } from '../test/support/web-build.js';
import { percentile } from './metrics.js';

const BUDGET_KB = 120;
const RUNS = Number(process.env.WEB_BENCH_RUNS ?? 15);

const reason = chromiumUnavailableReason();
if (reason) {
  console.error(reason);
  process.exit(2);
}
ensureWebBuilt();

// Bundle: the files index.html loads (the first paint's cost) and every asset (the lazily loaded chunks too).
const index = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
const initial = new Set([...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]));
const gzipKb = (file: string) => gzipSync(fs.readFileSync(path.join(WEB_DIST, file)), { level: 9 }).length / 1024;
const assets = fs.readdirSync(path.join(WEB_DIST, 'assets')).map((f) => `assets/${f}`);
const initialKb = [...initial].reduce((sum, f) => sum + gzipKb(f), 0);
const allKb = assets.reduce((sum, f) => sum + gzipKb(f), 0);
console.log(`bundle (gzip -9): first load ${initialKb.toFixed(1)} KB (JS + CSS: ${[...initial].join(', ')}); all assets ${allKb.toFixed(1)} KB; budget ${BUDGET_KB} KB: ${allKb <= BUDGET_KB ? 'met' : 'EXCEEDED'}`);

const stack = embeddedStack();
const service = await stack.start();
const browser = await launchChromium();
const ms = (values: number[]) => `median ${percentile(values, 50).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms (${values.length} runs)`;
try {
  const token = await signLocalToken(TEST_JWT_SECRET, 'bench');
  const firstRender: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.context.newPage();
    // Before the app's scripts: note when the Sessions landmark enters the DOM (performance.now() counts from the
    // navigation's start), without waiting on the test's own polling.
    await page.addInitScript(`new MutationObserver((_, observer) => {
      if (document.querySelector('nav[aria-label="Sessions"]')) { window.__sessionsShownAt = performance.now(); observer.disconnect(); }
    }).observe(document, { subtree: true, childList: true });`);
    await page.goto(`${service.baseUrl}/#token=${token}`);
    await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
    firstRender.push(await page.evaluate('window.__sessionsShownAt'));
    await page.close();
  }
  console.log(`time to first render (navigation start to the Sessions landmark): ${ms(firstRender)}`);

  const page = await browser.context.newPage();
  await page.goto(`${service.baseUrl}/#token=${token}`);
  await page.getByRole('button', { name: 'New session' }).click();
  await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
  const { acme } = await fixtures();
  await page.getByLabel('Upload documents').setInputFiles([acme]);
  await waitForStatus(page, acme.name, /^completed$/);
  const firstToken: number[] = [];
  const box = page.getByRole('textbox', { name: 'Question' });
  for (let i = 0; i < RUNS; i++) {
    // Measured in the page: from the Enter keydown to the first text in the new answer (a MutationObserver).
    const measured = page.evaluate(`new Promise((resolve) => {
      let start = 0;
      document.addEventListener('keydown', (e) => { if (e.key === 'Enter') start = performance.now(); }, { capture: true, once: true });
      const observer = new MutationObserver(() => {
        const answers = document.querySelectorAll('article.assistant .content');
        const last = answers[answers.length - 1];
        if (start && last && last.textContent) { observer.disconnect(); resolve(performance.now() - start); }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    })`) as Promise<number>;
    await box.fill(i % 2 ? 'How much do international wire transfers cost?' : 'What is the monthly maintenance fee?');
    await box.press('Enter');
    firstToken.push(await measured);
    await page.getByRole('button', { name: 'Ask' }).waitFor();
  }
  console.log(`time to an answer's first token (Enter to first streamed text, extractive answerer): ${ms(firstToken)}`);
} finally {
  await browser.close();
  await stack.close();
}
