import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import { createHandler, koaParserErrors, parserErrorHandler } from '../../../server/node/index.js';
import { listen } from '../../hosts/host-checks.js';
import { AUTH, call, JSON_POST } from '../../support/http.js';
import type { Reply } from '../../support/http.js';

const REX = '{"name":"Rex","categoryId":1}';

/** What a body parser leaves on a request it read: the value `parse` makes of the bytes, or no `body` at all. */
type Parse = ((bytes: Buffer) => unknown) | undefined;

/** A request as a body parser leaves it: `body` set, or absent. */
interface ParsedRequest extends IncomingMessage {
  body?: unknown;
}

/**
 * Sends `body` to a `node:http` host whose middleware reads every request body to its end before
 * the handler, leaving what `parse` makes of it in `request.body`; the answer and what was logged.
 */
async function behindParser(parse: Parse, body: string, headers: Record<string, string> = JSON_POST): Promise<{ reply: Reply; logged: unknown[] }> {
  const logged: unknown[] = [];
  const handler = createHandler({ store: createPetstore(), apiKeys: ['test-key-0123456789'], logError: (error) => logged.push(error) });
  const host = await listen((request: ParsedRequest, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      if (parse !== undefined) request.body = parse(Buffer.concat(chunks));
      handler(request, response);
    });
  });
  try {
    return { reply: await call(host, 'POST', '/v1/pets', { headers, body }), logged };
  } finally {
    await host.close();
  }
}

const asJson: Parse = (bytes) => (bytes.length === 0 ? {} : JSON.parse(bytes.toString('utf8')));

// A guard, not a measure: a handler waiting on a body its host already read would otherwise hang the run.
describe('createHandler() behind a host that read the body first', { timeout: 60_000 }, () => {
  test('createHandler() takes the JSON a parser left in request.body: a valid pet is a 201, an invalid one the 400 a read body gets', async () => {
    const created = await behindParser(asJson, REX);
    assert.deepEqual([created.reply.status, created.reply.json], [201, { id: 1, name: 'Rex', categoryId: 1 }]);
    const invalid = await behindParser(asJson, '{"name":"Rex"}');
    assert.equal(invalid.reply.status, 400);
    assert.equal((invalid.reply.json as { code?: unknown }).code, 'validation_failed');
    assert.deepEqual([...created.logged, ...invalid.logged], []);
  });

  test('createHandler() answers a declared empty body as empty, whatever a parser made of it', async () => {
    const { reply } = await behindParser(asJson, '');
    assert.equal(reply.status, 400);
    assert.equal((reply.json as { message?: unknown }).message, 'Cannot create pet: the body is empty; send a JSON object');
  });

  test('createHandler() reads bytes a raw parser left in request.body as the body', async () => {
    const { reply } = await behindParser((bytes) => bytes, '{"name":"Rex",');
    assert.equal(reply.status, 400);
    assert.equal((reply.json as { code?: unknown }).code, 'invalid_json');
    assert.equal((await behindParser((bytes) => bytes, REX)).reply.status, 201);
  });

  for (const [left, parse, message] of [
    ['nothing', undefined, /which left nothing in `request.body`: mount the Petstore handler before the body parser/],
    ['text', (bytes: Buffer) => bytes.toString('utf8'), /which left text in `request.body`, not parsed JSON: mount the Petstore handler before the body parser/],
  ] as const) {
    test(`createHandler() answers a body read and left as ${left} at once with a 500 that names the cause and the fix, and logs it`, async () => {
      const { reply, logged } = await behindParser(parse, REX);
      assert.equal(reply.status, 500);
      assert.equal((reply.json as { code?: unknown }).code, 'internal_error');
      assert.match(String((reply.json as { message?: unknown }).message), message);
      assert.equal(logged.length, 1);
    });
  }

  test('createHandler() reads the bytes a parser kept in request.rawBody, as a Buffer or as text, before what it parsed', async () => {
    for (const keep of [(bytes: Buffer) => bytes, (bytes: Buffer) => bytes.toString('utf8')]) {
      const logged: unknown[] = [];
      const handler = createHandler({ store: createPetstore(), apiKeys: ['test-key-0123456789'], logError: (error) => logged.push(error) });
      const host = await listen((request: ParsedRequest, response: ServerResponse) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
          Reflect.set(request, 'rawBody', keep(Buffer.concat(chunks)));
          request.body = {};
          handler(request, response);
        });
      });
      try {
        const reply = await call(host, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'transfer-encoding': 'chunked' }, body: '' });
        assert.deepEqual([reply.status, (reply.json as { code?: unknown }).code], [400, 'invalid_json']);
        assert.equal((await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: REX })).status, 201);
      } finally {
        await host.close();
      }
      assert.deepEqual(logged, []);
    }
  });

  test('parserErrorHandler() and koaParserErrors() hand on an error that is no parser\'s refusal of a body, untouched', async () => {
    const handler = createHandler({ store: createPetstore(), apiKeys: ['test-key-0123456789'] });
    const host = await listen((request, response) => {
      const passed: unknown[] = [];
      for (const error of [null, 'text', new Error('other'), Object.assign(new Error('big'), { type: 'entity.too.large' })]) parserErrorHandler(handler)(error, request, response, (next) => passed.push(next));
      response.end(String(passed.length));
    });
    try {
      assert.equal((await call(host, 'GET', '/v1/pets')).text, '4');
    } finally {
      await host.close();
    }
    const other = new Error('other');
    const context = { req: {} as IncomingMessage, res: {} as ServerResponse };
    await assert.rejects(koaParserErrors(handler)(context, () => Promise.reject(other)), (error) => error === other);
    assert.equal(await koaParserErrors(handler)(context, () => Promise.resolve()), undefined);
  });

  test('createHandler() still answers a body refused on its head as it always does, read or not', async () => {
    const { reply, logged } = await behindParser(undefined, REX, { ...AUTH, 'content-type': 'text/plain' });
    assert.equal(reply.status, 415);
    assert.deepEqual(logged, []);
  });
});
