import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { fingerprintNewPet, freezePet, petHeapBytes } from '../../../lib/index.js';
import { keyHeapBytes } from '../../../lib/capacity.js';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { encodeHeader, encodePetRecord } from '../../../extras/file-storage/journal-format.js';
import { rejection } from '../../support/assertions.js';
import { journalPath } from './fixtures.js';

const EMOJI_NAME = '🐶'.repeat(256);

/** The longest idempotency key. */
const KEY = 'k'.repeat(255);

describe('createFileStorage() with a capacity', () => {
  /** A journal of `count` pets with 256-emoji names. */
  async function emojiJournal(count: number): Promise<string> {
    const path = await journalPath();
    const records = Array.from({ length: count }, (_, index) => encodePetRecord(freezePet(index + 1, { name: EMOJI_NAME, categoryId: 1 })));
    await writeFile(path, Buffer.concat([encodeHeader(), ...records]));
    return path;
  }

  test('createFileStorage() refuses a journal with more pets than `capacity.maxPets`, and opens one with exactly as many', async () => {
    const path = await emojiJournal(10);
    await rejection(() => createFileStorage(path, { capacity: { maxPets: 9 } }), 'insufficient_storage', /it holds more than 9 pets, the capacity \(`capacity.maxPets`\)/);
    const storage = await createFileStorage(path, { capacity: { maxPets: 10 } });
    assert.deepEqual(storage.usage(), { pets: 10, bytes: 10 * petHeapBytes({ name: EMOJI_NAME, categoryId: 1 }) });
    await storage.close();
  });

  test('createFileStorage() stops the replay once the pets pass `capacity.maxBytes`, saying how much memory the whole file needs', async () => {
    const path = await emojiJournal(2000);
    const perPet = petHeapBytes({ name: EMOJI_NAME, categoryId: 1 });
    const refusal = await rejection(() => createFileStorage(path, { capacity: { maxBytes: 1000 * perPet } }), 'insufficient_storage');
    assert.match(refusal.message, /its pets need about 2.2 MiB of memory \(the first 1,001, in 50% of the file, take 1.1 MiB\), more than the 1.1 MiB set aside for pets \(`capacity.maxBytes`\)$/);
    const storage = await createFileStorage(path, { capacity: { maxBytes: 2000 * perPet } });
    assert.equal(storage.usage().pets, 2000);
    await storage.close();
  });

  test('createFileStorage() refuses a journal whose size alone shows it cannot fit, before reading a record', async () => {
    const path = await emojiJournal(1000);
    const refusal = await rejection(() => createFileStorage(path, { capacity: { maxBytes: 100_000 } }), 'insufficient_storage');
    // A fifth of the file: a journal that may hold keyed records holds fingerprints the heap does not keep.
    assert.match(refusal.message, /its 1,050,016 bytes hold pets that need at least 0.2 MiB of memory, more than the 0.1 MiB set aside for pets \(`capacity.maxBytes`\)$/);
  });

  test('createFileStorage() counts keys in usage() and on reopen the same way, so a journal filled to its capacity by keyed creates reopens with it', async () => {
    const path = await journalPath();
    const rex = { name: '\u0001'.repeat(256), categoryId: 1 };
    const storage = await createFileStorage(path);
    for (let index = 0; index < 20; index++) await storage.insertOnce?.(rex, { key: `${KEY.slice(3)}${String(index).padStart(3, '0')}`, fingerprint: fingerprintNewPet(rex) });
    const usage = storage.usage();
    assert.deepEqual(usage, { pets: 20, bytes: 20 * (petHeapBytes(rex) + keyHeapBytes(rex, { key: KEY, fingerprint: fingerprintNewPet(rex) })) });
    await storage.close();
    const again = await createFileStorage(path, { capacity: { maxBytes: usage.bytes } });
    assert.deepEqual(again.usage(), usage);
    await again.close();
    await rejection(() => createFileStorage(path, { capacity: { maxBytes: usage.bytes - 1 } }), 'insufficient_storage');
  });
});
