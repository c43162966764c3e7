import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { API_KEY, AUTH } from '../../support/http.js';
import { KEY_RUN } from '../../../server/core/auth.js';
import { createRequestCore } from '../../../server/core/core.js';
import { NO_BODY } from '../../../server/core/request.js';
import type { CoreRequest } from '../../../server/core/request.js';
import { newRequestId, requestIdOf } from '../../../server/core/request-id.js';
import type { CoreResponse } from '../../../server/core/response.js';
import { probeRoutes, testPlugin } from '../../support/plugin.js';

/** The shape of the ids the core makes: a random prefix of 16 base64url characters, a dash, a base-36 counter. */
const GENERATED = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

function request(method: string, target: string, headers: Record<string, string> = {}): CoreRequest {
  return { method, target, headers: { host: 'localhost', ...headers }, body: NO_BODY, httpVersion: '1.1' };
}

function headerOf(answer: CoreResponse, name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index < answer.headers.length; index += 2) {
    if (answer.headers[index] === name) values.push(answer.headers[index + 1] as string);
  }
  return values;
}

describe('request ids', () => {
  test('requestIdOf() keeps an incoming id of 1 to 64 letters, digits and . _ : - and replaces any other', () => {
    const kept = ['a', 'x'.repeat(64), '3f2504e0-4f89-11d3-9a0c-0305e82c3301', '4bf92f3577b34da6a3ce929d0e0e4736', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'p5GJ1t2VtbRXoqcN-1a', 'svc.web:req_42'];
    for (const id of kept) assert.equal(requestIdOf({ 'x-request-id': id }), id, JSON.stringify(id));
    const replaced = [
      '', 'x'.repeat(65), 'two words', 'tab\there', 'line\nfeed', 'caf\u00e9', '\u007f', 'a, b', '!', '~', 'trace=1;span="2"',
      'Bearer robust-secret-alpha', 'abc/def+ghi==', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    ];
    for (const id of replaced) {
      const answered = requestIdOf({ 'x-request-id': id });
      assert.match(answered, GENERATED, JSON.stringify(id));
    }
    // Node keeps an unknown header sent twice as one joined value, whose ", " makes it invalid.
    assert.match(requestIdOf({ 'x-request-id': ['one', 'two'] }), GENERATED);
    assert.match(requestIdOf({}), GENERATED);
  });

  test('requestIdOf() replaces an id that is the request\'s own bearer token or a part of it, so a key sent in the wrong header is neither echoed nor logged', () => {
    const key = 'robust-secret-alpha-7f3c9e51d2';
    for (const id of [key, key.slice(0, 12), `req-${key}`]) {
      assert.match(requestIdOf({ 'x-request-id': id, authorization: `Bearer ${key}` }), GENERATED, id);
      assert.match(requestIdOf({ 'x-request-id': id, authorization: `bearer   ${key}` }), GENERATED, id);
    }
    assert.equal(requestIdOf({ 'x-request-id': 'req-1', authorization: `Bearer ${key}` }), 'req-1', 'a short id that happens to appear in the token is kept');
    assert.equal(requestIdOf({ 'x-request-id': 'trace-0123456789', authorization: `Bearer ${key}` }), 'trace-0123456789');
  });

  test('createRequestCore() never echoes an incoming id that is any configured key, with no Authorization, a wrong one or another key, for a list and a function of keys', async () => {
    const keys = ['robust-secret-alpha-7f3c9e51d2', 'robust-secret-beta-1d2b8a40c6'];
    const [alpha = '', beta = ''] = keys;
    let asked = 0;
    const sources: [string, readonly string[] | (() => readonly string[])][] = [['a list', keys], ['a function', () => {
      asked++;
      return keys;
    }]];
    for (const [label, apiKeys] of sources) {
      const core = createRequestCore({ store: createPetstore(), apiKeys });
      const carried: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: `Bearer ${alpha}` }, { authorization: `Basic ${alpha}` }, { authorization: 'Bearer' }];
      for (const headers of carried) {
        for (const id of keys) {
          if (headers['authorization'] === `Bearer ${id}`) continue;
          const answer = await core.handle(request('GET', '/v1/pets', { ...headers, 'x-request-id': id }));
          const where = `${label}, ${JSON.stringify(headers)}, id ${id.slice(0, 13)}…`;
          assert.match(answer.requestId, GENERATED, where);
          assert.deepEqual(headerOf(answer, 'X-Request-Id'), [answer.requestId], where);
          assert.match(core.requestIdOf({ ...headers, 'x-request-id': id }), GENERATED, `${where}, answered outside the core`);
        }
      }
      const kept = await core.handle(request('GET', '/v1/pets', { authorization: `Bearer ${beta}`, 'x-request-id': 'trace-0123456789' }));
      assert.deepEqual([kept.status, kept.requestId], [200, 'trace-0123456789'], `${label}: an id that is no key is kept`);
      assert.equal(core.requestIdOf({ 'x-request-id': 'rotated-out-gamma-00000000' }), 'rotated-out-gamma-00000000', `${label}: only the keys in force count`);
    }
    assert.ok(asked > 0, 'the function is asked what the keys are');
  });

  test('createRequestCore() never echoes an id that holds a key beside other text or less a character, or any KEY_RUN of its characters, and keeps one sharing fewer', async () => {
    const alpha = 'robust-secret-alpha-7f3c9e51d2';
    // Every key is longer than KEY_RUN (MIN_API_KEY_LENGTH): the run is KEY_RUN.
    const cases: [readonly string[], string[], string[]][] = [
      [[alpha], [`id:${alpha}`, `${alpha}:1`, alpha.slice(0, -1), alpha.slice(1), `trace-${alpha.slice(9, 9 + KEY_RUN)}-1`], [`trace-${alpha.slice(9, 8 + KEY_RUN)}-1`, 'trace-0123456789']],
    ];
    for (const [keys, holding, kept] of cases) {
      for (const apiKeys of [keys, () => keys]) {
        const core = createRequestCore({ store: createPetstore(), apiKeys });
        for (const id of holding) {
          for (const headers of [{}, { authorization: `Bearer ${alpha}` }, { authorization: 'Bearer wrong-token-0123456789' }]) {
            const answer = await core.handle(request('GET', '/v1/pets', { ...headers, 'x-request-id': id }));
            assert.match(answer.requestId, GENERATED, id);
            assert.deepEqual(headerOf(answer, 'X-Request-Id'), [answer.requestId], id);
            assert.match(core.requestIdOf({ ...headers, 'x-request-id': id }), GENERATED, `${id}, answered outside the core`);
          }
        }
        for (const id of kept) assert.equal(core.requestIdOf({ 'x-request-id': id }), id);
      }
    }
    assert.equal(KEY_RUN, 12);
  });

  test('createRequestCore() with a function of keys asks it per request: a key rotated in is replaced as an id, one rotated out is kept', async () => {
    let keys: readonly string[] = ['robust-secret-alpha-7f3c9e51d2'];
    const core = createRequestCore({ store: createPetstore(), apiKeys: () => keys });
    assert.equal(core.requestIdOf({ 'x-request-id': 'rotated-in-gamma-4a5b6c7d8e' }), 'rotated-in-gamma-4a5b6c7d8e');
    keys = ['rotated-in-gamma-4a5b6c7d8e'];
    assert.match((await core.handle(request('GET', '/v1/pets', { 'x-request-id': 'rotated-in-gamma-4a5b6c7d8e' }))).requestId, GENERATED);
    assert.match(core.requestIdOf({ 'x-request-id': 'id:rotated-in-gamma-4a5b6c7d8' }), GENERATED, 'a key rotated in is caught in part too');
    assert.equal((await core.handle(request('GET', '/v1/pets', { 'x-request-id': 'robust-secret-alpha-7f3c9e51d2' }))).requestId, 'robust-secret-alpha-7f3c9e51d2');
  });

  test('newRequestId() gives a different id each time, all with the prefix of this process', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    assert.equal(new Set(ids).size, ids.length);
    const prefixes = new Set(ids.map((id) => id.slice(0, id.lastIndexOf('-'))));
    assert.equal(prefixes.size, 1);
    for (const id of ids) assert.match(id, GENERATED);
  });

  test('createRequestCore() puts one X-Request-Id on every answer, errors, 401s and OPTIONS included, and names it in requestId', async () => {
    const broken: PetStorage = { insert: () => Promise.reject(new Error('bug')), get: () => Promise.reject(new Error('bug')), list: () => Promise.reject(new Error('bug')) };
    const core = createRequestCore({ store: createPetstore({ storage: broken }), apiKeys: [API_KEY], logError: () => {} });
    const requests = [
      request('GET', '/v1/pets'),
      request('HEAD', '/v1/pets'),
      request('GET', '/v1/pets', { authorization: 'Bearer wrong' }),
      request('GET', '/v1/nowhere', AUTH),
      request('DELETE', '/v1/pets', AUTH),
      request('OPTIONS', '/v1/pets'),
      request('GET', '/v1/openapi.json'),
      request('GET', '/v2'),
      request('GET', '/v1/pets/1', AUTH),
      { ...request('GET', '/v1/pets'), headers: {} },
    ];
    const ids = new Set<string>();
    for (const sent of requests) {
      const answer = await core.handle(sent);
      const label = `${sent.method} ${sent.target} → ${answer.status}`;
      assert.deepEqual(headerOf(answer, 'X-Request-Id'), [answer.requestId], label);
      assert.match(answer.requestId, GENERATED, label);
      ids.add(answer.requestId);
    }
    assert.equal(ids.size, requests.length, 'each answer has an id of its own');
  });

  test('createRequestCore() answers with the id the request sent, when valid', async () => {
    const core = createRequestCore({ store: createPetstore(), apiKeys: [API_KEY] });
    const answer = await core.handle(request('GET', '/v1/pets', { 'x-request-id': 'from-the-proxy-42' }));
    assert.equal(answer.status, 401);
    assert.equal(answer.requestId, 'from-the-proxy-42');
    assert.deepEqual(headerOf(answer, 'X-Request-Id'), ['from-the-proxy-42']);
  });

  test('createRequestCore() names the operation that answered, or none before one was reached', async () => {
    const store = createPetstore();
    await store.createPet({ name: 'Rex', categoryId: 1 });
    const core = createRequestCore({ store, apiKeys: [API_KEY], plugins: [testPlugin()], rootRoutes: probeRoutes({ '/healthz': 'checkHealth', '/readyz': 'checkReadiness', '/metrics': 'getMetrics' }) });
    const cases: [CoreRequest, string | undefined][] = [
      [request('GET', '/v1/pets', AUTH), 'listPets'],
      [request('GET', '/v1/pets?limit=x', AUTH), 'listPets'],
      [request('POST', '/v1/pets', AUTH), 'createPet'],
      [request('GET', '/v1/pets/1', AUTH), 'getPet'],
      [request('GET', '/v1/pets/2', AUTH), 'getPet'],
      [request('GET', '/v1/openapi.json'), 'getOpenApiDescription'],
      [request('GET', '/healthz'), 'checkHealth'],
      [request('GET', '/readyz'), 'checkReadiness'],
      [request('GET', '/v1/pets'), undefined],
      [request('GET', '/v1/nowhere', AUTH), undefined],
      [request('PUT', '/v1/pets', AUTH), undefined],
      [request('OPTIONS', '/v1/pets'), undefined],
      [request('GET', '/metrics'), 'getMetrics'],
    ];
    for (const [sent, operation] of cases) {
      const answer = await core.handle(sent);
      assert.equal(answer.operation, operation, `${sent.method} ${sent.target} → ${answer.status}`);
    }
  });

  test('createRequestCore() keeps the request id on the answer to an operation that throws a PetstoreError', async () => {
    const down: PetStorage = { insert: async () => { throw new PetstoreError('unavailable', 'down'); }, get: async () => undefined, list: async () => [] };
    const core = createRequestCore({ store: createPetstore({ storage: down }), apiKeys: [API_KEY] });
    const answer = await core.handle({ ...request('POST', '/v1/pets', { ...AUTH, 'content-type': 'application/json', 'x-request-id': 'create-1' }), body: { read: (onChunk) => Promise.resolve(void onChunk(new TextEncoder().encode('{"name":"Rex","categoryId":1}'))) } });
    assert.equal(answer.status, 503);
    assert.equal(answer.operation, 'createPet');
    assert.deepEqual(headerOf(answer, 'X-Request-Id'), ['create-1']);
  });
});
