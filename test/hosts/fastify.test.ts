import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import middie from '@fastify/middie';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../examples/hosts/fastify.js';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { AUTH, call, JSON_POST } from '../support/http.js';
import { API_KEYS, assertHostParserError, assertSameAsBare, hostOf, PARSED_CASES, REFUSED_CASES } from './host-checks.js';
import type { RunningHost } from './host-checks.js';

/** Starts a Fastify app on 127.0.0.1, port 0. */
async function start(app: FastifyInstance): Promise<RunningHost> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const host = hostOf(app.server);
  return { origin: host.origin, close: () => app.close() };
}

async function withHost(app: Promise<FastifyInstance>, check: (host: RunningHost) => Promise<void>): Promise<void> {
  const running = await start(await app);
  try {
    await check(running);
  } finally {
    await running.close();
  }
}

// A guard, not a measure: a handler waiting on a body its host already read would otherwise hang the run.
describe('Fastify 5 hosts (examples/hosts/fastify.ts)', { timeout: 60_000 }, () => {
  test('Fastify 5 with the handler through @fastify/middie answers every create, a list and a 401 as the bare handler does, and hands other paths on', async () => {
    await withHost(createApp(API_KEYS), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      const order = await call(host, 'POST', '/orders', { headers: { 'content-type': 'application/json' }, body: '{"item":1}' });
      assert.deepEqual([order.status, order.json], [201, { item: 1 }]);
      assert.equal((await call(host, 'GET', '/elsewhere')).status, 404);
    });
  });

  test('Fastify 5 with the handler through @fastify/middie under /api answers as the bare handler does, with /api in Location and Link', async () => {
    const app = Fastify();
    await app.register(middie);
    app.use('/api', createHandler({ store: createPetstore(), apiKeys: API_KEYS }));
    await withHost(Promise.resolve(app), (host) => assertSameAsBare(host, PARSED_CASES, '/api'));
  });

  test('Fastify 5 with the handler in a route (reply.hijack()) gets a body Fastify already parsed and kept: a create is a 500 at once that names the cause and the fix', async () => {
    const logged: unknown[] = [];
    const handler = createHandler({ store: createPetstore(), apiKeys: API_KEYS, logError: (error) => logged.push(error) });
    const app = Fastify();
    app.all('/v1/*', (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw);
    });
    await withHost(Promise.resolve(app), async (host) => {
      assertHostParserError(await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' }), /nothing in `request.body`/);
      assert.equal((await call(host, 'GET', '/v1/pets', { headers: AUTH })).text, '[]');
    });
    assert.equal(logged.length, 1);
  });
});
