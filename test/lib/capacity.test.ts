import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore, petHeapBytes, PetstoreError, WORST_CASE_PET_HEAP_BYTES } from '../../lib/index.js';
import type { NewPet, Pet, PetStorage } from '../../lib/index.js';
import { keyHeapBytes } from '../../lib/capacity.js';
import { fingerprintNewPet } from '../../lib/idempotency.js';
import { rejection } from '../support/assertions.js';

const EMOJI_NAME = '🐶'.repeat(256);

/** A memory storage whose inserts finish a turn of the event loop later, so that creates overlap. */
function slowMemoryStorage(): PetStorage {
  const memory = createMemoryStorage();
  return {
    insert: async (pet: NewPet): Promise<Pet> => {
      await new Promise((resolve) => setImmediate(resolve));
      return memory.insert(pet);
    },
    get: (id) => memory.get(id),
    list: (query) => memory.list(query),
    usage: () => memory.usage?.() ?? { pets: 0, bytes: 0 },
  };
}

describe('petHeapBytes()', () => {
  test('petHeapBytes() counts Latin-1 names one byte a character, others two per UTF-16 unit, and a categoryId beyond 32 bits', () => {
    const table: readonly [NewPet, number][] = [
      [{ name: 'Rex', categoryId: 1 }, 112 + 24],
      [{ name: 'x'.repeat(256), categoryId: 1 }, 112 + 272],
      [{ name: '\u0001'.repeat(256), categoryId: 1 }, 112 + 272],
      [{ name: 'é'.repeat(256), categoryId: 1 }, 112 + 272],
      [{ name: `😀${'x'.repeat(255)}`, categoryId: 1 }, 112 + 536],
      [{ name: EMOJI_NAME, categoryId: 1 }, 112 + 16 + 1024],
      [{ name: 'Rex', categoryId: 2 ** 40 }, 112 + 24 + 16],
    ];
    for (const [pet, bytes] of table) assert.equal(petHeapBytes(pet), bytes, pet.name.slice(0, 10));
  });

  test('WORST_CASE_PET_HEAP_BYTES is the largest valid pet: 256 emoji and a categoryId beyond 32 bits', () => {
    assert.equal(WORST_CASE_PET_HEAP_BYTES, petHeapBytes({ name: EMOJI_NAME, categoryId: -(2 ** 53 - 1) }));
    assert.equal(WORST_CASE_PET_HEAP_BYTES, 1168);
  });
});

