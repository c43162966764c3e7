import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { createPetstore } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';
import type { InjectResponse } from '../../../server/testing/index.js';
import { API_KEY, AUTH, JSON_POST } from '../../support/http.js';
import { CORS_MAX_AGE } from '../../../server/core/cors.js';
import type { CorsOrigins } from '../../../server/core/cors.js';
import { testPlugin } from '../../support/plugin.js';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const EXPOSED = 'Link, Location, Deprecation, Sunset, WWW-Authenticate, X-Request-Id, ETag, Idempotent-Replayed, Retry-After';
const CORS_HEADERS = ['access-control-allow-origin', 'access-control-expose-headers', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age', 'vary'];

function corsHeadersOf(answer: InjectResponse): Record<string, string> {
  return Object.fromEntries(Object.entries(answer.headers).filter(([name]) => CORS_HEADERS.includes(name)));
}

function optionsWith(corsOrigins?: CorsOrigins): Parameters<typeof createFetchHandler>[0] {
  const options = { store: createPetstore(), apiKeys: [API_KEY], plugins: [testPlugin()] };
  return corsOrigins === undefined ? options : { ...options, corsOrigins };
}

describe('CORS', () => {
  test('a preflight from an allowed origin gets 204 with the route\'s methods, the allowed headers and a max age, without a key', async () => {
    const options = optionsWith([APP, 'http://localhost:5173']);
    const cases: [string, string][] = [['/v1/pets', 'GET, HEAD, POST, OPTIONS'], ['/v1/pets/7', 'GET, HEAD, OPTIONS'], ['/v1/openapi.json', 'GET, HEAD, OPTIONS']];
    for (const [url, allow] of cases) {
      const answer = await inject(options, { method: 'OPTIONS', url, headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
      assert.equal(answer.status, 204, url);
      assert.equal(answer.body, '');
      assert.equal(answer.headers['allow'], allow);
      assert.deepEqual(corsHeadersOf(answer), {
        'access-control-allow-origin': APP,
        'access-control-allow-methods': allow,
        'access-control-allow-headers': 'Authorization, Content-Type, X-Request-Id, If-None-Match, Idempotency-Key',
        'access-control-max-age': String(CORS_MAX_AGE),
        'access-control-expose-headers': EXPOSED,
        vary: 'Origin',
      }, url);
    }
  });

  test('every answer to an allowed origin carries Allow-Origin, Vary and Expose-Headers: successes, errors and 401s', async () => {
    const options = optionsWith([APP]);
    const origin = { origin: APP };
    const answers = [
      await inject(options, { method: 'POST', url: '/v1/pets', headers: { ...JSON_POST, ...origin }, body: '{"name":"Rex","categoryId":1}' }),
      await inject(options, { url: '/v1/pets', headers: { ...AUTH, ...origin } }),
      await inject(options, { url: '/v1/pets/1', headers: { ...AUTH, ...origin } }),
      await inject(options, { url: '/v1/pets/99', headers: { ...AUTH, ...origin } }),
      await inject(options, { url: '/v1/pets', headers: origin }),
      await inject(options, { method: 'DELETE', url: '/v1/pets', headers: { ...AUTH, ...origin } }),
      await inject(options, { url: '/v1/nowhere', headers: { ...AUTH, ...origin } }),
      await inject(options, { method: 'OPTIONS', url: '/v1/pets', headers: origin }),
    ];
    assert.deepEqual(answers.map((answer) => answer.status), [201, 200, 200, 404, 401, 405, 404, 204]);
    for (const answer of answers) {
      assert.deepEqual(corsHeadersOf(answer), { 'access-control-allow-origin': APP, 'access-control-expose-headers': EXPOSED, vary: 'Origin' }, `${answer.status} ${answer.body}`);
    }
  });

  test('a disallowed origin, or none, gets only Vary: Origin and otherwise the same answer as without CORS', async () => {
    const withCors = optionsWith([APP]);
    const without = optionsWith();
    const requests = [
      { method: 'OPTIONS', url: '/v1/pets', headers: { origin: OTHER, 'access-control-request-method': 'POST' } },
      { url: '/v1/pets', headers: { ...AUTH, origin: OTHER } },
      { url: '/v1/pets', headers: { origin: OTHER } },
      { url: '/v1/pets', headers: AUTH },
      { url: '/v1/pets', headers: { ...AUTH, origin: `${APP}/` } },
      { url: '/v1/pets', headers: { ...AUTH, origin: 'null' } },
    ];
    for (const request of requests) {
      const [answer, plain] = [await inject(withCors, request), await inject(without, request)];
      // The same URL answers an allowed origin with CORS headers, so a shared cache must key on Origin here too.
      assert.deepEqual(corsHeadersOf(answer), { vary: 'Origin' }, JSON.stringify(request));
      const { 'x-request-id': id, vary, ...headers } = answer.headers;
      const { 'x-request-id': plainId, ...plainHeaders } = plain.headers;
      assert.ok(id !== undefined && plainId !== undefined);
      assert.deepEqual([answer.status, headers, answer.body], [plain.status, plainHeaders, plain.body]);
    }
  });

  test('corsOrigins \'*\' allows any origin with Access-Control-Allow-Origin: *', async () => {
    const answer = await inject(optionsWith('*'), { url: '/v1/pets', headers: { ...AUTH, origin: OTHER } });
    assert.equal(answer.status, 200);
    assert.deepEqual(corsHeadersOf(answer), { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED, vary: 'Origin' });
    assert.deepEqual(corsHeadersOf(await inject(optionsWith('*'), { url: '/v1/pets', headers: AUTH })), { vary: 'Origin' }, 'no Origin, no CORS headers but Vary');
  });

  test('without corsOrigins no answer carries a CORS header, nor Vary: Origin, and a preflight is a plain OPTIONS', async () => {
    const answer = await inject(optionsWith(), { method: 'OPTIONS', url: '/v1/pets', headers: { origin: APP, 'access-control-request-method': 'POST' } });
    assert.equal(answer.status, 204);
    assert.deepEqual(corsHeadersOf(answer), {});
    assert.deepEqual(corsHeadersOf(await inject(optionsWith(), { url: '/v1/openapi.json', headers: { origin: APP } })), {}, 'a plug-in\'s public route');
  });

  test('createFetchHandler() answers CORS as the core does', async () => {
    const handler = createFetchHandler(optionsWith([APP]));
    const response = await handler(new Request('http://localhost/v1/pets', { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'GET' } }));
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), APP);
    assert.equal(response.headers.get('access-control-allow-methods'), 'GET, HEAD, POST, OPTIONS');
  });

  test('createFetchHandler() refuses corsOrigins that are not origins as browsers send them', () => {
    const refused: unknown[] = [[], ['https://app.example.com/'], ['https://App.example.com'], ['app.example.com'], ['https://app.example.com/path'], ['null'], 'https://app.example.com', [7]];
    for (const corsOrigins of refused) {
      assert.throws(() => createFetchHandler({ ...optionsWith(), corsOrigins: corsOrigins as CorsOrigins }), (error: unknown) => error instanceof TypeError && /^createFetchHandler: .*corsOrigins/.test(error.message), JSON.stringify(corsOrigins));
    }
  });
});
