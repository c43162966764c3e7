import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyHeapBytes, MAP_ENTRY_HEAP_BYTES, petHeapBytes, stringHeapBytes } from '../../../../lib/capacity.js';
import { fingerprintNewPet } from '../../../../lib/idempotency.js';
import { createMemoryStorage } from '../../../../lib/index.js';
import { freezePet } from '../../../../lib/validate.js';
import { KEY_SHARD_SIZE, KeyIndex, ShardedMap } from '../../../../lib/storage/memory/key-index.js';

const REX = { name: 'Rex', categoryId: 1 };

describe('ShardedMap', () => {
  test('ShardedMap spreads its entries over maps of at most the shard size and finds, counts and deletes them in every map', () => {
    const map = new ShardedMap<number>(4);
    for (let index = 0; index < 10; index++) map.add(`k${index}`, index);
    assert.equal(map.size, 10);
    assert.equal(map.shardCount, 3);
    for (let index = 0; index < 10; index++) assert.equal(map.get(`k${index}`), index);
    assert.equal(map.get('k10'), undefined);
    assert.equal(map.delete('k1'), true);
    assert.equal(map.delete('k1'), false);
    assert.equal(map.get('k1'), undefined);
    assert.equal(map.size, 9);
    assert.deepEqual([...map.entries()].map(([key]) => key), ['k0', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
  });

  test('ShardedMap refuses a shard size that is not a positive integer, and its default keeps every map far below the 2^24 entries of a V8 Map', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) assert.throws(() => new ShardedMap(size), /`shardSize` must be a positive integer/);
    assert.equal(KEY_SHARD_SIZE <= 2 ** 24 / 16, true);
  });
});

describe('KeyIndex', () => {
  test('KeyIndex keeps no fingerprint that is the pet\'s own, gives it back computed, and keeps any other one', () => {
    const keys = new KeyIndex(2);
    const rex = freezePet(1, REX);
    const tom = freezePet(2, { name: 'Tom', categoryId: 2 });
    keys.add(rex, { key: 'a', fingerprint: fingerprintNewPet(REX) });
    keys.add(tom, { key: 'b', fingerprint: 'another fingerprint' });
    assert.deepEqual(keys.get('a'), { pet: rex, fingerprint: fingerprintNewPet(REX) });
    assert.deepEqual(keys.get('b'), { pet: tom, fingerprint: 'another fingerprint' });
    assert.equal(keys.get('c'), undefined);
    assert.equal(keys.size, 2);
  });

  test('KeyIndex counts the heap bytes of its keys as keyHeapBytes does, from the first call of bytes() on, and forgets a deleted key', () => {
    const keys = new KeyIndex(2);
    const pets = Array.from({ length: 5 }, (_, index) => freezePet(index + 1, { name: `Pet ${index}`, categoryId: 1 }));
    const records = pets.map((pet, index) => ({ key: `key-${index}`.repeat(index + 1), fingerprint: index === 3 ? 'other' : fingerprintNewPet(pet) }));
    for (let index = 0; index < 3; index++) keys.add(pets[index]!, records[index]!);
    const expected = (count: number): number => records.slice(0, count).reduce((sum, record, index) => sum + keyHeapBytes(pets[index]!, record), 0);
    assert.equal(keys.bytes(), expected(3));
    for (let index = 3; index < 5; index++) keys.add(pets[index]!, records[index]!);
    assert.equal(keys.bytes(), expected(5));
    keys.delete(records[3]!.key);
    keys.delete('not a key');
    assert.equal(keys.bytes(), expected(5) - keyHeapBytes(pets[3]!, records[3]!));
    assert.equal(keys.get(records[3]!.key), undefined);
  });
});

describe('keyHeapBytes()', () => {
  test('keyHeapBytes() counts the key and its map entry, and a fingerprint other than the pet\'s own with an entry of its own', () => {
    const key = 'k'.repeat(255);
    assert.equal(keyHeapBytes(REX, { key, fingerprint: fingerprintNewPet(REX) }), 272 + MAP_ENTRY_HEAP_BYTES);
    assert.equal(keyHeapBytes(REX, { key: 'k', fingerprint: 'x'.repeat(100) }), 24 + MAP_ENTRY_HEAP_BYTES + stringHeapBytes('x'.repeat(100)) + MAP_ENTRY_HEAP_BYTES);
  });
});

describe('createMemoryStorage() usage', () => {
  test('createMemoryStorage() counts a keyed create\'s key beside its pet in usage(), and a replay adds nothing', async () => {
    const storage = createMemoryStorage();
    const record = { key: 'k'.repeat(255), fingerprint: fingerprintNewPet(REX) };
    await storage.insertOnce?.(REX, record);
    await storage.insertOnce?.(REX, record);
    await storage.insert(REX);
    assert.deepEqual(storage.usage?.(), { pets: 2, bytes: 2 * petHeapBytes(REX) + keyHeapBytes(REX, record) });
  });
});
