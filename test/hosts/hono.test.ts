import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../examples/hosts/hono.js';
import { AUTH, JSON_POST } from '../support/http.js';
import { API_KEYS } from './host-checks.js';

describe('hono with the fetch handler (examples/hosts/hono.ts)', () => {
  test('the fetch handler in a hono app answers a create, an invalid pet, a list and a 401 through app.request, with /api in Location and Link', async () => {
    const app = createApp(API_KEYS);
    const created = await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' });
    assert.deepEqual([created.status, created.headers.get('location'), await created.json()], [201, '/api/v1/pets/1', { id: 1, name: 'Rex', categoryId: 1 }]);
    const invalid = await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: '{"name":"Rex"}' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(await invalid.json(), {
      code: 'validation_failed',
      message: 'Cannot create pet: `categoryId` is required',
      status: 400,
      details: [{ field: 'categoryId', message: '`categoryId` is required' }],
    });
    await app.request('/api/v1/pets', { method: 'POST', headers: JSON_POST, body: '{"name":"Tom","categoryId":2}' });
    const page = await app.request('/api/v1/pets?limit=1', { headers: AUTH });
    assert.deepEqual([page.status, page.headers.get('link'), await page.json()], [200, '</api/v1/pets?limit=1&after=1>; rel="next"', [{ id: 1, name: 'Rex', categoryId: 1 }]]);
    const unauthorized = await app.request('/api/v1/pets');
    assert.deepEqual([unauthorized.status, ((await unauthorized.json()) as { code?: unknown }).code], [401, 'unauthorized']);
    assert.equal(await (await app.request('/status')).text(), 'ok');
  });
});
