import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { PetstoreClient } from '../../extras/client/index.js';
import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from '../../lib/index.js';
import type { NewPet } from '../../lib/index.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
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
async function withConsole(pets: readonly NewPet[], check: (console: Console) => Promise<void>, options: BrowserContextOptions = {}): Promise<void> {
  if (chromium.browser === undefined) return;
  const server = await startTestServer();
  try {
    for (const pet of pets) await server.store.createPet(pet);
    const { context, page } = await openPage(chromium.browser, options);
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
  // Each value as the server sent it: the first element of its cell (a date or a link may follow).
  const values = await result.locator('.headers dd > :first-child').allTextContents();
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

/** The text of one snippet of a result box (`curl`, `fetch` or `client`). */
function snippetOf(page: Page, operationId: string, kind: string): Promise<string> {
  return resultOf(page, operationId).locator(`pre.${kind}`).innerText();
}

/** The constructor of async functions, to run a snippet as the module it would be. */
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...parameters: string[]) => (...values: unknown[]) => Promise<void>;

/**
 * Runs a snippet of the console in Node as a reader would paste it: `process.env.API_KEY` holds the
 * key, the client's import is the project's own client, and what it logs is returned.
 */
async function runSnippet(snippet: string): Promise<unknown[]> {
  const logged: unknown[] = [];
  const body = snippet.replace("import { PetstoreClient } from 'petstore-reference/client';", '');
  await new AsyncFunction('process', 'console', 'PetstoreClient', body)({ env: { API_KEY } }, { log: (...values: unknown[]) => logged.push(...values) }, PetstoreClient);
  return logged;
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

  test('the console keeps the key field in view at every console, and a 401 points to it: a button focuses it and a link says where keys come from', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      for (const operationId of ['listPets', 'createPet', 'getPet']) {
        await page.click(`nav.contents a[href="#${operationId}-try"]`);
        const bar = await page.locator('#key-bar').boundingBox();
        assert.ok(bar !== null && Math.abs(bar.y) < 1, `the key field at the top of the window at ${operationId}'s console: ${JSON.stringify(bar)}`);
        assert.ok(await page.locator('#api-key').isVisible());
      }
      await page.fill('form.try[data-operation="getPet"] [name="petId"]', '1');
      const answer = await send(page, 'getPet');
      assert.match(answer.status, /^401 Unauthorized/);
      const pointer = resultOf(page, 'getPet').locator('.key-pointer');
      assert.match((await pointer.textContent()) ?? '', /API key field at the top of the page.*PETSTORE_API_KEYS prints a development key on its standard output/);
      assert.equal(await pointer.locator('a').getAttribute('href'), '#get-a-key');
      assert.ok(await page.locator('#get-a-key').isVisible());
      await pointer.getByRole('button', { name: 'Go to the key field' }).click();
      assert.equal(await page.evaluate('document.activeElement.id'), 'api-key');
      await page.keyboard.type(API_KEY);
      assert.match((await send(page, 'getPet')).status, /^200 OK/);
      assert.equal(await resultOf(page, 'getPet').locator('.key-pointer').count(), 0, 'no pointer once the key is right');
    });
  });

  test('the console shows each answer\'s time, and Deprecation as a date beside its raw value', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      await page.fill('form.try[data-operation="getPet"] [name="petId"]', '2');
      await send(page, 'getPet');
      const result = resultOf(page, 'getPet');
      assert.match((await result.locator('.elapsed').textContent()) ?? '', /^ in \d+ ms$/);
      const deprecation = result.locator('.headers dd').nth(1);
      assert.equal(await result.locator('.headers dt').nth(1).textContent(), 'Deprecation');
      assert.equal(await deprecation.textContent(), `@${GET_PET_DEPRECATED_AT} (${new Date(GET_PET_DEPRECATED_AT * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })})`);
      assert.match((await deprecation.textContent()) ?? '', /^@1767225600 \(1 January 2026\)$/);
    });
  });

  test('the console\'s Next page fills the form with the next page\'s limit, after and status, then fetches it', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      const form = 'form.try[data-operation="listPets"]';
      await page.fill(`${form} [name="limit"]`, '2');
      await page.selectOption(`${form} select[name="status"]`, 'available');
      const first = await send(page, 'listPets');
      assert.deepEqual(namesIn(first.body), ['Rex', 'Kit']);
      const second = await followNext(page, 'listPets');
      assert.deepEqual(namesIn(second.body), ['Bo']);
      assert.deepEqual(await Promise.all(['limit', 'status', 'after'].map((name) => page.inputValue(`${form} [name="${name}"]`))), ['2', 'available', '3']);
      const again = await send(page, 'listPets');
      assert.deepEqual(namesIn(again.body), ['Bo'], 'Send repeats the page the form shows');
    });
  });

  test('the console links a created pet\'s Location to getPet\'s console, filled with its id', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      await send(page, 'createPet');
      const location = resultOf(page, 'createPet').locator('.headers dd a');
      assert.deepEqual([await location.textContent(), await location.getAttribute('href')], ['/v1/pets/7', '#getPet-try']);
      await location.click();
      assert.equal(new URL(page.url()).hash, '#getPet-try');
      assert.equal(await page.inputValue('form.try[data-operation="getPet"] [name="petId"]'), '7');
      const answer = await send(page, 'getPet');
      assert.match(answer.status, /^200 OK/);
      assert.equal((JSON.parse(answer.body) as { id: number }).id, 7);
    });
  });

  test('the console\'s copy buttons put the body and the curl command on the clipboard', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      await page.fill('#api-key', API_KEY);
      const answer = await send(page, 'listPets');
      const result = resultOf(page, 'listPets');
      for (const [label, text] of [['Copy the body', answer.body], ['Copy the curl request', answer.curl]] as const) {
        await result.getByRole('button', { name: label }).click();
        // The clipboard answers asynchronously; the button says so once it has.
        await result.locator(`button.copy[aria-label="${label}"]`, { hasText: /^Copied$/ }).waitFor();
        assert.equal(await page.evaluate('navigator.clipboard.readText()'), text, label);
      }
    }, { permissions: ['clipboard-read', 'clipboard-write'] });
  });

  test('the console resets an edited body to the example it was written with', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      const body = 'form.try[data-operation="createPet"] textarea[name="body"]';
      const example = await page.inputValue(body);
      await page.fill(body, '{"name": ');
      await page.fill('#api-key', API_KEY);
      assert.match((await send(page, 'createPet')).status, /^400 Bad Request/);
      await page.getByRole('button', { name: 'Reset the body to the example' }).click();
      assert.equal(await page.inputValue(body), example);
      assert.match((await send(page, 'createPet')).status, /^201 Created/);
    });
  });

  test('the console\'s fetch and PetstoreClient snippets, run as pasted, get the answer the console got', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page, server }) => {
      await page.fill('#api-key', API_KEY);
      await page.fill('form.try[data-operation="listPets"] [name="limit"]', '2');
      await page.selectOption('form.try[data-operation="listPets"] select[name="status"]', 'available');
      const listed = await send(page, 'listPets');
      const result = resultOf(page, 'listPets');
      await result.locator('summary', { hasText: 'JavaScript fetch' }).click();
      await result.locator('summary', { hasText: 'PetstoreClient' }).click();
      const fetchSnippet = await snippetOf(page, 'listPets', 'fetch');
      assert.match(fetchSnippet, /^const response = await fetch\('http:\/\/[^']+\/v1\/pets\?limit=2&status=available', \{\n {2}headers: \{\n {4}Authorization: `Bearer \$\{process\.env\.API_KEY\}`,/);
      assert.deepEqual(await runSnippet(fetchSnippet), [200, JSON.parse(listed.body)]);
      const clientSnippet = await snippetOf(page, 'listPets', 'client');
      assert.ok(clientSnippet.startsWith("import { PetstoreClient } from 'petstore-reference/client';\n"), clientSnippet);
      assert.ok(clientSnippet.includes("client.listPets({ limit: 2, status: 'available' })"), clientSnippet);
      assert.deepEqual(await runSnippet(clientSnippet), [JSON.parse(listed.body)]);
      await send(page, 'createPet');
      assert.ok(await resultOf(page, 'createPet').locator('pre.client').isVisible(), 'a snippet opened once stays open for the next answer');
      const created = await runSnippet(await snippetOf(page, 'createPet', 'client'));
      assert.deepEqual(created, [await server.store.getPet(8)], 'the client snippet creates the same pet again');
      await page.fill('form.try[data-operation="createPet"] textarea[name="body"]', '[1]');
      await send(page, 'createPet');
      assert.match(await snippetOf(page, 'createPet', 'client'), /^\/\/ The client sends a NewPet object: this body is not one/);
      assert.match(await snippetOf(page, 'createPet', 'fetch'), /\n {2}body: JSON\.stringify\(\[\n {4}1\n {2}\]\),\n\}\);/);
    });
  });

  test('the console\'s New key fills Idempotency-Key with a fresh Structured Field String, sent as a header and shown in curl', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page }) => {
      const sent: (string | undefined)[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') sent.push(request.headers()['idempotency-key']);
      });
      await page.fill('#api-key', API_KEY);
      const field = 'form.try[data-operation="createPet"] [name="Idempotency-Key"]';
      await send(page, 'createPet');
      await page.getByRole('button', { name: 'New key' }).click();
      const key = await page.inputValue(field);
      assert.match(key, /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
      assert.equal(await page.evaluate('document.activeElement.name'), 'Idempotency-Key');
      const answer = await send(page, 'createPet');
      assert.match(answer.status, /^201 Created/);
      assert.ok(answer.curl.includes(`-H 'Idempotency-Key: ${key}'`), answer.curl);
      await page.getByRole('button', { name: 'New key' }).click();
      assert.notEqual(await page.inputValue(field), key, 'each press makes a new key');
      assert.deepEqual(sent, [undefined, key], 'no header while the field is empty');
    });
  });
  test('the console shows a replay: the same create sent twice with one Idempotency-Key answers the same pet, marked Idempotent-Replayed: true, and stores one', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withConsole(PETS, async ({ page, server }) => {
      await page.fill('#api-key', API_KEY);
      await page.getByRole('button', { name: 'New key' }).click();
      const first = await send(page, 'createPet');
      assert.match(first.status, /^201 Created/);
      assert.equal(first.headers['Idempotent-Replayed'], undefined);
      const again = await send(page, 'createPet');
      assert.match(again.status, /^201 Created/);
      assert.equal(again.headers['Idempotent-Replayed'], 'true');
      assert.deepEqual([again.body, again.headers['Location']], [first.body, first.headers['Location']]);
      assert.equal((await server.store.listPets({ limit: 100 })).length, PETS.length + 1, 'one pet stored');
      await resultOf(page, 'createPet').locator('summary', { hasText: 'PetstoreClient' }).click();
      const clientSnippet = await snippetOf(page, 'createPet', 'client');
      assert.match(clientSnippet, /client\.createPet\(\{[\s\S]*\}, \{ idempotencyKey: '[0-9a-f-]{36}' \}\);/);
      assert.deepEqual(await runSnippet(clientSnippet), [JSON.parse(first.body)], 'the client, given the same key, gets the same pet');
      assert.equal((await server.store.listPets({ limit: 100 })).length, PETS.length + 1, 'and stores none');
      await page.fill('form.try[data-operation="createPet"] textarea[name="body"]', '{"name": "Other", "categoryId": 1}');
      const reused = await send(page, 'createPet');
      assert.match(reused.status, /^422 /);
      assert.equal((JSON.parse(reused.body) as { code: string }).code, 'idempotency_key_reused');
    });
  });
});
