import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../lib/index.js';
import { bodyErrorHeaders } from '../../server/index.js';

test('bodyErrorHeaders() names Accept-Post for a 415, Connection: close for a 413, and nothing else', () => {
  assert.deepEqual(bodyErrorHeaders(new PetstoreError('unsupported_media_type', 'x')), ['Accept-Post', 'application/json', 'Accept-Encoding', 'identity']);
  assert.deepEqual(bodyErrorHeaders(new PetstoreError('payload_too_large', 'x')), ['Connection', 'close']);
  for (const error of [new PetstoreError('invalid_json', 'x'), new Error('x'), 'x', undefined]) assert.deepEqual(bodyErrorHeaders(error), []);
});
