import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import express from 'express';
import type { RequestHandler } from 'express';
import { createApp as createPlainApp } from '../../examples/hosts/express.js';
import { createApp as createJsonApp } from '../../examples/hosts/express-json.js';
import { createApp as createPrefixApp } from '../../examples/hosts/express-prefix.js';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { closingAfter } from '../support/closing.js';
import { call, JSON_POST } from '../support/http.js';
import { API_KEYS, assertHostParserError, assertSameAsBare, listen, PARSED_CASES, REFUSED_CASES } from './host-checks.js';

const REX = '{"name":"Rex","categoryId":1}';

/** An Express app with `middleware` before the handler, whose errors are kept in `logged`. */
function appBehind(middleware: RequestHandler, logged: unknown[]): express.Express {
  const app = express();
  app.use(middleware);
  app.use(createHandler({ store: createPetstore(), apiKeys: API_KEYS, logError: (error) => logged.push(error) }));
  return app;
}

// A guard, not a measure: a handler waiting on a body its host already read would otherwise hang the run.
describe('Express 5 hosts (examples/hosts/express*.ts)', { timeout: 60_000 }, () => {
  test('Express 5 with the handler before its JSON parser answers every create, a list and a 401 as the bare handler does, JSON it cannot parse included', async () => {
    await closingAfter(listen(createPlainApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      assert.equal((await call(host, 'GET', '/status')).text, 'ok');
      const order = await call(host, 'POST', '/orders', { headers: { 'content-type': 'application/json' }, body: '{"item":1}' });
      assert.deepEqual([order.status, order.json], [201, { item: 1 }]);
    });
  });

  test('Express 5 behind express.json() answers every create it parses, a list and a 401 as the bare handler does, at once', async () => {
    await closingAfter(listen(createJsonApp(API_KEYS)), (host) => assertSameAsBare(host, PARSED_CASES));
  });

  test('Express 5 behind express.json() leaves JSON it cannot parse to Express, which answers its own 400 before the handler runs', async () => {
    await closingAfter(listen(createJsonApp(API_KEYS)), async (host) => {
      for (const refused of REFUSED_CASES) {
        const reply = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: refused.body });
        assert.equal(reply.status, 400, refused.name);
        assert.match(reply.headers['content-type'] ?? '', /^text\/html/, refused.name);
      }
    });
  });

  test('Express 5 under /api answers as the bare handler does, with /api in Location and Link', async () => {
    await closingAfter(listen(createPrefixApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES], '/api');
      assert.equal((await call(host, 'GET', '/v1/pets')).status, 404);
    });
  });

  test('Express 5 behind express.raw() for JSON hands the handler the bytes, answered as the bare handler does', async () => {
    const logged: unknown[] = [];
    await closingAfter(listen(appBehind(express.raw({ type: 'application/json' }), logged)), (host) => assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]));
    assert.deepEqual(logged, []);
  });

  test('Express 5 behind express.text() for JSON answers a create at once with a 500 that names the cause and the fix, and logs it', async () => {
    const logged: unknown[] = [];
    await closingAfter(listen(appBehind(express.text({ type: 'application/json' }), logged)), async (host) => {
      assertHostParserError(await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: REX }), /text in `request.body`, not parsed JSON/);
    });
    assert.equal(logged.length, 1);
  });

  test('Express 5 behind a middleware that reads the body and keeps it answers a create at once with a 500 that names the cause and the fix, and logs it', async () => {
    const logged: unknown[] = [];
    const swallow: RequestHandler = (request, _response, next) => void request.on('data', () => undefined).on('end', () => next());
    await closingAfter(listen(appBehind(swallow, logged)), async (host) => {
      assertHostParserError(await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: REX }), /nothing in `request.body`/);
      // Refused on its head, the request gets the answer it gets everywhere.
      assert.equal((await call(host, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'content-type': 'text/plain' }, body: REX })).status, 415);
      assert.equal((await call(host, 'GET', '/v1/pets', { headers: JSON_POST })).status, 200);
    });
    assert.equal(logged.length, 1);
  });
});
