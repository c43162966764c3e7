import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Hono } from 'hono';
import { mount } from 'hono/mount';
import { createFetchHandler } from '../../server/fetch/index.js';
import type { FetchHandler } from '../../server/fetch/index.js';
import { createPetstore } from '../../lib/index.js';
import { API_KEY, AUTH, JSON_POST } from '../support/http.js';

/** hono's mount() told to pass the request on as it came, its URL still carrying `/api`. */
function mountOriginalRequest(app: Hono, handler: FetchHandler): void {
  app.all('/api/*', mount(handler, { replaceRequest: false }));
}

/** A plain hono route that hands the handler hono's raw request. */
function routeRawRequest(app: Hono, handler: FetchHandler): void {
  app.all('/api/*', (context) => handler(context.req.raw));
}

/**
 * The ways to hand the fetch handler the request as the client sent it, `/api` included. The handler
 * has no notion of a mount path: it sees only the Request's URL, so it serves `basePath: '/api/v1'`
 * and must get the original request. hono's default `mount()` rewrites the request without the mount
 * path (see the last test), which would leave `Location` and `Link` without `/api`.
 */
const MOUNTS: readonly [string, (app: Hono, handler: FetchHandler) => void][] = [
  ['mount(handler, { replaceRequest: false })', mountOriginalRequest],
  ['a route calling handler(c.req.raw)', routeRawRequest],
];

/** A hono app with a route of its own and the Petstore below `/api`. */
function honoApp(mountPetstore: (app: Hono, handler: FetchHandler) => void): Hono {
  const app = new Hono();
  app.get('/status', (context) => context.text('ok'));
  mountPetstore(app, createFetchHandler({ store: createPetstore(), apiKeys: [API_KEY], basePath: '/api/v1' }));
  return app;
}

const REX = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' });
const TOM = JSON.stringify({ name: 'Tom', categoryId: 2 });

describe('createFetchHandler() mounted in hono under /api', () => {
  for (const [way, mountPetstore] of MOUNTS) {
    test(`createFetchHandler() mounted in hono with ${way} answers Location and Link with the path the client saw`, async () => {
      const app = honoApp(mountPetstore);
      const created = await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: REX });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), '/api/v1/pets/1');
      assert.deepEqual(await created.json(), { id: 1, name: 'Rex', categoryId: 1, status: 'available' });
      assert.equal((await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: TOM })).headers.get('location'), '/api/v1/pets/2');

      const page = await app.request('/api/v1/pets?limit=1', { headers: AUTH });
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('link'), '</api/v1/pets?limit=1&after=1>; rel="next"');
      assert.deepEqual(await page.json(), [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);

      const next = await app.request('/api/v1/pets?limit=1&after=1', { headers: AUTH });
      assert.deepEqual(await next.json(), [{ id: 2, name: 'Tom', categoryId: 2 }]);
      assert.equal(next.headers.get('link'), null);

      const pet = await app.request('/api/v1/pets/1', { headers: AUTH });
      assert.equal(pet.status, 200);
      assert.equal(pet.headers.get('link'), '</api/v1/pets>; rel="successor-version"');

      const status = await app.request('/status');
      assert.equal(await status.text(), 'ok');
    });
  }

  test('createFetchHandler() mounted in hono answers a path below /api but outside its base path with its own 404', async () => {
    const app = honoApp(mountOriginalRequest);
    const answer = await app.request('/api/other', { headers: AUTH });
    assert.equal(answer.status, 404);
    assert.deepEqual(await answer.json(), { code: 'not_found', message: 'There is no resource at "/api/other"; the API lives under /api/v1', status: 404 });
  });

  test('createFetchHandler() behind hono\'s default mount() sees a rewritten request without /api, so Location and Link cannot carry it', async () => {
    // The rewritten Request's URL is all the handler gets: unlike the node:http adapter, which finds the
    // stripped prefix in Express's `originalUrl`, the fetch adapter has nothing to recover `/api` from.
    const app = new Hono();
    app.all('/api/*', mount(createFetchHandler({ store: createPetstore(), apiKeys: [API_KEY] })));
    const created = await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: REX });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), '/v1/pets/1');
    await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: TOM });
    assert.equal((await app.request('/api/v1/pets?limit=1', { headers: AUTH })).headers.get('link'), '</v1/pets?limit=1&after=1>; rel="next"');
  });
});
