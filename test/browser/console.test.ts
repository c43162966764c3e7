import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from '../../lib/index.js';
import type { NewPet } from '../../lib/index.js';
import { API_KEY, startTestServer } from '../support/http.js';
import type { TestServer } from '../support/http.js';
import { launchTestBrowser, openPage, watchPage } from './browser.js';
import type { PageProblems } from './browser.js';

const chromium = await launchTestBrowser();

/** What one result box of the console shows. */
interface Shown {
  status: string;
  headers: Record<string, string>;
  body: string;
  curl: string;
  hasNextButton: boolean;
}

/** The page, its context, its server and its problems, for one test. */
interface Console {
  page: Page;
  context: BrowserContext;
  server: TestServer;
  problems: PageProblems;
}

/** Starts a server holding `pets`, opens its reference page in a fresh context, and runs `check`. */
async function withConsole(pets: readonly NewPet[], check: (console: Console) => Promise<void>): Promise<void> {
  if (chromium.browser === undefined) return;
  const server = await startTestServer();
  try {
    for (const pet of pets) await server.store.createPet(pet);
    const { context, page } = await openPage(chromium.browser);
    try {
      const problems = watchPage(page, server.origin);
      await page.goto(`${server.url}/docs`);
      await check({ page, context, server, problems });
    } finally {
      await context.close();
    }
  } finally {
    await server.close();
  }
}

/** The result box of one operation, once it shows an answer (not while a request is under way). */
function resultOf(page: Page, operationId: string): Locator {
  return page.locator(`.result[data-operation="${operationId}"]:not([aria-busy])`);
}

/** Reads what a result box shows. */
async function shown(result: Locator): Promise<Shown> {
  await result.locator('.status').waitFor();
  const names = await result.locator('.headers dt').allTextContents();
  const values = await result.locator('.headers dd').allTextContents();
  assert.equal(names.length, values.length, 'each header name has its value');
  return {
    status: (await result.locator('.status').textContent()) ?? '',
    headers: Object.fromEntries(names.map((name, index) => [name, values[index] ?? ''])),
    body: (await result.locator('.body').textContent()) ?? '',
    curl: (await result.locator('.curl').textContent()) ?? '',
    hasNextButton: (await result.locator('button.follow-next').count()) === 1,
  };
}

/** Presses Send in one operation's form and reads its answer. */
async function send(page: Page, operationId: string): Promise<Shown> {
  await page.click(`form.try[data-operation="${operationId}"] button[type="submit"]`);
  return shown(resultOf(page, operationId));
}

/** Presses Next page in one operation's result box and reads the answer that replaces it. */
async function followNext(page: Page, operationId: string): Promise<Shown> {
  await resultOf(page, operationId).locator('button.follow-next').click();
  return shown(resultOf(page, operationId));
}

/** The `name`s of the pets in a result's body, which must be a JSON array of pets. */
function namesIn(body: string): string[] {
  const pets: unknown = JSON.parse(body);
  assert.ok(Array.isArray(pets), body);
  return pets.map((pet: unknown) => (typeof pet === 'object' && pet !== null && 'name' in pet ? String(pet.name) : ''));
}

const PETS: NewPet[] = [
  { name: 'Rex', categoryId: 1, status: 'available' },
  { name: 'Tom', categoryId: 2, status: 'sold' },
  { name: 'Kit', categoryId: 2, status: 'available' },
  { name: 'Max', categoryId: 1, status: 'pending' },
  { name: 'Bo', categoryId: 3, status: 'available' },
  { name: 'Zed', categoryId: 3 },
];

