import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailableReason, openWatchedPage, requireChromium, sayWhyBrowserSuitesSkip, takeExpectedRefusals, type BrowserSession, type PageWatch } from '../../support/browser.js';
import { FakeSupabaseAuth } from '../../support/fake-supabase-auth.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { ensureWebBuilt } from '../../support/web-build.js';
import { expectAccessible, waitUntil } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, Supabase sign-in');
const PROJECT_SECRET = 'the-supabase-project-secret-0123456789abcdef';
/** supabase-js's auto-refresh tick (AUTO_REFRESH_TICK_DURATION_MS). */
const SUPABASE_REFRESH_CHECK_MS = 30_000;

/** Supabase mode: Email and Password through supabase-js in the browser (its own lazily loaded chunk), token refreshed. */
describe('web app in Chromium, Supabase sign-in', function () {
  this.timeout(75_000);
  let provider: FakeSupabaseAuth;
  let service: TestService;
  let browser: BrowserSession;
  let page: Page;
  let watch: PageWatch;

  before(async function () {
    if (chromiumUnavailableReason()) this.skip();
    ensureWebBuilt();
    provider = new FakeSupabaseAuth(PROJECT_SECRET);
    provider.users.set('ada@example.test', { password: 'correct horse', id: 'ada' });
    // Within supabase-js's refresh margin: it refreshes the session as soon as it has one.
    provider.tokenLifetimeSeconds = 60;
    await provider.start();
    service = await startTestService({ SUPABASE_URL: provider.url, SUPABASE_ANON_KEY: provider.anonKey, AUTH_JWT_SECRET: '' });
    ({ browser, page, watch } = await openWatchedPage());
    // Time runs as usual until the refresh test jumps it forward to supabase-js's next check.
    await page.clock.install();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await provider?.stop();
  });

  it('allows the identity provider in the CSP and shows Email and Password instead of a token box', async () => {
    const index = await fetch(`${service.baseUrl}/`);
    expect(index.headers.get('content-security-policy')).to.include(`connect-src 'self' ${new URL(provider.url).origin}`);
    await page.goto(`${service.baseUrl}/`);
    await page.getByRole('textbox', { name: 'Email' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Access token' }).count()).to.equal(0);
    await expectAccessible(page, 'Supabase sign-in');
  });

  it('refuses a wrong password with the provider\'s message', async () => {
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.test');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid login credentials' }).waitFor();
    // The refused grant's 400 is the one console error expected.
    await takeExpectedRefusals(watch, 400);
  });

  it('signs in with the right password, uses the API as that user, and refreshes the token before it expires', async () => {
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    // supabase-js checks every 30 s and refreshes a token that ends within 90 s: the page's clock skips the wait.
    expect(provider.grants, 'no refresh before the check').to.not.include('refresh_token');
    await page.clock.fastForward(SUPABASE_REFRESH_CHECK_MS);
    await waitUntil('a refresh_token grant', async () => provider.grants.includes('refresh_token'), 15_000);
    // The refreshed token is the one the app now sends.
    await page.reload();
    await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'Untitled session' }).waitFor();
    const sent = watch.requests.filter((r) => r.url.includes('/api/v1/session') && r.headers.authorization).map((r) => r.headers.authorization);
    expect(sent.at(-1)).to.not.equal(sent[0]);
    const origins = new Set(watch.requests.map((r) => new URL(r.url).origin));
    expect([...origins].sort()).to.deep.equal([new URL(provider.url).origin, new URL(service.baseUrl).origin].sort());
    expect(watch.consoleErrors).to.deep.equal([]);
  });
});
