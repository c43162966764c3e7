import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import { errorResponse, HttpError, UNAVAILABLE_RETRY_AFTER } from '../../../server/core/index.js';
import { inject } from '../../../server/testing/index.js';
import { failingStorage } from '../../support/failing-storage.js';
import { AUTH, API_KEY, JSON_POST } from '../../support/http.js';

/** The value of one header in a flat header list, or undefined. */
function headerIn(headers: readonly string[], name: string): string | undefined {
  for (let index = 0; index < headers.length; index += 2) {
    if (headers[index]?.toLowerCase() === name.toLowerCase()) return headers[index + 1];
  }
  return undefined;
}

describe('errorResponse()', () => {
  test('errorResponse() sends an HttpError\'s headers before the caller\'s, and none of its own for a plain PetstoreError', () => {
    const allowed = errorResponse(new HttpError('method_not_allowed', 'PUT is not allowed here', { headers: ['Allow', 'GET, HEAD'] }), ['X-Request-Id', 'r-1']);
    assert.equal(allowed.status, 405);
    assert.deepEqual(allowed.headers.slice(6, 10), ['Allow', 'GET, HEAD', 'X-Request-Id', 'r-1']);
    const plain = errorResponse(new PetstoreError('not_found', 'No pet has id 7'));
    assert.deepEqual([plain.status, headerIn(plain.headers, 'Allow'), headerIn(plain.headers, 'Retry-After')], [404, undefined, undefined]);
    assert.deepEqual(JSON.parse(String(plain.body)), { code: 'not_found', message: 'No pet has id 7', status: 404 });
  });

  test('errorResponse() gives every 503 a Retry-After of UNAVAILABLE_RETRY_AFTER seconds, once, and keeps one an HttpError names itself', () => {
    for (const error of [new PetstoreError('unavailable', 'down'), new PetstoreError('unavailable', 'down', { cause: new Error('ECONNREFUSED') }), new HttpError('unavailable', 'down', { headers: ['Allow', 'GET'] })]) {
      const answer = errorResponse(error);
      assert.equal(answer.status, 503);
      assert.equal(headerIn(answer.headers, 'Retry-After'), String(UNAVAILABLE_RETRY_AFTER));
      assert.equal(answer.headers.filter((name) => name === 'Retry-After').length, 1);
    }
    const named = errorResponse(new HttpError('unavailable', 'maintenance', { headers: ['Retry-After', '120'] }));
    assert.deepEqual(named.headers.filter((_, index) => index % 2 === 0 && named.headers[index] === 'Retry-After').length, 1);
    assert.equal(headerIn(named.headers, 'Retry-After'), '120');
    assert.equal(headerIn(errorResponse(new Error('hidden')).headers, 'Retry-After'), undefined, 'a 500 asks no wait');
  });

  test('errorResponse() answers a storage outage on every operation with a 503 and Retry-After, through inject', async () => {
    const down = new PetstoreError('unavailable', 'The database is unreachable; try again later', { cause: new Error('ECONNREFUSED') });
    const options = { store: createPetstore({ storage: failingStorage(down) }), apiKeys: [API_KEY], log: () => {} };
    for (const request of [{ url: '/v1/pets', headers: AUTH }, { url: '/v1/pets/1', headers: AUTH }, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: '{"name":"x","categoryId":1}' }]) {
      const answer = await inject(options, request);
      assert.equal(answer.status, 503, request.url);
      assert.deepEqual(answer.json(), { code: 'unavailable', message: 'The database is unreachable; try again later', status: 503 });
      assert.equal(answer.headers['retry-after'], String(UNAVAILABLE_RETRY_AFTER), request.url);
    }
  });
});
