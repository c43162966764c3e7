import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { petHeapBytes } from '../capacity.js';
import { fingerprintNewPet } from '../idempotency.js';
import { MAX_SAFE_ID } from '../limits.js';
import type { NewPet, Pet, PetStatus } from '../validate.js';
import { createPetstore } from '../petstore.js';
import type { IdempotencyRecord, InsertOnceResult, PetStorage } from './storage.js';

/** How the contract suite makes and, for durable storages, reopens a storage. */
export interface StorageContractOptions {
  /** A fresh, empty storage; called once per test. */
  makeStorage: () => PetStorage | Promise<PetStorage>;
  /** Closes `storage` and opens the same data again; given only for durable storages. */
  reopen?: (storage: PetStorage) => Promise<PetStorage>;
}

/** What every storage owes the engine, and what it may offer (docs/embedding.md, "The storage contract"). */
const OWED = ['insert', 'get', 'list'] as const;
const OFFERED = ['insertOnce', 'checkReady', 'usage', 'close'] as const;

const STATUSES: readonly (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

function newPet(index: number): NewPet {
  const pet: NewPet = { name: `pet ${index}`, categoryId: index % 7 };
  const status = STATUSES[index % STATUSES.length];
  if (status !== undefined) pet.status = status;
  return pet;
}

async function insertMany(storage: PetStorage, count: number): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let index = 0; index < count; index++) pets.push(await storage.insert(newPet(index)));
  return pets;
}

function ids(pets: readonly Pet[]): number[] {
  return pets.map((pet) => pet.id);
}

/** The idempotency record the engine would pass for this pet and key. */
function keyed(pet: NewPet, key: string): IdempotencyRecord {
  return { key, fingerprint: fingerprintNewPet(pet) };
}

/** Runs within a storage that has insertOnce, given bound; skips the test over a storage that has none. */
function usingInsertOnce(
  options: StorageContractOptions, context: { skip(message: string): void },
  body: (storage: PetStorage, insertOnce: NonNullable<PetStorage['insertOnce']>) => Promise<PetStorage | void>,
): Promise<void> {
  return using(options, async (storage) => {
    if (storage.insertOnce === undefined) {
      return void context.skip('this storage has no insertOnce(): the engine refuses creates with an idempotency key (`idempotency_unsupported`)');
    }
    return body(storage, storage.insertOnce.bind(storage));
  });
}

/** The fields of an insertOnce result, with the pet as a plain object, for deepEqual. */
function plain(result: InsertOnceResult): { pet: Pet; fingerprint: string; isReplay: boolean } {
  return { pet: { ...result.pet }, fingerprint: result.fingerprint, isReplay: result.isReplay };
}

/** Runs within `storage` and closes it afterwards, so each test releases what it opened. */
async function using(options: StorageContractOptions, body: (storage: PetStorage) => Promise<PetStorage | void>): Promise<void> {
  let storage = await options.makeStorage();
  try {
    storage = (await body(storage)) ?? storage;
  } finally {
    await storage.close?.();
  }
}

/**
 * The behaviour every PetStorage must show: the id policy, ordering, filtering, the `after` cursor,
 * limits, isolation of returned pets, readiness where the storage reports it, and idempotency keys
 * where it has insertOnce (replays, fingerprints, concurrent creates with one key, keys across a
 * reopen). Call it from a `node:test` file with a name for the suite.
 */
