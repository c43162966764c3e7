import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { createApp, createAppBehindParser, petstoreMiddleware } from '../../examples/hosts/koa.js';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { closingAfter } from '../support/closing.js';
import { AUTH, call, JSON_POST } from '../support/http.js';
import { API_KEYS, assertHostParserError, assertSameAsBare, listen, PARSED_CASES, REFUSED_CASES } from './host-checks.js';
import type { CreateCase } from './host-checks.js';

const REX = '{"name":"Rex","categoryId":1}';

/** co-body, under @koa/bodyparser, refuses a `__proto__` field itself, as it does JSON it cannot parse. */
const isProtoCase = (create: CreateCase): boolean => create.name === 'a __proto__ field';
const KOA_PARSED = PARSED_CASES.filter((create) => !isProtoCase(create));
const KOA_REFUSED = [...PARSED_CASES.filter(isProtoCase), ...REFUSED_CASES.slice(0, 2)];

/** A create with an empty chunked body (`Transfer-Encoding: chunked`, no chunk), which co-body reads as `{}`. */
function postEmptyChunked(origin: string): Promise<{ status: number | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...JSON_POST, 'transfer-encoding': 'chunked' };
    request(`${origin}/v1/pets`, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode, text }));
    }).on('error', reject).end();
  });
}

/** A Koa app with @koa/bodyparser before the handler, whose errors are kept in `logged`. */
function appBehindParser(options: { patchNode: boolean }, logged: unknown[]): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(bodyParser(options));
  app.use(petstoreMiddleware(createHandler({ store: createPetstore(), apiKeys: API_KEYS, logError: (error) => logged.push(error) })));
  return app;
}

// A guard, not a measure: a handler waiting on a body its host already read would otherwise hang the run.
describe('Koa 3 hosts (examples/hosts/koa.ts)', { timeout: 60_000 }, () => {
  test('Koa 3 with the handler before @koa/bodyparser answers every create, a list and a 401 as the bare handler does, and hands other paths on', async () => {
    await closingAfter(listen(createApp(API_KEYS).callback()), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      const order = await call(host, 'POST', '/orders', { headers: { 'content-type': 'application/json' }, body: '{"item":1}' });
      assert.deepEqual([order.status, order.json], [201, { item: 1 }]);
      assert.deepEqual([(await call(host, 'GET', '/elsewhere')).status, (await call(host, 'GET', '/elsewhere')).text], [404, 'Not Found']);
    });
  });

  test('Koa 3 behind bodyParser({ patchNode: true }) answers every create it parses, a list and a 401 as the bare handler does, at once', async () => {
    const logged: unknown[] = [];
    await closingAfter(listen(appBehindParser({ patchNode: true }, logged).callback()), (host) => assertSameAsBare(host, KOA_PARSED));
    assert.deepEqual(logged, []);
  });

  test('Koa 3 behind bodyParser({ patchNode: true }) leaves JSON it cannot parse, and a `__proto__` field, to @koa/bodyparser, which answers its own 400 before the handler runs', async () => {
    await closingAfter(listen(appBehindParser({ patchNode: true }, []).callback()), async (host) => {
      for (const refused of KOA_REFUSED) {
        const reply = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: refused.body });
        assert.deepEqual([reply.status, reply.headers['content-type']], [400, 'text/plain; charset=utf-8'], refused.name);
      }
    });
  });

  test('Koa 3 behind bodyParser({ patchNode: true }) with koaParserErrors() answers every create, JSON the parser refuses and an empty chunked body included, a list and a 401 as the bare handler does', async () => {
    const app = createAppBehindParser(API_KEYS);
    // Koa would print the error of the app's own route that it answers itself.
    app.silent = true;
    await closingAfter(listen(app.callback()), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      const empty = await postEmptyChunked(host.origin);
      assert.deepEqual([empty.status, JSON.parse(empty.text)], [400, { code: 'invalid_json', message: 'Cannot create pet: the body is empty; send a JSON object', status: 400 }]);
      assert.deepEqual([(await call(host, 'POST', '/elsewhere', { headers: JSON_POST, body: '{"a":' })).status], [400]);
    });
  });

  test('Koa 3 behind bodyParser({ patchNode: true }) takes the bytes it keeps: an empty chunked body is invalid_json, as the bare handler answers it', async () => {
    await closingAfter(listen(appBehindParser({ patchNode: true }, []).callback()), async (host) => {
      const empty = await postEmptyChunked(host.origin);
      assert.deepEqual([empty.status, (JSON.parse(empty.text) as { code?: unknown }).code], [400, 'invalid_json']);
    });
  });

  test('Koa 3 behind bodyParser() without patchNode answers a create at once with a 500 that names the cause and the fix, and logs it', async () => {
    const logged: unknown[] = [];
    await closingAfter(listen(appBehindParser({ patchNode: false }, logged).callback()), async (host) => {
      assertHostParserError(await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: REX }), /nothing in `request.body`.*`bodyParser\(\{ patchNode: true \}\)`/);
      assert.equal((await call(host, 'GET', '/v1/pets', { headers: AUTH })).text, '[]');
    });
    assert.equal(logged.length, 1);
  });

  test('Koa 3 without context.respond = false answers every request with its own 404, while creates still store pets: the middleware must set it', async () => {
    const store = createPetstore();
    const handler = createHandler({ store, apiKeys: API_KEYS });
    const app = new Koa();
    app.silent = true;
    app.use(async (context, next) => {
      let isElsewhere = false;
      handler(context.req, context.res, () => {
        isElsewhere = true;
      });
      if (isElsewhere) await next();
    });
    await closingAfter(listen(app.callback()), async (host) => {
      const created = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: REX });
      assert.deepEqual([created.status, created.text], [404, 'Not Found']);
      assert.deepEqual([(await call(host, 'GET', '/v1/pets', { headers: AUTH })).status], [404]);
    });
    assert.deepEqual(await store.listPets(), [{ id: 1, name: 'Rex', categoryId: 1 }]);
  });
});
