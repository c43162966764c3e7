import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import express from 'express';
import type { RequestHandler } from 'express';
import { createApp as createPlainApp } from '../../examples/hosts/express.js';
import { createApp as createJsonApp } from '../../examples/hosts/express-json.js';
import { createApp as createPrefixApp } from '../../examples/hosts/express-prefix.js';
import { createPetstore } from '../../lib/index.js';
import { createHandler, parserErrorHandler } from '../../server/node/index.js';
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

  test('Express 5 behind express.json() with parserErrorHandler() answers JSON the parser refuses as the bare handler does, and leaves other errors to Express', async () => {
    await closingAfter(listen(createJsonApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES, { name: 'a body over every limit', body: `{"name":"${'x'.repeat(150_000)}"}` }]);
      // A content coding the parser does not know: its 415 becomes the interface's.
      const coded = await call(host, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'content-encoding': 'compress' }, body: REX });
      assert.deepEqual([coded.status, (coded.json as { code?: unknown }).code], [415, 'unsupported_media_type']);
      // A refused body on a route of the app's own stays Express's to answer.
      const order = await call(host, 'POST', '/orders', { headers: { 'content-type': 'application/json' }, body: '{"item":' });
      assert.deepEqual([order.status, order.headers['content-type']?.startsWith('text/html')], [400, true]);
    });
  });

  test('Express 5 behind express.json() with a chunked body over the parser\'s limit answers the bare handler\'s 413', async () => {
    await closingAfter(listen(createJsonApp(API_KEYS)), async (host) => {
      const chunks = Readable.from([Buffer.from('{"name":"'), Buffer.alloc(120_000, 0x78), Buffer.from('"}')]);
      const reply = await fetch(`${host.origin}/v1/pets`, { method: 'POST', headers: JSON_POST, body: chunks, duplex: 'half' } as RequestInit);
      assert.deepEqual([reply.status, await reply.json()], [413, { code: 'payload_too_large', message: 'Cannot create pet: the body must be at most 65536 bytes', status: 413 }]);
    });
  });

  test('Express 5 behind express.json() with a limit under bodyLimit answers a body between the two with a 400 invalid_json, as docs/embedding.md says', async () => {
    const petstore = createHandler({ store: createPetstore(), apiKeys: API_KEYS });
    const app = express();
    app.use(express.json({ limit: 1_000 }));
    app.use(petstore);
    app.use(parserErrorHandler(petstore));
    await closingAfter(listen(app), async (host) => {
      const reply = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: `{"name":"${'x'.repeat(2_000)}"}` });
      assert.deepEqual([reply.status, (reply.json as { code?: unknown }).code], [400, 'invalid_json']);
    });
  });

  test('Express 5 behind express.json({ strict: false }) answers a JSON string, number, array or null as the bare handler does, not a 500', async () => {
    const logged: unknown[] = [];
    const values = ['"Rex"', '"{\\"name\\":\\"Rex\\",\\"categoryId\\":1}"', '7', 'null', 'true', '[]'].map((body) => ({ name: body, body }));
    await closingAfter(listen(appBehind(express.json({ strict: false }), logged)), (host) => assertSameAsBare(host, [...PARSED_CASES, ...values]));
    assert.deepEqual(logged, []);
  });

  test('Express 5 behind express.json() and an error handler that swallows its error answers JSON it cannot parse with a 400 invalid_json, not a 500', async () => {
    const logged: unknown[] = [];
    const app = express();
    app.use(express.json());
    app.use(((_error, _request, _response, next) => next()) as express.ErrorRequestHandler);
    app.use(createHandler({ store: createPetstore(), apiKeys: API_KEYS, logError: (error) => logged.push(error) }));
    await closingAfter(listen(app), async (host) => {
      for (const refused of REFUSED_CASES) {
        const reply = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: refused.body });
        assert.deepEqual([reply.status, reply.json], [400, {
          code: 'invalid_json',
          message: 'The request body is not valid JSON: the body parser in front of the Petstore handler could not parse it; send a JSON object',
          status: 400,
        }], refused.name);
      }
      assert.equal((await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: REX })).status, 201);
    });
    assert.deepEqual(logged, []);
  });

  test('Express 5 under /api answers as the bare handler does, with /api in Location and Link', async () => {
    await closingAfter(listen(createPrefixApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES], '/api');
      assert.equal((await call(host, 'GET', '/v1/pets')).status, 404);
    });
  });

  test('Express 5 with the handler mounted at its own base path (app.use(\'/v1\', handler)) serves the original URL, as the bare handler does', async () => {
    const app = express();
    app.use('/v1', createHandler({ store: createPetstore(), apiKeys: API_KEYS }));
    await closingAfter(listen(app), (host) => assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]));
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
