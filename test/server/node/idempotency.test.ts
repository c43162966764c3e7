import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMemoryStorage, createPetstore } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { AUTH, JSON_POST, assertError, call, parseRawResponses, rawExchange, startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';
import { heldStorage } from '../../support/held-storage.js';

const KEY = '"8e03978e-40d5-43e8-bc93-6894a57f9324"';

describe('POST /v1/pets with Idempotency-Key', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('createPet with a key answers 201; the same key and pet again answers 201 with the same pet and Location, marked Idempotent-Replayed', async () => {
    const headers = { ...JSON_POST, 'idempotency-key': KEY };
    const first = await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Rex","categoryId":7,"status":"available"}' });
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const pet = first.json as { id: number };
    assert.deepEqual(pet, { id: pet.id, name: 'Rex', categoryId: 7, status: 'available' });
    // Another key order and white space are the same request [draft §2.4: the fingerprint is of the parsed pet].
    for (const body of ['{"name":"Rex","categoryId":7,"status":"available"}', '{ "status" : "available", "categoryId": 7.0, "name": "Rex" }']) {
      const again = await call(server, 'POST', '/v1/pets', { headers, body });
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.location, first.headers.location);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.headers['content-type'], 'application/json; charset=utf-8');
    }
    const bare = await call(server, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': KEY.slice(1, -1) }, body: '{"name":"Rex","categoryId":7,"status":"available"}' });
    assert.equal(bare.text, first.text, 'the unquoted key is the same key');
    const listed = await call(server, 'GET', '/v1/pets?limit=100', { headers: AUTH });
    assert.equal((listed.json as { name: string }[]).filter((stored) => stored.name === 'Rex').length, 1);
  });

  test('createPet with a key used for another pet answers 422 idempotency_key_reused and stores nothing', async () => {
    const headers = { ...JSON_POST, 'idempotency-key': '"reused-key"' };
    const first = await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Tom","categoryId":1}' });
    const id = (first.json as { id: number }).id;
    const reused = await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Tom","categoryId":2}' });
    assertError(reused, 422, 'idempotency_key_reused', new RegExp(`already used to create pet ${id} with a different body`));
    assert.equal(reused.headers.location, undefined);
    const listed = await call(server, 'GET', '/v1/pets?limit=100', { headers: AUTH });
    assert.equal((listed.json as { name: string }[]).filter((stored) => stored.name === 'Tom').length, 1);
  });

  test('createPet with an empty, malformed or repeated key answers 400 invalid_idempotency_key', async () => {
    for (const value of ['""', '"open', 'two words', '"a", "b"', `"${'k'.repeat(256)}"`]) {
      const reply = await call(server, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': value }, body: '{"name":"Never","categoryId":1}' });
      assertError(reply, 400, 'invalid_idempotency_key', /^Cannot create pet: `Idempotency-Key` /);
    }
    const twice = 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key-0123456789\r\nContent-Type: application/json\r\n'
      + 'Idempotency-Key: "a"\r\nIdempotency-Key: "a"\r\nContent-Length: 30\r\nConnection: close\r\n\r\n{"name":"Never","categoryId":1}';
    const [response] = parseRawResponses(await rawExchange(server.port, [twice]));
    assert.equal(response?.status, 400);
    assert.match(JSON.parse(response?.body ?? '{}').message, /must be sent once/);
    const listed = await call(server, 'GET', '/v1/pets?limit=100', { headers: AUTH });
    assert.equal((listed.json as { name: string }[]).filter((stored) => stored.name === 'Never').length, 0);
  });

  test('createPet checks the key after auth and before reading the body', async () => {
    const unauthenticated = await call(server, 'POST', '/v1/pets', { headers: { 'content-type': 'application/json', 'idempotency-key': '""' }, body: '{}' });
    assert.equal(unauthenticated.status, 401);
    // The head promises a body that never comes: only a check made before reading it can answer.
    const head = 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key-0123456789\r\nContent-Type: text/plain\r\n'
      + 'Idempotency-Key: ""\r\nContent-Length: 100\r\n\r\n';
    const [response] = parseRawResponses(await rawExchange(server.port, [head], { until: /"status":400}/ }));
    assert.equal(response?.status, 400);
    assert.equal(JSON.parse(response?.body ?? '{}').code, 'invalid_idempotency_key', 'the key is checked before the media type too');
  });

  test('createPet without a key answers as before: no replay mark, and two identical creates store two pets', async () => {
    const body = '{"name":"Twin","categoryId":1}';
    const first = await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body });
    const second = await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body });
    assert.deepEqual([first.status, second.status], [201, 201]);
    assert.notEqual(first.headers.location, second.headers.location);
    assert.equal(second.headers['idempotent-replayed'], undefined);
  });
});

describe('POST /v1/pets with Idempotency-Key in flight and on other storages', () => {
  test('createPet with a key whose first create is still in flight answers 409 idempotency_key_in_use with Retry-After, then replays', async () => {
    const { storage, release, entered } = heldStorage();
    const server = await startTestServer({ store: createPetstore({ storage }) });
    try {
      const headers = { ...JSON_POST, 'idempotency-key': '"slow"' };
      const first = call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Slow","categoryId":1}' });
      await entered;
      const conflict = await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Slow","categoryId":1}' });
      assertError(conflict, 409, 'idempotency_key_in_use', /still in progress; repeat the request after 1 second/);
      assert.equal(conflict.headers['retry-after'], '1');
      release();
      const created = await first;
      assert.equal(created.status, 201);
      const replay = await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Slow","categoryId":1}' });
      assert.equal(replay.text, created.text);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
    } finally {
      release();
      await server.close();
    }
  });

  test('createPet sent many times at once with one key stores one pet: every answer is that pet or a 409', async () => {
    const server = await startTestServer();
    try {
      const headers = { ...JSON_POST, 'idempotency-key': '"burst"' };
      const replies = await Promise.all(Array.from({ length: 12 }, () => call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Burst","categoryId":1}' })));
      const created = replies.filter((reply) => reply.status === 201);
      assert.ok(created.length >= 1);
      assert.equal(new Set(created.map((reply) => reply.text)).size, 1);
      for (const reply of replies.filter((other) => other.status !== 201)) assertError(reply, 409, 'idempotency_key_in_use');
      const listed = await call(server, 'GET', '/v1/pets?limit=100', { headers: AUTH });
      assert.equal((listed.json as unknown[]).length, 1);
    } finally {
      await server.close();
    }
  });

  test('createPet with a key on a storage without insertOnce answers 501 idempotency_unsupported; without a key it creates', async () => {
    const inner = createMemoryStorage();
    const storage: PetStorage = { insert: (pet) => inner.insert(pet), get: (id) => inner.get(id), list: (query) => inner.list(query) };
    const server = await startTestServer({ store: createPetstore({ storage }) });
    try {
      const refused = await call(server, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': KEY }, body: '{"name":"Rex","categoryId":1}' });
      assertError(refused, 501, 'idempotency_unsupported', /send the create without an idempotency key/);
      const created = await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' });
      assert.equal(created.status, 201);
    } finally {
      await server.close();
    }
  });
});
