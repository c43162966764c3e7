import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../examples/hosts/hono.js';
import { serve } from '../../examples/hosts/hono-node.js';
import { call } from '../support/http.js';
import { API_KEYS, assertSameAsBare, hostOf, PARSED_CASES, REFUSED_CASES } from './host-checks.js';

// A guard, not a measure: a bridge that never ends a response would otherwise hang the run.
describe('hono on Node (examples/hosts/hono-node.ts)', { timeout: 60_000 }, () => {
  test('a hono app served by node:http through Request and Response answers every create, a list and a 401 as the bare handler does, with /api in Location and Link', async () => {
    const host = hostOf(await serve(createApp(API_KEYS).fetch, 0));
    try {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES], '/api');
      assert.equal((await call(host, 'GET', '/status')).text, 'ok');
      assert.equal((await call(host, 'GET', '/elsewhere')).status, 404);
    } finally {
      await host.close();
    }
  });
});
