import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Hapi from '@hapi/hapi';
import type { Server } from '@hapi/hapi';
import { createApp } from '../../examples/hosts/hapi.js';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { closingAfter } from '../support/closing.js';
import { AUTH, call, JSON_POST } from '../support/http.js';
import { API_KEYS, assertHostParserError, assertSameAsBare, PARSED_CASES, REFUSED_CASES } from './host-checks.js';
import type { RunningHost } from './host-checks.js';

/** Starts a hapi server (already bound to 127.0.0.1, port 0). */
async function start(server: Server): Promise<RunningHost> {
  await server.start();
  return { origin: server.info.uri, close: () => server.stop() };
}

// A guard, not a measure: a handler waiting on a body its host already read would otherwise hang the run.
describe('hapi 21 hosts (examples/hosts/hapi.ts)', { timeout: 60_000 }, () => {
  test('hapi 21 with the handler in a catch-all route that leaves the body unread answers every create, a list and a 401 as the bare handler does, and serves its own routes', async () => {
    await closingAfter(start(createApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      assert.equal((await call(host, 'GET', '/status')).text, 'ok');
      assert.equal((await call(host, 'GET', '/elsewhere')).status, 404);
    });
  });

  test('hapi 21 with the handler in an onRequest extension answers every create, a list and a 401 as the bare handler does', async () => {
    const handler = createHandler({ store: createPetstore(), apiKeys: API_KEYS });
    const server = Hapi.server({ port: 0, host: '127.0.0.1' });
    server.ext('onRequest', (request, h) => {
      let isElsewhere = false;
      handler(request.raw.req, request.raw.res, () => void (isElsewhere = true));
      return isElsewhere ? h.continue : h.abandon;
    });
    await closingAfter(start(server), (host) => assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]));
  });

  test('hapi 21 with the handler in a route that parses the payload answers a create at once with a 500 that names the cause and hapi\'s fix, and logs it', async () => {
    const logged: unknown[] = [];
    const handler = createHandler({ store: createPetstore(), apiKeys: API_KEYS, logError: (error) => logged.push(error) });
    const server = Hapi.server({ port: 0, host: '127.0.0.1' });
    server.route({ method: '*', path: '/v1/{path*}', handler: (request, h) => (handler(request.raw.req, request.raw.res), h.abandon) });
    await closingAfter(start(server), async (host) => {
      const reply = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' });
      assertHostParserError(reply, /nothing in `request.body`.*hapi: a route with `payload: \{ parse: false, output: 'stream' \}`/);
      assert.equal((await call(host, 'GET', '/v1/pets', { headers: AUTH })).text, '[]');
    });
    assert.equal(logged.length, 1);
  });
});