describe('createPetstore() with a capacity', () => {
  test('createPet() past `capacity.maxPets` is a 507 insufficient_storage naming the capacity, and reads go on', async () => {
    const store = createPetstore({ capacity: { maxPets: 2 } });
    await store.createPet({ name: 'Rex', categoryId: 1 });
    await store.createPet({ name: 'Tom', categoryId: 1 });
    const refusal = await rejection(() => store.createPet({ name: 'Kit', categoryId: 1 }), 'insufficient_storage');
    assert.deepEqual(refusal.toJSON(), {
      code: 'insufficient_storage',
      message: "Cannot create pet: the store is full: it holds 2 pets, its capacity (`capacity.maxPets`). Reads still work; the operator can raise the capacity",
      status: 507,
    });
    assert.deepEqual((await store.listPets()).map((pet) => pet.name), ['Rex', 'Tom']);
    assert.equal((await store.getPet(2)).name, 'Tom');
  });

  test('createPet() past `capacity.maxBytes` is a 507 that names the memory, and a smaller pet still fits', async () => {
    const maxBytes = petHeapBytes({ name: EMOJI_NAME, categoryId: 1 }) + petHeapBytes({ name: 'Rex', categoryId: 1 });
    const store = createPetstore({ capacity: { maxBytes } });
    await store.createPet({ name: EMOJI_NAME, categoryId: 1 });
    await rejection(() => store.createPet({ name: EMOJI_NAME, categoryId: 1 }), 'insufficient_storage', /its pets take 0.0 MiB of the 0.0 MiB of memory set aside for them \(`capacity.maxBytes`\)/);
    await store.createPet({ name: 'Rex', categoryId: 1 });
    await rejection(() => store.createPet({ name: 'R', categoryId: 1 }), 'insufficient_storage');
    assert.equal((await store.listPets()).length, 2);
  });

  test('createPet() past `capacity.maxBytes` names large budgets in whole MiB', async () => {
    const memory = createMemoryStorage();
    const storage: PetStorage = { ...memory, usage: () => ({ pets: 1, bytes: 300 * 1_048_576 }) };
    const store = createPetstore({ storage, capacity: { maxBytes: 300 * 1_048_576 } });
    await rejection(() => store.createPet({ name: 'Rex', categoryId: 1 }), 'insufficient_storage', /its pets take 300 MiB of the 300 MiB of memory set aside for them/);
  });

  test('createPet() counts creates under way, so concurrent creates cannot pass the capacity', async () => {
    const slow = slowMemoryStorage();
    const store = createPetstore({ storage: slow, capacity: { maxPets: 3 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => store.createPet({ name: `Pet ${index}`, categoryId: 1 })));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 3);
    for (const outcome of outcomes) if (outcome.status === 'rejected') assert.equal((outcome.reason as PetstoreError).code, 'insufficient_storage');
    assert.equal((await store.listPets()).length, 3);
  });

  test('createPet() with an idempotency key keeps to the capacity too, even for a key stored already, and a storage without insertOnce stays without it', async () => {
    const store = createPetstore({ storage: createMemoryStorage(), capacity: { maxPets: 1 } });
    const first = await store.createPetOutcome({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k1' });
    assert.deepEqual(first, { pet: { id: 1, name: 'Rex', categoryId: 1 }, isReplay: false });
    await rejection(() => store.createPet({ name: 'Tom', categoryId: 1 }, { idempotencyKey: 'k2' }), 'insufficient_storage', /capacity/);
    // Whether k1 is stored cannot be known without asking the storage, and asking may store: refused alike.
    await rejection(() => store.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k1' }), 'insufficient_storage');
    assert.equal((await store.listPets()).length, 1);
    const inner = createMemoryStorage();
    const plain: PetStorage = { insert: (pet) => inner.insert(pet), get: (id) => inner.get(id), list: (query) => inner.list(query), usage: () => ({ pets: 0, bytes: 0 }) };
    await rejection(() => createPetstore({ storage: plain, capacity: { maxPets: 5 } }).createPet({ name: 'Kit', categoryId: 1 }, { idempotencyKey: 'k' }), 'idempotency_unsupported');
  });

  test('createPetstore() refuses a capacity on a storage that does not report its usage, and a capacity that is not a count', () => {
    const memory = createMemoryStorage();
    const withoutUsage: PetStorage = { insert: (pet) => memory.insert(pet), get: (id) => memory.get(id), list: (query) => memory.list(query) };
    assert.throws(() => createPetstore({ storage: withoutUsage, capacity: { maxPets: 1 } }), /createPetstore: `capacity` needs a storage that reports its `usage`/);
    for (const maxPets of [-1, 1.5, Number.NaN]) assert.throws(() => createPetstore({ capacity: { maxPets } }), /`capacity.maxPets` must be a non-negative integer/);
    assert.throws(() => createPetstore({ capacity: { maxBytes: -1 } }), /`capacity.maxBytes` must be a non-negative integer/);
  });

  test('createPetstore() with a capacity keeps the storage\'s readiness and close', async () => {
    let closed = 0;
    const memory = createMemoryStorage();
    const storage: PetStorage = { ...memory, usage: () => ({ pets: 0, bytes: 0 }), checkReady: async () => undefined, close: async () => void closed++ };
    const store = createPetstore({ storage, capacity: { maxPets: 1 } });
    await store.checkReady();
    await store.close();
    assert.equal(closed, 1);
  });
});

describe('createPetstore() with a capacity and idempotency keys', () => {
  const KEY = 'k'.repeat(255);

  test('createPet() with an idempotency key counts the key against `capacity.maxBytes`: a keyed create that would pass it is a 507 where the pet alone fits', async () => {
    const rex = { name: 'Rex', categoryId: 1 };
    const keyBytes = keyHeapBytes(rex, { key: KEY, fingerprint: fingerprintNewPet(rex) });
    const store = createPetstore({ capacity: { maxBytes: petHeapBytes(rex) + keyBytes - 1 } });
    await rejection(() => store.createPet(rex, { idempotencyKey: KEY }), 'insufficient_storage');
    await store.createPet(rex);
    assert.equal((await store.listPets()).length, 1);
  });

});

describe('two stores over one storage', () => {
  test('createPetstore() shares the keys in flight of two stores over one storage with a capacity as without: the second create of a key in flight is a 409', async () => {
    for (const capacity of [undefined, { maxPets: 10 }]) {
      const storage = createMemoryStorage();
      const first = createPetstore({ storage, ...(capacity === undefined ? {} : { capacity }) });
      const second = createPetstore({ storage, ...(capacity === undefined ? {} : { capacity }) });
      const created = first.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'shared' });
      await rejection(() => second.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'shared' }), 'idempotency_key_in_use');
      await created;
    }
  });

  test('createPetstore() counts the creates under way of every store over one storage, so two stores cannot pass a capacity together', async () => {
    const slow = slowMemoryStorage();
    const stores = [createPetstore({ storage: slow, capacity: { maxPets: 3 } }), createPetstore({ storage: slow, capacity: { maxPets: 3 } })];
    const outcomes = await Promise.allSettled(stores.flatMap((store) => Array.from({ length: 5 }, (_, index) => store.createPet({ name: `Pet ${index}`, categoryId: 1 }))));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 3);
    assert.equal(slow.usage?.().pets, 3);
  });
});