export function runStorageContract(name: string, options: StorageContractOptions): void {
  describe(`${name} storage contract`, () => {
    test('a storage has the members it owes (insert, get, list), and each it may offer (insertOnce, checkReady, usage, close) is a function or absent', () =>
      using(options, async (storage) => {
        for (const member of OWED) assert.equal(typeof storage[member], 'function', `${member}() is owed`);
        for (const member of OFFERED) assert.ok(['undefined', 'function'].includes(typeof storage[member]), `${member}, where offered, is a function`);
      }));

    test('usage(), where the storage offers it, counts its pets and their heap bytes as petHeapBytes does', (context) =>
      using(options, async (storage) => {
        if (storage.usage === undefined) return void context.skip('this storage has no usage(): an engine over it takes no `capacity`');
        const pets = await insertMany(storage, 3);
        assert.deepEqual(storage.usage(), { pets: 3, bytes: pets.reduce((sum, pet) => sum + petHeapBytes(pet), 0) });
      }));

    test('insert() returns the pet with a positive safe integer id and the fields given', () =>
      using(options, async (storage) => {
        const pet = await storage.insert({ name: 'Rex', categoryId: 3, status: 'available' });
        assert.ok(Number.isSafeInteger(pet.id) && pet.id > 0, `id ${pet.id} is a positive safe integer`);
        assert.deepEqual({ ...pet }, { id: pet.id, name: 'Rex', categoryId: 3, status: 'available' });
      }));

    test('insert() keeps a pet without status free of any status property', () =>
      using(options, async (storage) => {
        const pet = await storage.insert({ name: 'Tom', categoryId: 1 });
        assert.equal(Object.hasOwn(pet, 'status'), false);
        const stored = await storage.get(pet.id);
        assert.ok(stored !== undefined);
        assert.equal(Object.hasOwn(stored, 'status'), false);
      }));

    test('insert() stores names, negative and extreme categoryIds exactly', () =>
      using(options, async (storage) => {
        const cases: NewPet[] = [
          { name: 'Zoë 🐕 "quoted" \\ back\nline', categoryId: -MAX_SAFE_ID },
          { name: ' padded ', categoryId: MAX_SAFE_ID },
          { name: 'x'.repeat(256), categoryId: 0 },
        ];
        for (const input of cases) {
          const pet = await storage.insert(input);
          assert.deepEqual({ ...(await storage.get(pet.id)) }, { id: pet.id, ...input });
        }
      }));

    test('insert() gives strictly increasing ids in creation order', () =>
      using(options, async (storage) => {
        const created = ids(await insertMany(storage, 25));
        for (let index = 1; index < created.length; index++) {
          assert.ok((created[index] as number) > (created[index - 1] as number), `id ${created[index]} follows ${created[index - 1]}`);
        }
      }));

    test('insert() gives unique ids to concurrent inserts', () =>
      using(options, async (storage) => {
        const before = await storage.insert(newPet(0));
        const concurrent = await Promise.all(Array.from({ length: 200 }, (_, index) => storage.insert(newPet(index))));
        const unique = new Set(ids(concurrent));
        assert.equal(unique.size, 200);
        for (const id of unique) assert.ok(id > before.id, `id ${id} is above the earlier id ${before.id}`);
        const listed = await storage.list({ status: undefined, after: before.id, limit: 1000 });
        assert.deepEqual(ids(listed), [...unique].sort((left, right) => left - right));
      }));

    test('get() returns the stored pet, and undefined for unknown ids', () =>
      using(options, async (storage) => {
        const pets = await insertMany(storage, 5);
        for (const pet of pets) assert.deepEqual({ ...(await storage.get(pet.id)) }, { ...pet });
        const highest = Math.max(...ids(pets));
        for (const unknown of [highest + 1, highest + 1000, MAX_SAFE_ID]) assert.equal(await storage.get(unknown), undefined);
      }));

    test('list() returns pets in ascending id order, up to the limit', () =>
      using(options, async (storage) => {
        const pets = await insertMany(storage, 30);
        assert.deepEqual(ids(await storage.list({ status: undefined, after: 0, limit: 100 })), ids(pets));
        assert.deepEqual(ids(await storage.list({ status: undefined, after: 0, limit: 7 })), ids(pets).slice(0, 7));
        assert.deepEqual(ids(await storage.list({ status: undefined, after: 0, limit: 1 })), ids(pets).slice(0, 1));
      }));

    test('list() filters by status', () =>
      using(options, async (storage) => {
        const pets = await insertMany(storage, 40);
        for (const status of ['available', 'pending', 'sold'] as const) {
          const expected = pets.filter((pet) => pet.status === status);
          const listed = await storage.list({ status, after: 0, limit: 100 });
          assert.deepEqual(ids(listed), ids(expected));
          for (const pet of listed) assert.equal(pet.status, status);
        }
      }));

    test('list() returns only ids above `after`, with and without a status', () =>
      using(options, async (storage) => {
        const pets = await insertMany(storage, 40);
        const middle = pets[17] as Pet;
        assert.deepEqual(ids(await storage.list({ status: undefined, after: middle.id, limit: 5 })), ids(pets.filter((pet) => pet.id > middle.id)).slice(0, 5));
        assert.deepEqual(
          ids(await storage.list({ status: 'sold', after: middle.id, limit: 100 })),
          ids(pets.filter((pet) => pet.id > middle.id && pet.status === 'sold')),
        );
        const last = pets.at(-1) as Pet;
        assert.deepEqual(await storage.list({ status: undefined, after: last.id, limit: 10 }), []);
        assert.deepEqual(await storage.list({ status: 'pending', after: MAX_SAFE_ID, limit: 10 }), []);
      }));

    test('list() pages through every pet exactly once by following `after`', () =>
      using(options, async (storage) => {
        const pets = await insertMany(storage, 53);
        const seen: number[] = [];
        let after = 0;
        for (;;) {
          const page = await storage.list({ status: undefined, after, limit: 10 });
          if (page.length === 0) break;
          seen.push(...ids(page));
          after = (page.at(-1) as Pet).id;
        }
        assert.deepEqual(seen, ids(pets));
      }));

    test('list() returns a new array each time, which the caller may change', () =>
      using(options, async (storage) => {
        const pets = await insertMany(storage, 5);
        const first = await storage.list({ status: undefined, after: 0, limit: 10 });
        first.length = 1;
        first.push(first[0] as Pet);
        assert.deepEqual(ids(await storage.list({ status: undefined, after: 0, limit: 10 })), ids(pets));
      }));

    test('list() on an empty storage returns an empty array', () =>
      using(options, async (storage) => {
        assert.deepEqual(await storage.list({ status: undefined, after: 0, limit: 20 }), []);
        assert.deepEqual(await storage.list({ status: 'available', after: 0, limit: 20 }), []);
      }));

    test('insert() does not keep a reference to the caller\'s object', () =>
      using(options, async (storage) => {
        const input: NewPet = { name: 'Original', categoryId: 1, status: 'available' };
        const pet = await storage.insert(input);
        input.name = 'Changed';
        input.status = 'sold';
        assert.equal((await storage.get(pet.id))?.name, 'Original');
        assert.equal((await storage.get(pet.id))?.status, 'available');
      }));

    test('returned pets cannot be used to change what the storage holds', () =>
      using(options, async (storage) => {
        const pet = await storage.insert({ name: 'Solid', categoryId: 2, status: 'pending' });
        const fetched = await storage.get(pet.id);
        const [listed] = await storage.list({ status: undefined, after: 0, limit: 1 });
        for (const copy of [pet, fetched, listed]) {
          try {
            Object.assign(copy as Pet, { name: 'Mutated', status: 'sold' });
          } catch {
            // A frozen pet refuses the change: that is one of the two accepted behaviours.
          }
        }
        assert.deepEqual({ ...(await storage.get(pet.id)) }, { id: pet.id, name: 'Solid', categoryId: 2, status: 'pending' });
        assert.deepEqual(ids(await storage.list({ status: 'sold', after: 0, limit: 10 })), []);
      }));

    test('checkReady(), where the storage has it, resolves on a freshly opened storage and after inserts', (context) =>
      using(options, async (storage) => {
        if (storage.checkReady === undefined) return void context.skip('this storage has no checkReady(), so it is always ready');
        await storage.checkReady();
        await insertMany(storage, 3);
        await storage.checkReady();
        assert.equal((await storage.list({ status: undefined, after: 0, limit: 10 })).length, 3, 'checkReady() changes no pets');
      }));

    test('insertOnce() stores a pet with its key, and the same key again returns that pet and fingerprint as a replay without a new pet', (context) =>
      usingInsertOnce(options, context, async (storage, insertOnce) => {
        const rex: NewPet = { name: 'Rex', categoryId: 3, status: 'available' };
        const first = await insertOnce(rex, keyed(rex, 'key-1'));
        assert.deepEqual(plain(first), { pet: { id: first.pet.id, ...rex }, fingerprint: fingerprintNewPet(rex), isReplay: false });
        const again = await insertOnce(rex, keyed(rex, 'key-1'));
        assert.deepEqual(plain(again), { ...plain(first), isReplay: true });
        assert.deepEqual(ids(await storage.list({ status: undefined, after: 0, limit: 10 })), [first.pet.id]);
        assert.deepEqual({ ...(await storage.get(first.pet.id)) }, { id: first.pet.id, ...rex });
      }));

    test('insertOnce() with a stored key and another fingerprint stores nothing and returns the first pet and fingerprint, which the engine refuses',
      (context) => usingInsertOnce(options, context, async (storage, insertOnce) => {
        const rex: NewPet = { name: 'Rex', categoryId: 3 };
        const tom: NewPet = { name: 'Tom', categoryId: 3 };
        const first = await insertOnce(rex, keyed(rex, 'key-2'));
        const other = await insertOnce(tom, keyed(tom, 'key-2'));
        assert.deepEqual(plain(other), { pet: { ...first.pet }, fingerprint: fingerprintNewPet(rex), isReplay: true });
        const store = createPetstore({ storage });
        await assert.rejects(store.createPet(tom, { idempotencyKey: 'key-2' }), { name: 'PetstoreError', code: 'idempotency_key_reused' });
        const replayed = await store.createPetOutcome({ categoryId: 3, name: 'Rex' }, { idempotencyKey: 'key-2' });
        assert.deepEqual({ pet: { ...replayed.pet }, isReplay: replayed.isReplay }, { pet: { ...first.pet }, isReplay: true });
        assert.deepEqual(ids(await storage.list({ status: undefined, after: 0, limit: 10 })), [first.pet.id]);
      }));

    test('insertOnce() keeps keys apart exactly (case, spaces, quotes) and beside pets inserted without a key', (context) =>
      usingInsertOnce(options, context, async (storage, insertOnce) => {
        const pet: NewPet = { name: 'Zoë 🐕 "quoted"', categoryId: -1, status: 'sold' };
        const keys = ['a', 'A', 'a ', ' a', '"a"', 'a\\b', '~'.repeat(255)];
        const created: InsertOnceResult[] = [];
        for (const key of keys) created.push(await insertOnce(pet, keyed(pet, key)));
        const plainPet = await storage.insert(pet);
        assert.deepEqual(created.map((result) => result.isReplay), keys.map(() => false));
        assert.equal(new Set([...ids(created.map((result) => result.pet)), plainPet.id]).size, keys.length + 1);
        for (const [index, key] of keys.entries()) {
          const again = await insertOnce(pet, keyed(pet, key));
          assert.deepEqual(plain(again), { ...plain(created[index] as InsertOnceResult), isReplay: true }, `key ${JSON.stringify(key)}`);
        }
        assert.equal((await storage.list({ status: undefined, after: 0, limit: 100 })).length, keys.length + 1);
      }));

    test('insertOnce() stores one pet for concurrent creates with one key, and one per key among many', (context) =>
      usingInsertOnce(options, context, async (storage, insertOnce) => {
        const results = await Promise.all(Array.from({ length: 60 }, (_, index) => {
          const pet = newPet(index % 3);
          return insertOnce(pet, keyed(pet, `concurrent-${index % 3}`));
        }));
        for (let key = 0; key < 3; key++) {
          const forKey = results.filter((_, index) => index % 3 === key);
          assert.equal(forKey.filter((result) => !result.isReplay).length, 1, `one create of key ${key} stored its pet`);
          assert.equal(new Set(ids(forKey.map((result) => result.pet))).size, 1, `every create of key ${key} got the same pet`);
        }
        const listed = await storage.list({ status: undefined, after: 0, limit: 100 });
        assert.deepEqual(ids(listed), [...new Set(ids(results.map((result) => result.pet)))].sort((left, right) => left - right));
        assert.equal(listed.length, 3);
      }));

    if (options.reopen !== undefined) {
      const reopen = options.reopen;

      test('reopen keeps every idempotency key with its pet and fingerprint', (context) =>
        usingInsertOnce(options, context, async (storage, insertOnce) => {
          const rex: NewPet = { name: 'Rex', categoryId: 3, status: 'pending' };
          const first = await insertOnce(rex, keyed(rex, 'durable-key'));
          const unkeyed = await storage.insert(newPet(1));
          const reopened = await reopen(storage);
          assert.ok(reopened.insertOnce !== undefined, 'the reopened storage has insertOnce()');
          const tom: NewPet = { name: 'Tom', categoryId: 4 };
          assert.deepEqual(plain(await reopened.insertOnce(tom, keyed(tom, 'durable-key'))), { ...plain(first), isReplay: true });
          const fresh = await reopened.insertOnce(tom, keyed(tom, 'fresh-key'));
          assert.equal(fresh.isReplay, false);
          assert.ok(fresh.pet.id > Math.max(first.pet.id, unkeyed.id), `id ${fresh.pet.id} is above every earlier id`);
          assert.equal((await reopened.list({ status: undefined, after: 0, limit: 10 })).length, 3);
          return reopened;
        }));

      test('reopen keeps every pet and continues ids above the highest one', () =>
        using(options, async (storage) => {
          const pets = await insertMany(storage, 12);
          const reopened = await reopen(storage);
          assert.deepEqual((await reopened.list({ status: undefined, after: 0, limit: 100 })).map((pet) => ({ ...pet })), pets.map((pet) => ({ ...pet })));
          const next = await reopened.insert(newPet(99));
          assert.ok(next.id > Math.max(...ids(pets)), `id ${next.id} is above every earlier id`);
          return reopened;
        }));

      test('reopen never hands out an id again, across several reopens', () =>
        using(options, async (storage) => {
          const seen = new Set<number>();
          let current = storage;
          for (let round = 0; round < 4; round++) {
            for (const pet of await insertMany(current, 3)) {
              assert.equal(seen.has(pet.id), false, `id ${pet.id} was handed out before`);
              seen.add(pet.id);
            }
            current = await reopen(current);
          }
          assert.equal((await current.list({ status: undefined, after: 0, limit: 100 })).length, 12);
          return current;
        }));
    }
  });
}
