import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { launchTestBrowser, openPage } from './browser.js';

const chromium = await launchTestBrowser();

/** The origin of the README's quick start, which a page served elsewhere must not show. */
const QUICK_START_ORIGIN = 'http://127.0.0.1:8080';

/** Starts a server on a free port (never the quick start's 8080), opens its reference page with the key typed in, and runs `check`. */
async function withPage(check: (page: Page, server: TestServer) => Promise<void>): Promise<void> {
  if (chromium.browser === undefined) return;
  const server = await startTestServer();
  try {
    assert.notEqual(server.origin, QUICK_START_ORIGIN, 'the page is served elsewhere than the quick start\'s origin');
    await server.store.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    await server.store.createPet({ name: 'Tom', categoryId: 2 });
    await server.store.createPet({ name: 'Kit', categoryId: 3 });
    const { context, page } = await openPage(chromium.browser);
    try {
      await page.goto(`${server.url}/docs`);
      await page.fill('#api-key', API_KEY);
      await check(page, server);
    } finally {
      await context.close();
    }
  } finally {
    await server.close();
  }
}

/** Sends the listPets console's form and waits for its answer. */
async function sendListPets(page: Page): Promise<void> {
  await page.click('form.try[data-operation="listPets"] button[type="submit"]');
  await page.locator('.result[data-operation="listPets"]:not([aria-busy]) .status').waitFor();
}

describe('the reference page served on any origin, in Chromium', () => {
  test('the reference page served on a port other than 8080 shows that origin in every sample, with no placeholder', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withPage(async (page, server) => {
      await sendListPets(page);
      // Every sample: the page's own (Authentication, Paging) and those the console wrote for the answer (curl, fetch, PetstoreClient).
      const samples = await page.locator('pre').allTextContents();
      const urls = samples.flatMap((text) => text.match(/https?:\/\/[^\s"'`]+/g) ?? []);
      assert.ok(urls.length >= 5, `the page shows samples with URLs: ${urls.join(' ')}`);
      for (const url of urls) assert.ok(url.startsWith(`${server.origin}/`), `a sample names ${url}, not this server's origin ${server.origin}`);
      for (const text of samples) assert.doesNotMatch(text, /ORIGIN|127\.0\.0\.1:8080/, `a sample shows a placeholder or the quick start's origin:\n${text}`);
      for (const id of ['authentication', 'paging']) {
        assert.ok((await page.locator(`#${id} pre`).allTextContents()).join('\n').includes(`${server.origin}/v1/pets?limit=2`), `#${id} shows this origin`);
      }
    });
  });

  test('the reference page says, where its snippets are copied, that they read the key from API_KEY and how to set it', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withPage(async (page) => {
      await sendListPets(page);
      const result = page.locator('.result[data-operation="listPets"]');
      assert.match(await result.locator('pre.curl').textContent() ?? '', /\$API_KEY/);
      const note = await result.locator('.key-note').textContent();
      assert.match(note ?? '', /API_KEY/);
      assert.match(note ?? '', /export API_KEY=/);
      assert.ok(!(note ?? '').includes(API_KEY), 'the note never shows the key itself');
      assert.match(await page.locator('#authentication').textContent() ?? '', /export API_KEY=/);
    });
  });

  test('the reference page opens a citation in a new tab and keeps its key and the console\'s answer', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withPage(async (page, server) => {
      await sendListPets(page);
      const citation = page.locator('section.operation#listPets a[href*="docs/interface#spec-"]').first();
      const opened = page.context().waitForEvent('page');
      await citation.click();
      const tab = await opened;
      await tab.waitForLoadState();
      assert.match(tab.url(), new RegExp(`^${server.url.replaceAll('.', '\\.')}/docs/interface#spec-`));
      assert.match(await tab.locator('h1').first().textContent() ?? '', /interface/i);
      assert.equal(page.url(), `${server.url}/docs`, 'the reference page stays where it was');
      assert.equal(await page.inputValue('#api-key'), API_KEY);
      assert.equal(await page.locator('.result[data-operation="listPets"] .status').textContent(), '200 OK');
    });
  });
});
