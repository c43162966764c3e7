import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AUTH, assertError } from '../../support/http.js';
import { call, createTestCore } from '../../support/inject.js';
import type { Reply } from '../../support/http.js';
import type { TestCore } from '../../support/inject.js';

function assertDeprecationHeaders(reply: Reply): void {
  assert.equal(reply.headers.deprecation, '@1767225600');
  assert.equal(reply.headers.sunset, 'Thu, 05 Dec 2030 00:00:00 GMT');
  assert.equal(reply.headers.link, '</v1/pets>; rel="successor-version"');
}

describe('GET /v1/pets/{petId} (getPet, deprecated)', () => {
  let core: TestCore;
  before(async () => {
    core = createTestCore();
    await core.store.createPet({ name: 'Rex', categoryId: 4, status: 'sold' });
  });

  test('getPet answers 200 with the Pet and the deprecation headers', async () => {
    const reply = await call(core, 'GET', '/v1/pets/1', { headers: AUTH });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { id: 1, name: 'Rex', categoryId: 4, status: 'sold' });
    assertDeprecationHeaders(reply);
  });

  test('getPet accepts leading zeros in the decimal id', async () => {
    assert.equal((await call(core, 'GET', '/v1/pets/0001', { headers: AUTH })).status, 200);
  });

  test('getPet answers 404 not_found, with the deprecation headers, for ids no pet has', async () => {
    for (const id of ['2', '0', '-1', '9007199254740991', '9007199254740992', '99999999999999999999999999999']) {
      const reply = await call(core, 'GET', `/v1/pets/${id}`, { headers: AUTH });
      assertError(reply, 404, 'not_found', /was not found/);
      assertDeprecationHeaders(reply);
    }
  });

  test('getPet answers 400 invalid_parameter, with the deprecation headers, for a petId that is not a decimal integer', async () => {
    for (const id of ['abc', '1.5', '1e3', '0x1', '%31', '1%20', '+1', '--1', '1-']) {
      const reply = await call(core, 'GET', `/v1/pets/${id}`, { headers: AUTH });
      assertError(reply, 400, 'invalid_parameter', /`petId` must be a decimal integer/);
      assertDeprecationHeaders(reply);
    }
  });

  test('getPet answers HEAD with headers and no body', async () => {
    const reply = await call(core, 'HEAD', '/v1/pets/1', { headers: AUTH });
    assert.equal(reply.status, 200);
    assert.equal(reply.text, '');
    assertDeprecationHeaders(reply);
  });

  test('getPet without a key is a 401 without deprecation headers', async () => {
    const reply = await call(core, 'GET', '/v1/pets/1');
    assertError(reply, 401, 'unauthorized');
    assert.equal(reply.headers.deprecation, undefined);
  });
});
