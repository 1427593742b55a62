import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signLocalToken } from '../../../adapters/local-jwt/local-jwt-verifier.js';
import { requireChromium, sayWhyBrowserSuitesSkip } from '../../support/browser.js';
import { TEST_JWT_SECRET } from '../../support/test-service.js';
import { ask, embeddedAppInChromium, expectAccessible } from './helpers.js';

requireChromium();
sayWhyBrowserSuitesSkip('web app in Chromium, search over past chats');

describe('web app in Chromium, search over past chats', function () {
  this.timeout(120_000);
  const app = embeddedAppInChromium();
  let page: Page;
  const sessions = () => page.getByRole('navigation', { name: 'Sessions' });
  const searchFor = async (words: string) => {
    await sessions().getByRole('searchbox', { name: 'Search chats' }).fill(words);
    await sessions().getByRole('button', { name: 'Search' }).click();
  };

  before(async () => {
    page = app.page();
    await page.goto(`${app.service().baseUrl}/#token=${await signLocalToken(TEST_JWT_SECRET, 'search-user')}`);
  });

  it('finds a question asked in one session from another, and opens that session', async () => {
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    await ask(page, 'Which zeppelin hangar charges the docking fee?');
    await page.getByRole('heading', { name: /^Which zeppelin hangar/ }).waitFor();
    const firstPath = new URL(page.url()).pathname;

    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    expect(new URL(page.url()).pathname).to.not.equal(firstPath);

    await searchFor('zeppelin');
    const results = sessions().getByRole('list', { name: 'Search results' });
    const message = results.getByRole('link', { name: /Which zeppelin hangar charges the docking fee\?.* in Which zeppelin/ });
    await message.waitFor();
    expect(await results.getByRole('link').count(), 'the session by its name and the question by its text').to.be.at.least(2);
    await expectAccessible(page, 'search results');

    await message.click();
    await page.getByRole('heading', { name: /^Which zeppelin hangar/ }).waitFor();
    expect(new URL(page.url()).pathname).to.equal(firstPath);
    await page.getByRole('log', { name: 'Conversation' }).getByText('Which zeppelin hangar charges the docking fee?').waitFor();
  });

  it('says when nothing matches, and tells the API\'s 400s in people\'s words', async () => {
    const status = sessions().getByRole('status');
    await searchFor('quetzalcoatl');
    await status.getByText('No chats match').waitFor();
    expect(await sessions().getByRole('list', { name: 'Search results' }).count()).to.equal(0);

    await searchFor('   ');
    await status.getByText('Type what to search for').waitFor();
    expect(await sessions().getByRole('searchbox', { name: 'Search chats' }).getAttribute('aria-invalid')).to.equal('true');

    await searchFor('a'.repeat(201));
    await status.getByText('At most 200 characters').waitFor();
    await expectAccessible(page, 'a search problem');
  });

  it('searches inside the phone\'s Sessions menu, and a result closes the menu on its session', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole('button', { name: 'Sessions', exact: true });
    await menu.click();
    await sessions().getByRole('link', { name: 'Untitled session' }).click();
    await page.getByRole('heading', { name: 'Untitled session' }).waitFor();
    expect(await sessions().isVisible(), 'the search is behind the menu').to.equal(false);
    await menu.click();
    await searchFor('docking');
    const result = sessions().getByRole('list', { name: 'Search results' }).getByRole('link', { name: /docking fee\?.* in / });
    await result.click();
    await page.getByRole('heading', { name: /^Which zeppelin hangar/ }).waitFor();
    expect(await sessions().isVisible(), 'the menu closed').to.equal(false);
  });
});
