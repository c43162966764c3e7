import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { digestsEqual, sha256 } from '../../../server/core/sha256.js';

function nodeDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

test('sha256() agrees with node:crypto on every padding boundary, on non-ASCII text and on random keys', () => {
  const texts = ['', 'abc', 'é😀'.repeat(40), 'x'.repeat(1_000)];
  for (let length = 50; length <= 130; length++) texts.push('k'.repeat(length));
  for (let index = 0; index < 200; index++) texts.push(randomBytes(1 + (index % 90)).toString('base64url'));
  for (const text of texts) assert.equal(Buffer.from(sha256(text)).toString('hex'), nodeDigest(text), JSON.stringify(text));
});

test('digestsEqual() is true only for the same bytes', () => {
  const digest = sha256('key');
  assert.equal(digestsEqual(digest, sha256('key')), true);
  assert.equal(digestsEqual(digest, sha256('kez')), false);
  assert.equal(digestsEqual(digest, digest.subarray(0, 31)), false);
});
