import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRequestCore, errorResponse, NO_BODY } from '../../../server/core/index.js';
import type { CoreRequest, CoreResponse, ExtraRoute, RootRoute } from '../../../server/core/index.js';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import { API_KEY, AUTH } from '../../support/http.js';
import { testPlugin } from '../../support/plugin.js';

function request(method: string, target: string, headers: Record<string, string> = {}): CoreRequest {
  return { method, target, headers: { host: 'localhost', ...headers }, body: NO_BODY, httpVersion: '1.1' };
}

/** The headers of an answer without the request id, which differs between two answers by design. */
function withoutRequestId(answer: CoreResponse): readonly string[] {
  const index = answer.headers.indexOf('X-Request-Id');
  return [...answer.headers.slice(0, index), ...answer.headers.slice(index + 2)];
}

describe('createRequestCore()', () => {
  test('createRequestCore() answers HEAD with the headers GET gets and no body, on every kind of answer', async () => {
    const store = createPetstore();
    await store.createPet({ name: 'Rex', categoryId: 1 });
    const health: RootRoute = { path: '/healthz', operation: 'checkHealth', answer: () => ({ status: 200, headers: ['Content-Length', '2'], body: 'ok' }) };
    const core = createRequestCore({ store, apiKeys: [API_KEY], rootRoutes: [health], plugins: [testPlugin()] });
    const targets: [string, Record<string, string>, number][] = [
      ['/v1/pets', AUTH, 200], ['/v1/pets/1', AUTH, 200], ['/v1/pets/2', AUTH, 404], ['/v1/pets', {}, 401],
      ['/v1/nowhere', AUTH, 404], ['/v1/openapi.json', {}, 200], ['/healthz', {}, 200], ['/elsewhere', {}, 404],
    ];
    for (const [target, headers, status] of targets) {
      const get = await core.handle(request('GET', target, headers));
      const head = await core.handle(request('HEAD', target, headers));
      assert.equal(get.status, status, target);
      assert.ok(get.body.length > 0, `GET ${target} has a body`);
      assert.deepEqual([head.status, head.body, withoutRequestId(head)], [status, '', withoutRequestId(get)], `HEAD ${target}`);
    }
  });

  test('createRequestCore() still serves the names before 4.0.0: the deprecated extraRoutes of a host and of a plug-in, typed ExtraRoute', async () => {
    const old: ExtraRoute = { path: '/old', operation: 'old', answer: () => ({ status: 200, headers: ['Content-Length', '2'], body: 'ok' }) };
    const plugged: ExtraRoute = { ...old, path: '/plugged' };
    const core = createRequestCore({ store: createPetstore(), apiKeys: [API_KEY], extraRoutes: [old], plugins: [() => ({ extraRoutes: [plugged] })] });
    for (const target of ['/old', '/plugged']) assert.equal((await core.handle(request('GET', target))).status, 200, target);
  });

  test('createRequestCore() adds getPet\'s deprecation headers once, to its answers and its errors alike', async () => {
    const store = createPetstore();
    await store.createPet({ name: 'Rex', categoryId: 1 });
    const core = createRequestCore({ store, apiKeys: [API_KEY] });
    for (const target of ['/v1/pets/1', '/v1/pets/2', '/v1/pets/abc']) {
      const answer = await core.handle(request('GET', target, AUTH));
      assert.deepEqual(answer.headers.filter((name) => name === 'Deprecation' || name === 'Sunset'), ['Deprecation', 'Sunset'], target);
    }
  });

  test('createRequestCore() marks the 413 as closing its connection, as data and not as a header, and no other answer', async () => {
    const core = createRequestCore({ store: createPetstore(), apiKeys: [API_KEY], bodyLimit: 10 });
    const tooLarge = await core.handle(request('POST', '/v1/pets', { ...AUTH, 'content-type': 'application/json', 'content-length': '11' }));
    assert.deepEqual([tooLarge.status, tooLarge.closesConnection, tooLarge.headers.includes('Connection')], [413, true, false]);
    for (const answer of [await core.handle(request('GET', '/v1/pets', AUTH)), await core.handle(request('POST', '/v1/pets', { ...AUTH, 'content-type': 'text/plain' }))]) {
      assert.equal(answer.closesConnection, undefined, String(answer.status));
    }
  });

  test('createRequestCore() answers a root route to GET and HEAD without a key or Host, and other methods with a 405', async () => {
    let calls = 0;
    const route: RootRoute = { path: '/probe', operation: 'probe', answer: () => ({ status: 200, headers: ['Content-Length', String(++calls)], body: 'x'.repeat(calls) }) };
    const core = createRequestCore({ store: createPetstore(), apiKeys: [API_KEY], rootRoutes: [route] });
    const hostless: CoreRequest = { method: 'GET', target: '/probe', headers: {}, body: NO_BODY, httpVersion: '1.1' };
    const answer = await core.handle(hostless);
    assert.deepEqual([answer.status, answer.body, answer.operation], [200, 'x', 'probe']);
    const refused = await core.handle(request('POST', '/probe'));
    assert.equal(refused.status, 405);
    assert.deepEqual(JSON.parse(String(refused.body)), { code: 'method_not_allowed', message: 'POST is not allowed here; allowed: GET, HEAD', status: 405 });
    assert.equal(refused.headers[refused.headers.indexOf('Allow') + 1], 'GET, HEAD');
    assert.equal(core.isOwnTarget('/probe?x=1'), true);
    assert.equal(core.isOwnTarget('/elsewhere'), false);
  });

  test('createRequestCore() logs an unexpected failure of a root route once and answers the generic 500', async () => {
    const logged: unknown[] = [];
    const route: RootRoute = { path: '/broken', operation: 'broken', answer: () => Promise.reject(new Error('disk on fire')) };
    const core = createRequestCore({ store: createPetstore(), apiKeys: [API_KEY], rootRoutes: [route], logError: (error) => void logged.push(error) });
    const answer = await core.handle(request('GET', '/broken'));
    assert.equal(answer.status, 500);
    assert.equal(JSON.parse(String(answer.body)).code, 'internal_error');
    assert.equal(logged.length, 1);
  });
});

describe('errorResponse()', () => {
  test('errorResponse() builds the answer without logging or throwing, for any thrown value', () => {
    const original = console.error;
    const printed: unknown[] = [];
    console.error = (...values: unknown[]) => void printed.push(values);
    try {
      for (const error of [new Error('boom'), 'text', undefined, new PetstoreError('unavailable', 'down', { cause: new Error('disk') })]) {
        const answer = errorResponse(error);
        assert.ok(answer.status === 500 || answer.status === 503, String(answer.status));
      }
    } finally {
      console.error = original;
    }
    assert.deepEqual(printed, []);
  });
});
