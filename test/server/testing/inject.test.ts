import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { createPetstore } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';
import { API_KEY, AUTH, JSON_POST } from '../../support/http.js';
import { testPlugin } from '../../support/plugin.js';


const REX = '{"name":"Rex","categoryId":1,"status":"available"}';

describe('inject()', () => {
  test('inject() with handler options answers createPet, listPets and getPet from the options\' store', async () => {
    const options = { store: createPetstore(), apiKeys: [API_KEY] };
    const created = await inject(options, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: REX });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['location'], '/v1/pets/1');
    assert.deepEqual(created.json(), { id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    const listed = await inject(options, { url: '/v1/pets', headers: AUTH });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json(), [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    const fetched = await inject(options, { url: '/v1/pets/1', headers: AUTH });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers['deprecation'], '@1767225600');
    assert.equal(fetched.body, '{"id":1,"name":"Rex","categoryId":1,"status":"available"}');
    assert.deepEqual(await options.store.listPets({}), [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
  });

  test('inject() with a fetch handler answers as the handler does, its headers keyed by lower-case name', async () => {
    const store = createPetstore();
    const handler = createFetchHandler({ store, apiKeys: [API_KEY] });
    const created = await inject(handler, { method: 'POST', url: '/v1/pets', headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' }, body: REX });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['location'], '/v1/pets/1');
    assert.deepEqual(created.json(), { id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    assert.ok(Object.keys(created.headers).every((name) => name === name.toLowerCase()), Object.keys(created.headers).join());
    assert.equal((await store.getPet(1)).name, 'Rex');
    const refused = await inject(handler, { url: '/v1/pets' });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['www-authenticate'], 'Bearer realm="petstore"');
    assert.deepEqual(refused.json(), { code: 'unauthorized', message: 'Send the API key as `Authorization: Bearer <API_KEY>`', status: 401 });
  });

  test('inject() takes request header names in any case and bodies as bytes, with handler options', async () => {
    const options = { store: createPetstore(), apiKeys: [API_KEY] };
    const answer = await inject(options, {
      method: 'POST',
      url: '/v1/pets',
      headers: { AUTHORIZATION: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
      body: new TextEncoder().encode('{"name":"Tom","categoryId":2}'),
    });
    assert.equal(answer.status, 201, answer.body);
    assert.deepEqual(answer.json(), { id: 1, name: 'Tom', categoryId: 2 });
  });

  for (const [door, makeTarget] of [
    ['handler options', () => ({ store: createPetstore(), apiKeys: [API_KEY], plugins: [testPlugin()] })],
    ['a fetch handler', () => createFetchHandler({ store: createPetstore(), apiKeys: [API_KEY], plugins: [testPlugin()] })],
  ] as const) {
    test(`inject() with ${door} serves an absolute URL and answers HEAD with the headers and no body`, async () => {
      const target = makeTarget();
      const answer = await inject(target, { method: 'HEAD', url: 'http://petstore.test/v1/openapi.json' });
      assert.equal(answer.status, 200);
      assert.equal(answer.body, '');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      const document = await inject(target, { url: 'http://petstore.test/v1/openapi.json' });
      assert.equal(answer.headers['content-length'], String(Buffer.byteLength(document.body)));
      assert.equal((document.json() as { openapi: string }).openapi, '3.1.0');
    });
  }
});
