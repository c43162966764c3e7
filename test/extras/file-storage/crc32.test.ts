import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as zlib from 'node:zlib';
import { crc32, tableCrc32 } from '../../../extras/file-storage/crc32.js';

test('tableCrc32() gives the standard check value of "123456789"', () => {
  assert.equal(tableCrc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(tableCrc32(Buffer.alloc(0)), 0);
});

test('tableCrc32() agrees with zlib.crc32 on random data of many lengths', () => {
  for (let length = 0; length < 300; length += 7) {
    const data = randomBytes(length);
    assert.equal(tableCrc32(data), zlib.crc32(data), `length ${length}`);
  }
  const large = randomBytes(100_000);
  assert.equal(tableCrc32(large), zlib.crc32(large));
});

test('tableCrc32() continues from an initial value like zlib.crc32', () => {
  const data = randomBytes(500);
  const head = data.subarray(0, 123);
  const tail = data.subarray(123);
  assert.equal(tableCrc32(tail, tableCrc32(head)), zlib.crc32(data));
  assert.equal(tableCrc32(tail, zlib.crc32(head)), zlib.crc32(tail, zlib.crc32(head)));
});

test('crc32() matches the fallback, whichever implementation it uses', () => {
  const data = randomBytes(1000);
  assert.equal(crc32(data), tableCrc32(data));
  assert.equal(crc32(data.subarray(10), 12345), tableCrc32(data.subarray(10), 12345));
});