describe('the reference page\'s console in Chromium', () => {
  test('the console creates a pet with the key: 201 Created, its Location, the pet, and a curl command that shows $API_KEY and not the key', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page, server, problems }) => {
      await page.fill('#api-key', API_KEY);
      const body = await page.inputValue('form.try[data-operation="createPet"] textarea[name="body"]');
      const example: unknown = JSON.parse(body);
      assert.ok(typeof example === 'object' && example !== null && 'name' in example, `the body is prefilled with an example: ${body}`);
      const answer = await send(page, 'createPet');
      assert.match(answer.status, /^201 Created/);
      assert.equal(answer.headers['Location'], '/v1/pets/7');
      const created: unknown = JSON.parse(answer.body);
      assert.deepEqual(created, { ...example, id: 7 });
      assert.deepEqual(await server.store.getPet(7), created);
      assert.match(answer.curl, /^curl -i /);
      assert.ok(answer.curl.includes('Authorization: Bearer $API_KEY'), answer.curl);
      assert.ok(!answer.curl.includes(API_KEY), 'the curl command never shows the key');
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], foreignRequests: [] });
    });
  });

  test('the console lists pets with a status filter: only pets of that status', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      const form = 'form.try[data-operation="listPets"]';
      assert.equal(await page.inputValue(`${form} select[name="status"]`), '', 'no status is sent by default');
      const all = await send(page, 'listPets');
      assert.match(all.status, /^200 OK/);
      assert.deepEqual(namesIn(all.body), ['Rex', 'Tom', 'Kit', 'Max', 'Bo', 'Zed']);
      for (const [status, names] of [['available', ['Rex', 'Kit', 'Bo']], ['sold', ['Tom']], ['pending', ['Max']]] as const) {
        await page.selectOption(`${form} select[name="status"]`, status);
        const answer = await send(page, 'listPets');
        assert.match(answer.status, /^200 OK/);
        assert.deepEqual(namesIn(answer.body), names, status);
        assert.ok(answer.curl.includes(`status=${status}`), answer.curl);
      }
    });
  });

  test('the console follows Link rel="next" page by page until the last page, which has no Next page button', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      await page.fill('form.try[data-operation="listPets"] [name="limit"]', '4');
      const first = await send(page, 'listPets');
      assert.deepEqual(namesIn(first.body), ['Rex', 'Tom', 'Kit', 'Max']);
      assert.equal(first.headers['Link'], '</v1/pets?limit=4&after=4>; rel="next"');
      assert.ok(first.hasNextButton);
      const second = await followNext(page, 'listPets');
      assert.match(second.status, /^200 OK/);
      assert.deepEqual(namesIn(second.body), ['Bo', 'Zed']);
      assert.equal(second.headers['Link'], undefined);
      assert.ok(!second.hasNextButton);
      assert.ok(second.curl.includes('after=4'), second.curl);
    });
  });

  test('the console gets a pet and shows its Deprecation and Sunset', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      await page.fill('form.try[data-operation="getPet"] [name="petId"]', '2');
      const answer = await send(page, 'getPet');
      assert.match(answer.status, /^200 OK/);
      assert.deepEqual(JSON.parse(answer.body), { id: 2, name: 'Tom', categoryId: 2, status: 'sold' });
      assert.equal(answer.headers['Deprecation'], `@${GET_PET_DEPRECATED_AT}`);
      assert.equal(answer.headers['Sunset'], GET_PET_SUNSET);
      assert.ok(answer.curl.endsWith('/v1/pets/2\''), answer.curl);
    });
  });

  test('the console without a key shows 401 Unauthorized with WWW-Authenticate, and a curl command without Authorization', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      assert.match((await send(page, 'listPets')).status, /^200 OK/);
      await page.fill('#api-key', '');
      const answer = await send(page, 'listPets');
      assert.match(answer.status, /^401 Unauthorized/);
      assert.match(answer.headers['WWW-Authenticate'] ?? '', /^Bearer/);
      const error: unknown = JSON.parse(answer.body);
      assert.ok(typeof error === 'object' && error !== null && 'code' in error && 'status' in error, answer.body);
      assert.deepEqual([error.code, error.status], ['unauthorized', 401]);
      assert.ok(!answer.curl.includes('Authorization'), answer.curl);
    });
  });

  test('the console keeps the key out of storage, cookies and every URL it requests', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page, context: browserContext }) => {
      const urls: string[] = [];
      page.on('request', (request) => urls.push(request.url()));
      await page.fill('#api-key', API_KEY);
      await page.fill('form.try[data-operation="listPets"] [name="limit"]', '2');
      await send(page, 'listPets');
      await followNext(page, 'listPets');
      await page.fill('form.try[data-operation="getPet"] [name="petId"]', '1');
      await send(page, 'getPet');
      await send(page, 'createPet');
      assert.equal(urls.length, 4, urls.join('\n'));
      assert.deepEqual(urls.filter((url) => url.includes(API_KEY)), []);
      assert.deepEqual(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]'), [0, 0, '']);
      assert.deepEqual(await browserContext.cookies(), []);
      const state = await browserContext.storageState();
      assert.ok(!JSON.stringify(state).includes(API_KEY));
    });
  });
});
