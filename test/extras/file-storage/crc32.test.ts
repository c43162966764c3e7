import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { encodeHeader } from '../../../extras/file-storage/journal-format.js';

const FILE_STORAGE = resolve(import.meta.dirname, '../../../extras/file-storage');

test('the journal header\'s checksum is zlib.crc32 of its first 12 bytes, the standard CRC-32 (check value of "123456789": 0xcbf43926)', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  const header = encodeHeader();
  assert.equal(header.readUInt32LE(12), crc32(header.subarray(0, 12)));
});

test('the file storage computes CRC-32 with zlib.crc32 alone: no source of its own holds the polynomial or a table of it', async () => {
  const files = (await readdir(FILE_STORAGE)).filter((name) => name.endsWith('.ts'));
  assert.ok(files.includes('journal-format.ts'), files.join(', '));
  const homemade: string[] = [];
  for (const name of files) if (/0xedb88320/i.test(await readFile(join(FILE_STORAGE, name), 'utf8'))) homemade.push(name);
  assert.deepEqual(homemade, []);
});
