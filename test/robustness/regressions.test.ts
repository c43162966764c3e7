import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUTH, assertError, call, startTestServer } from '../support/http.js';
import type { TestServer } from '../support/http.js';

// One test per defect the robustness suite found, named after the behaviour it pins down.
describe('defects found by the robustness suite', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('getPet answers 404 not_found for a decimal petId too long for a number (310+ digits), not 400', async () => {
    for (const id of [`1${'0'.repeat(309)}`, `-${'9'.repeat(400)}`, '7'.repeat(5_000)]) {
      const reply = await call(server, 'GET', `/v1/pets/${id}`, { headers: AUTH });
      assertError(reply, 404, 'not_found', /was not found/);
      assert.equal(reply.headers['sunset'], 'Thu, 05 Dec 2030 00:00:00 GMT');
    }
  });
});
