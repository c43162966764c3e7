import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { checkJsonBodyHead } from '../../../server/core/body.js';

const OPTIONS = { limit: 10, action: 'Cannot create pet' };

function refusal(headers: Record<string, string>): PetstoreError {
  try {
    checkJsonBodyHead(headers, OPTIONS);
  } catch (error) {
    assert.ok(error instanceof PetstoreError);
    return error;
  }
  throw new assert.AssertionError({ message: `the head ${JSON.stringify(headers)} was accepted` });
}

test('checkJsonBodyHead() refuses with the headers the answer needs: Accept-Post for a 415, none for a 413 or a 400', () => {
  assert.deepEqual(refusal({ 'content-type': 'text/plain' }).headers, ['Accept-Post', 'application/json', 'Accept-Encoding', 'identity']);
  assert.deepEqual(refusal({ 'content-type': 'application/json', 'content-encoding': 'gzip' }).headers, ['Accept-Post', 'application/json', 'Accept-Encoding', 'identity']);
  assert.deepEqual(refusal({ 'content-type': 'application/json', 'content-length': '11' }).headers, []);
  const badTransfer = refusal({ 'content-type': 'application/json', 'transfer-encoding': 'gzip' });
  assert.equal(badTransfer.code, 'bad_request');
  assert.deepEqual(badTransfer.headers, []);
  assert.doesNotThrow(() => checkJsonBodyHead({ 'content-type': 'Application/JSON; charset=utf-8', 'content-length': '10' }, OPTIONS));
});
