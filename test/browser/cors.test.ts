import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { launchTestBrowser, openPage } from './browser.js';
import type { CorsOrigins } from '../../server/core/cors.js';

/** A page of another application: it only needs to exist, so its scripts run with its own origin. */
const APP_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another application</title><link rel="icon" href="data:,"></head><body><h1>Another application</h1></body></html>';

/** What a `fetch` from the page saw: the answer's status, its headers as a script may read them, and its body; or the error it rejected with. */
type Seen = { status: number; link: string | null; location: string | null; body: string } | { error: string };

/** Starts a server on another port of 127.0.0.1 that answers APP_PAGE to everything: another origin than the API's. */
async function startAppServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(APP_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Runs `fetch` inside the page, with the key in `Authorization` (not a safelisted header, so the browser sends a preflight first). */
function fetchFromPage(page: Page, url: string, init: { method: string; body?: string }): Promise<Seen> {
  return page.evaluate(async ({ url, method, body, key }): Promise<Seen> => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(url, body === undefined ? { method, headers } : { method, headers, body });
      return { status: response.status, link: response.headers.get('Link'), location: response.headers.get('Location'), body: await response.text() };
    } catch (error) {
      return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
  }, { url, method: init.method, body: init.body, key: API_KEY });
}

const chromium = await launchTestBrowser();

describe('CORS in Chromium', () => {
  let app: { server: Server; origin: string };
  before(async () => {
    app = await startAppServer();
  });
  after(() => new Promise<void>((resolve) => app.server.close(() => resolve())));

  /** Starts the API with these CORS origins and two pets, opens the application's page, and runs `check` against both. */
  async function withPage(corsOrigins: CorsOrigins | undefined, check: (page: Page, api: TestServer) => Promise<void>): Promise<void> {
    if (chromium.browser === undefined) return;
    const api = await startTestServer(corsOrigins === undefined ? {} : { corsOrigins });
    const { context, page } = await openPage(chromium.browser).catch(async (error: unknown) => {
      await api.close();
      throw error;
    });
    try {
      await api.store.createPet({ name: 'Rex', categoryId: 1 });
      await api.store.createPet({ name: 'Tom', categoryId: 2 });
      await page.goto(`${app.origin}/`);
      assert.notEqual(new URL(api.url).origin, app.origin, 'the page and the API are different origins');
      await check(page, api);
    } finally {
      await context.close();
      await api.close();
    }
  }

  test('CORS on for the page\'s origin lets its fetch with a key read Link of a list and Location of a create', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withPage([app.origin], async (page, api) => {
      const listed = await fetchFromPage(page, `${api.url}/pets?limit=1`, { method: 'GET' });
      assert.ok(!('error' in listed), JSON.stringify(listed));
      assert.equal(listed.status, 200);
      assert.deepEqual(JSON.parse(listed.body), [{ id: 1, name: 'Rex', categoryId: 1 }]);
      assert.equal(listed.link, `</v1/pets?limit=1&after=1>; rel="next"`);

      const created = await fetchFromPage(page, `${api.url}/pets`, { method: 'POST', body: '{"name":"Kit","categoryId":3}' });
      assert.ok(!('error' in created), JSON.stringify(created));
      assert.equal(created.status, 201);
      assert.deepEqual(JSON.parse(created.body), { id: 3, name: 'Kit', categoryId: 3 });
      assert.equal(created.location, '/v1/pets/3');
      assert.deepEqual(await api.store.getPet(3), { id: 3, name: 'Kit', categoryId: 3 });
    });
  });

  test('CORS \'*\' lets any page read the same headers', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withPage('*', async (page, api) => {
      const listed = await fetchFromPage(page, `${api.url}/pets?limit=1`, { method: 'GET' });
      assert.ok(!('error' in listed), JSON.stringify(listed));
      assert.deepEqual([listed.status, listed.link], [200, `</v1/pets?limit=1&after=1>; rel="next"`]);
    });
  });

  test('CORS on lets a page do the conditional GET of the description the document advertises: it reads ETag, sends If-None-Match, and sees the 304', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    await withPage([app.origin], async (page, api) => {
      const seen = await page.evaluate(async (url) => {
        // No key: the description is public. `no-store` keeps the browser's own cache out of the exchange (Node's RequestInit type lacks `cache`, hence the variables).
        const fresh = { cache: 'no-store', headers: {} };
        const first = await fetch(url, fresh);
        const etag = first.headers.get('ETag');
        const document: unknown = await first.json();
        const conditional = { cache: 'no-store', headers: { 'If-None-Match': etag ?? '' } };
        const again = etag === null ? undefined : await fetch(url, conditional);
        return {
          status: first.status,
          etag,
          title: typeof document === 'object' && document !== null ? Reflect.get(Reflect.get(document, 'info'), 'title') : undefined,
          again: again === undefined ? undefined : { status: again.status, etag: again.headers.get('ETag'), body: await again.text() },
        };
      }, `${api.url}/openapi.json`).catch((error: unknown) => ({ error: String(error) }));
      assert.ok(!('error' in seen), JSON.stringify(seen));
      assert.equal(seen.status, 200);
      assert.equal(seen.title, 'Petstore');
      assert.match(seen.etag ?? '', /^"[A-Za-z0-9_-]{43}(?:-[a-z]+)?"$/, 'the script reads ETag');
      assert.deepEqual(seen.again, { status: 304, etag: seen.etag, body: '' });
    });
  });

  test('CORS off makes Chromium block the page\'s fetch with a TypeError, and a blocked create never reaches the store', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    for (const corsOrigins of [undefined, ['http://127.0.0.1:1']]) {
      await withPage(corsOrigins, async (page, api) => {
        const listed = await fetchFromPage(page, `${api.url}/pets?limit=1`, { method: 'GET' });
        assert.ok('error' in listed, JSON.stringify(listed));
        assert.match(listed.error, /^TypeError: /);

        const created = await fetchFromPage(page, `${api.url}/pets`, { method: 'POST', body: '{"name":"Kit","categoryId":3}' });
        assert.ok('error' in created, JSON.stringify(created));
        assert.match(created.error, /^TypeError: /);
        assert.equal((await api.store.listPets({ limit: 100 })).length, 2, 'the preflight failed, so the POST was never sent');
      });
    }
  });
});
