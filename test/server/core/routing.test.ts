import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import { AUTH, JSON_POST, assertError } from '../../support/http.js';
import { call, createTestCore } from '../../support/inject.js';
import type { TestCore } from '../../support/inject.js';
import { failingStorage } from '../../support/failing-storage.js';

describe('routing', () => {
  let core: TestCore;
  before(async () => {
    core = createTestCore();
  });

  test('an unknown path below /v1 is a 404 after auth', async () => {
    for (const path of ['/v1', '/v1/', '/v1/pets/', '/v1/pets/1/owner', '/v1/pet', '/v1/PETS', '/v1/%70ets', '/v1//pets', '/v1/store/orders']) {
      assertError(await call(core, 'GET', path, { headers: AUTH }), 404, 'not_found');
      assertError(await call(core, 'GET', path), 401, 'unauthorized');
    }
  });

  test('a path outside the base path is a 404 without auth', async () => {
    // `/` is not among them: the standalone server sends it to the reference page (test/extras/docs-site/served-reference-page.test.ts).
    for (const path of ['/pets', '/v2/pets', '/v10/pets', '/favicon.ico', '/docs']) {
      assertError(await call(core, 'GET', path), 404, 'not_found', /the API lives under \/v1/);
    }
  });

  test('a known path with another method is a 405 with Allow', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
      ['PUT', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
      ['PATCH', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
      ['POST', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/v1/pets/abc', 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await call(core, method, path, { headers: AUTH });
      assertError(reply, 405, 'method_not_allowed', new RegExp(`^${method} is not allowed`));
      assert.equal(reply.headers['allow'], allow);
    }
  });

  test('OPTIONS on a known path is a 204 with Allow, without a key', async () => {
    for (const [path, allow] of [['/v1/pets', 'GET, HEAD, POST, OPTIONS'], ['/v1/pets/12', 'GET, HEAD, OPTIONS']] as const) {
      const reply = await call(core, 'OPTIONS', path);
      assert.equal(reply.status, 204);
      assert.equal(reply.headers['allow'], allow);
      assert.equal(reply.text, '');
    }
    assertError(await call(core, 'OPTIONS', '/v1/nothing'), 401, 'unauthorized');
  });
});

describe('errors from the store', () => {
  test('a storage that cannot accept writes is a 503 unavailable, whose cause goes to the log only', async () => {
    const logged: unknown[] = [];
    const cause = new Error('ENOSPC: no space left on device, write /secret/path/pets.journal');
    const storage = failingStorage(new PetstoreError('unavailable', 'The data file refuses writes after a write error', { cause }));
    const core = createTestCore({ store: createPetstore({ storage }), logError: (error) => logged.push(error) });
    const reply = await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"x","categoryId":1}' });
    assertError(reply, 503, 'unavailable', /refuses writes/);
    assert.ok(!reply.text.includes('/secret/path'));
    assert.equal((logged[0] as PetstoreError).cause, cause);
    assertError(await call(core, 'GET', '/v1/pets/1', { headers: AUTH }), 503, 'unavailable');
    assert.equal(logged.length, 2);
  });

  test('a 503 without a cause is not logged: it says all there is', async () => {
    const logged: unknown[] = [];
    const storage = failingStorage(new PetstoreError('unavailable', 'The storage is closed'));
    const core = createTestCore({ store: createPetstore({ storage }), logError: (error) => logged.push(error) });
    assertError(await call(core, 'GET', '/v1/pets', { headers: AUTH }), 503, 'unavailable');
    assert.deepEqual(logged, []);
  });
});
