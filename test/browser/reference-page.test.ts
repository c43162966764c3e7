import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { HELD_CLAUSES } from '../../extras/docs-site/reference/conformance-map.js';
import { ERROR_CODES } from '../../lib/index.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { launchTestBrowser, openPage, watchPage } from './browser.js';
import type { PageProblems } from './browser.js';
import { toolFile } from '../tools/paths.js';

const chromium = await launchTestBrowser();

/** axe-core's browser bundle, injected into the page under test. */
const AXE_SOURCE = await readFile(toolFile('axe-core/axe.min.js'), 'utf8');

/** One violation axe found, as the test reports it. */
interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe in the page and returns its violations in a plain shape (the page's objects do not cross into Node). */
const RUN_AXE = `axe.run(document, { resultTypes: ['violations'] }).then(function (results) {
  return results.violations.map(function (violation) {
    return { id: violation.id, impact: String(violation.impact), help: violation.help, targets: violation.nodes.map(function (node) { return node.target.join(' '); }) };
  });
})`;

/** Narrows what RUN_AXE answered to violations, failing the test when it is anything else. */
function violationsOf(value: unknown): Violation[] {
  assert.ok(Array.isArray(value), 'axe.run answers a list of violations');
  return value.map((entry: unknown) => {
    assert.ok(typeof entry === 'object' && entry !== null && 'id' in entry && 'impact' in entry && 'help' in entry && 'targets' in entry, JSON.stringify(entry));
    const { id, impact, help, targets } = entry;
    assert.ok(typeof id === 'string' && typeof impact === 'string' && typeof help === 'string' && Array.isArray(targets));
    return { id, impact, help, targets: targets.map(String) };
  });
}

/** Starts a server with a few pets, opens its reference page in a fresh context, and runs `check`, recording the page's problems from the first request. */
async function withReferencePage(check: (page: Page, server: TestServer, problems: PageProblems) => Promise<void>, options: { bypassCSP?: boolean } = {}): Promise<void> {
  if (chromium.browser === undefined) return;
  const server = await startTestServer();
  try {
    await server.store.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    await server.store.createPet({ name: 'Tom', categoryId: 2, status: 'sold' });
    const { context, page } = await openPage(chromium.browser, options);
    try {
      const problems = watchPage(page, server.origin);
      await check(page, server, problems);
    } finally {
      await context.close();
    }
  } finally {
    await server.close();
  }
}

describe('the reference page in Chromium', () => {
  test('the reference page loads with no console error, no script error and no request to another origin', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withReferencePage(async (page, server, problems) => {
      const response = await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
      assert.equal(response?.status(), 200);
      assert.equal(response.headers()['content-type'], 'text/html; charset=utf-8');
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.match(await page.title(), /Petstore/);
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(await page.getAttribute('link[rel="icon"]', 'href'), 'data:,');
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], foreignRequests: [] });
    });
  });

  test('the reference page shows the three operations, the deprecation of getPet until 5 December 2030, and every Error code', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withReferencePage(async (page, server) => {
      await page.goto(`${server.url}/docs`);
      const operations: [string, string][] = [['listPets', 'GET /v1/pets'], ['createPet', 'POST /v1/pets'], ['getPet', 'GET /v1/pets/{petId}']];
      for (const [operationId, heading] of operations) {
        const section = page.locator(`section.operation#${operationId}`);
        assert.equal(await section.count(), 1, operationId);
        assert.ok(await section.getByRole('heading', { name: heading }).first().isVisible(), `${operationId} has a visible heading "${heading}"`);
        assert.equal(await section.locator(`form.try[data-operation="${operationId}"] button[type="submit"]`).textContent(), 'Send');
      }
      const getPet = page.locator('#getPet');
      assert.ok(await getPet.getByText('Deprecated').first().isVisible());
      assert.ok(await getPet.getByText('5 December 2030').first().isVisible());
      assert.ok(await getPet.locator('a[href="#listPets"]').first().isVisible(), 'getPet links to its successor');
      const shownCodes = await page.locator('#error-codes code').allTextContents();
      for (const code of Object.keys(ERROR_CODES)) {
        const cell = page.locator('#error-codes code', { hasText: new RegExp(`^${code}$`) });
        assert.ok(shownCodes.includes(code) && await cell.first().isVisible(), `${code} is a visible row of #error-codes`);
      }
      for (const id of ['authentication', 'paging', 'decisions']) assert.ok(await page.locator(`#${id}`).isVisible(), `#${id} is visible`);
      assert.ok(await page.getByLabel('API key', { exact: true }).isVisible());
      assert.equal(await page.getAttribute('#api-key', 'type'), 'password');
    });
  });

  test('the reference page keeps the key and the page on Enter in the key field, has no password field outside a form, and lines up the console\'s fields', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withReferencePage(async (page, server, problems) => {
      // Chromium reports a password field outside a form as a verbose [DOM] message, which watchPage does not record.
      const domMessages: string[] = [];
      page.on('console', (message) => {
        if (message.text().startsWith('[DOM]')) domMessages.push(message.text());
      });
      let loads = 0;
      page.on('load', () => { loads += 1; });
      await page.goto(`${server.url}/docs`);
      await page.fill('#api-key', API_KEY);
      await page.press('#api-key', 'Enter');
      // A reload would forget the key, and a submission the policy refuses logs an error; the next answer comes after either.
      await page.click('form.try[data-operation="listPets"] button[type="submit"]');
      await page.locator('.result[data-operation="listPets"]:not([aria-busy]) .status').waitFor();
      assert.equal(await page.locator('.result[data-operation="listPets"] .status').textContent(), '200 OK');
      assert.equal(await page.inputValue('#api-key'), API_KEY);
      assert.equal(loads, 1);
      assert.deepEqual(domMessages, []);
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], foreignRequests: [] });
      const boxes = await Promise.all(['limit', 'status', 'after'].map((name) => page.locator(`#listPets-${name}`).boundingBox()));
      const [first, ...others] = boxes.map((box) => [Math.round(box?.y ?? -1), Math.round(box?.height ?? -1)]);
      for (const other of others) assert.deepEqual(other, first, 'the status select is as high as the text fields beside it, at the same place');
      await page.click('nav.contents a[href="#getPet-try"]');
      const top = Number(await page.evaluate('document.getElementById("getPet-try").getBoundingClientRect().top'));
      const bar = Number(await page.evaluate('document.getElementById("key-bar").getBoundingClientRect().bottom'));
      assert.ok(top >= bar && top < bar + 40, `the contents lead to the console: its heading just below the key field (${bar} px), not at ${top} px`);
    });
  });

  test('the reference page has no accessibility violation of any impact (axe-core), before and after the consoles answer, a 401 included', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    // The page's Content-Security-Policy admits only its own script, so axe is injected with it bypassed.
    await withReferencePage(async (page, server) => {
      await page.goto(`${server.url}/docs`);
      await page.addScriptTag({ content: AXE_SOURCE });
      const before = violationsOf(await page.evaluate(RUN_AXE));
      await page.click('form.try[data-operation="listPets"] button[type="submit"]');
      await page.locator('.result[data-operation="listPets"]:not([aria-busy]) .key-pointer').waitFor();
      await page.fill('#api-key', API_KEY);
      for (const operationId of ['listPets', 'createPet', 'getPet']) {
        if (operationId === 'getPet') await page.fill('form.try[data-operation="getPet"] [name="petId"]', '1');
        await page.click(`form.try[data-operation="${operationId}"] button[type="submit"]`);
        await page.locator(`.result[data-operation="${operationId}"]:not([aria-busy]) .status`).waitFor();
      }
      await page.locator('.result[data-operation="createPet"] summary', { hasText: 'PetstoreClient' }).click();
      const afterAnswers = violationsOf(await page.evaluate(RUN_AXE));
      const all = [...before, ...afterAnswers];
      assert.deepEqual(all, [], JSON.stringify(all, null, 2));
    }, { bypassCSP: true });
  });

  test('the reference page\'s citations lead to the interface\'s text, at the cited section, which loads under its policy with no accessibility violation', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withReferencePage(async (page, server, problems) => {
      await page.goto(`${server.url}/docs`);
      const citation = page.locator('#decision-limit .cite a', { hasText: '4.1' });
      assert.equal(await citation.getAttribute('href'), 'docs/interface#spec-4.1');
      // In a new tab, so the reference page keeps its key and its consoles' answers.
      const opened = page.context().waitForEvent('page');
      await citation.click();
      const tab = await opened;
      const tabProblems = watchPage(tab, server.origin);
      await tab.waitForURL(`${server.url}/docs/interface#spec-4.1`);
      const heading = tab.locator('h3#spec-4\\.1');
      assert.match((await heading.textContent()) ?? '', /^4\.1 List animals: GET \/pets \(listPets\)$/);
      const top = Number(await tab.evaluate('document.getElementById("spec-4.1").getBoundingClientRect().top'));
      assert.ok(top >= 0 && top < 20, `the cited section at the top of the window, not at ${top} px`);
      assert.equal(await tab.evaluate('getComputedStyle(document.querySelector("header.page")).borderBottomStyle'), 'solid', 'the stylesheet applies under the policy');
      await tab.click('nav.contents a[href="#spec-5.4"]');
      assert.equal(new URL(tab.url()).hash, '#spec-5.4');
      await tab.click('header.page a[href="../docs"]');
      await tab.waitForURL(`${server.url}/docs`);
      assert.deepEqual(tabProblems, { consoleErrors: [], pageErrors: [], foreignRequests: [] });
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], foreignRequests: [] });
    });
    await withReferencePage(async (page, server) => {
      await page.goto(`${server.url}/docs/interface`);
      await page.addScriptTag({ content: AXE_SOURCE });
      const violations = violationsOf(await page.evaluate(RUN_AXE));
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    }, { bypassCSP: true });
  });

  test('the interface\'s text ends each section with the clauses that cite it, each with the code symbols and test names that hold it, opened on demand', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withReferencePage(async (page, server, problems) => {
      await page.goto(`${server.url}/docs/interface#spec-5.4`);
      const held = page.locator('details#held-5\\.4');
      assert.ok(!(await held.locator('ul').isVisible()), 'closed until opened');
      await held.locator('summary').click();
      const clause = HELD_CLAUSES.find((entry) => entry.sections.includes('5.4'));
      assert.ok(clause !== undefined);
      const text = (await held.locator('li').innerText()).replaceAll('\n', ' ');
      for (const file of [...clause.code, ...clause.tests]) {
        assert.ok(text.includes(file.path), `${file.path} in ${text}`);
        for (const name of file.names) assert.ok(text.includes(name), `${name} in ${text}`);
      }
      assert.match(await held.locator('.hint').innerText(), /paths from the root of a clone/);
      const shown = await page.locator('details.held li').count();
      assert.equal(shown, HELD_CLAUSES.reduce((count, entry) => count + entry.sections.length, 0), 'every clause under every section it cites');
      const sectionsHeld = await page.locator('details.held').evaluateAll((boxes) => boxes.map((box) => box.id));
      assert.deepEqual(sectionsHeld, [...new Set(HELD_CLAUSES.flatMap((entry) => entry.sections))].sort((left, right) => left.localeCompare(right, 'en', { numeric: true })).map((section) => `held-${section}`));
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], foreignRequests: [] });
    });
  });
});
