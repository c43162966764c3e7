import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore, fingerprintNewPet, IN_FLIGHT_RETRY_AFTER, MAX_IDEMPOTENCY_KEY_LENGTH, validateIdempotencyKey } from '../../lib/index.js';
import type { IdempotencyRecord, InsertOnceResult, NewPet, PetStorage } from '../../lib/index.js';
import { rejection } from '../support/assertions.js';
import { untyped } from '../support/untyped.js';

/** A memory storage whose insertOnce waits until `release` is called, so a create stays in flight. */
function heldStorage(): { storage: PetStorage; release: () => void } {
  const inner = createMemoryStorage();
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const storage: PetStorage = {
    insert: (pet) => inner.insert(pet),
    get: (id) => inner.get(id),
    list: (query) => inner.list(query),
    async insertOnce(pet: NewPet, idempotency: IdempotencyRecord): Promise<InsertOnceResult> {
      await held;
      return (inner.insertOnce as NonNullable<PetStorage['insertOnce']>)(pet, idempotency);
    },
  };
  return { storage, release };
}

describe('fingerprintNewPet()', () => {
  test('fingerprintNewPet() is canonical JSON: members sorted, no white space, status only when given', () => {
    assert.equal(fingerprintNewPet({ status: 'sold', name: 'Rex', categoryId: 3 }), '{"categoryId":3,"name":"Rex","status":"sold"}');
    assert.equal(fingerprintNewPet({ name: 'Tom "T" \\ ü', categoryId: -0 }), '{"categoryId":0,"name":"Tom \\"T\\" \\\\ ü"}');
  });

  test('fingerprintNewPet() writes what JSON.stringify writes of the canonical object, whatever pets it was asked about before', () => {
    const canonical = (pet: NewPet): string => JSON.stringify({ categoryId: pet.categoryId, name: pet.name, ...(pet.status === undefined ? {} : { status: pet.status }) });
    const pets: NewPet[] = [
      { name: 'Rex', categoryId: 3 },
      { name: 'Rex', categoryId: 3 },
      { name: 'Rex', categoryId: 3, status: 'sold' },
      { name: 'Rex', categoryId: 4, status: 'sold' },
      { name: 'Rex', categoryId: 0, status: 'sold' },
      { name: 'Rex', categoryId: -0, status: 'sold' },
      { name: 'Rex ', categoryId: -0, status: 'sold' },
      { name: 'Rex ', categoryId: -0, status: 'pending' },
      { name: 'Rex ', categoryId: -0, status: 'available' },
      { name: 'Tom "T" \\ ü \ud800 \u0007', categoryId: -9007199254740991 },
      { name: 'Tom "T" \\ ü \ud800 \u0007', categoryId: 9007199254740991 },
      // A JavaScript caller's unchecked pets: numbers JSON writes otherwise than a template, a status outside the spec's list.
      { name: 'Rex', categoryId: 1.5 },
      { name: 'Rex', categoryId: Number.NaN },
      { name: 'Rex', categoryId: 1e21 },
      untyped({ name: 'Rex', categoryId: 3, status: 'lost"' }),
      { name: 'Rex', categoryId: 3 },
    ];
    for (const pet of pets) assert.equal(fingerprintNewPet(pet), canonical(pet), JSON.stringify(pet));
    // Asked again about a pet just asked about, with the same name in another string, the answer is the same.
    assert.equal(fingerprintNewPet({ name: ['R', 'e', 'x'].join(''), categoryId: 3 }), '{"categoryId":3,"name":"Rex"}');
  });
});

describe('validateIdempotencyKey()', () => {
  test('validateIdempotencyKey() accepts 1 to 255 printable ASCII characters', () => {
    for (const key of ['a', ' ', '8e03978e-40d5-43e8-bc93-6894a57f9324', '"quoted\\"', '~'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH)]) assert.equal(validateIdempotencyKey(key), key);
  });

  test('validateIdempotencyKey() rejects other values with invalid_idempotency_key naming `idempotencyKey`', async () => {
    const cases: [unknown, RegExp][] = [
      ['', /it is empty/],
      ['x'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1), /it has 256/],
      ['tab\there', /outside 0x20–0x7E/],
      ['ü', /outside 0x20–0x7E/],
      ['\u007f', /outside 0x20–0x7E/],
      [42, /not number/],
      [null, /not null/],
    ];
    for (const [key, pattern] of cases) {
      await rejection(async () => validateIdempotencyKey(key), 'invalid_idempotency_key', /^Cannot create pet: `idempotencyKey` must be/, pattern);
    }
  });
});

describe('createPet() with an idempotency key', () => {
  test('createPet() with a key creates once; the same key and pet again answers the same pet as a replay', async () => {
    const store = createPetstore();
    const first = await store.createPetOutcome({ name: 'Rex', categoryId: 1, status: 'available' }, { idempotencyKey: 'k1' });
    assert.deepEqual(first, { pet: { id: 1, name: 'Rex', categoryId: 1, status: 'available' }, isReplay: false });
    assert.ok(Object.isFrozen(first.pet));
    const again = await store.createPetOutcome({ status: 'available', categoryId: 1.0, name: 'Rex' }, { idempotencyKey: 'k1' });
    assert.deepEqual(again, { pet: first.pet, isReplay: true });
    assert.deepEqual(await store.createPet({ name: 'Rex', categoryId: 1, status: 'available' }, { idempotencyKey: 'k1' }), first.pet);
    assert.equal((await store.listPets()).length, 1);
  });

  test('createPet() with a key used for another pet rejects with idempotency_key_reused and stores nothing', async () => {
    const store = createPetstore();
    await store.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k1' });
    const bodies: NewPet[] = [{ name: 'Rex', categoryId: 2 }, { name: 'Rex', categoryId: 1, status: 'sold' }, { name: 'rex', categoryId: 1 }];
    for (const body of bodies) {
      await rejection(() => store.createPet(body, { idempotencyKey: 'k1' }), 'idempotency_key_reused', /already used to create pet 1 with a different body; use a new key/);
    }
    assert.equal((await store.listPets()).length, 1);
  });

  test('createPet() with a key still in flight rejects with idempotency_key_in_use and Retry-After, then replays once it is done', async () => {
    const { storage, release } = heldStorage();
    const store = createPetstore({ storage });
    const first = store.createPetOutcome({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'slow' });
    const error = await rejection(() => store.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'slow' }), 'idempotency_key_in_use', /still in progress; repeat the request after 1 second/);
    assert.match(error.message, new RegExp(`after ${IN_FLIGHT_RETRY_AFTER} second`));
    await rejection(() => createPetstore({ storage }).createPet({ name: 'Other', categoryId: 1 }, { idempotencyKey: 'slow' }), 'idempotency_key_in_use');
    release();
    assert.deepEqual(await first, { pet: { id: 1, name: 'Rex', categoryId: 1 }, isReplay: false });
    assert.deepEqual(await store.createPetOutcome({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'slow' }), { pet: { id: 1, name: 'Rex', categoryId: 1 }, isReplay: true });
  });

  test('createPet() frees a key whose create failed, so a retry with it creates the pet', async () => {
    const inner = createMemoryStorage();
    let isFailing = true;
    const storage: PetStorage = {
      ...inner,
      async insertOnce(pet, idempotency) {
        if (isFailing) throw new Error('disk on fire');
        return (inner.insertOnce as NonNullable<PetStorage['insertOnce']>)(pet, idempotency);
      },
    };
    const store = createPetstore({ storage });
    await assert.rejects(store.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k' }), /disk on fire/);
    isFailing = false;
    assert.deepEqual(await store.createPetOutcome({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k' }), { pet: { id: 1, name: 'Rex', categoryId: 1 }, isReplay: false });
  });

  test('createPet() checks the key before the body, and a rejected body leaves the key unused', async () => {
    const store = createPetstore();
    await rejection(() => store.createPet(untyped({ name: '' }), { idempotencyKey: '' }), 'invalid_idempotency_key');
    await rejection(() => store.createPet(untyped({ name: '' }), { idempotencyKey: 'k' }), 'validation_failed');
    assert.deepEqual(await store.createPetOutcome({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k' }), { pet: { id: 1, name: 'Rex', categoryId: 1 }, isReplay: false });
  });

  test('createPet() on a storage without insertOnce creates without a key and refuses a key with idempotency_unsupported', async () => {
    const inner = createMemoryStorage();
    const storage: PetStorage = { insert: (pet) => inner.insert(pet), get: (id) => inner.get(id), list: (query) => inner.list(query) };
    const store = createPetstore({ storage });
    assert.deepEqual(await store.createPetOutcome({ name: 'Rex', categoryId: 1 }), { pet: { id: 1, name: 'Rex', categoryId: 1 }, isReplay: false });
    await rejection(() => store.createPet({ name: 'Tom', categoryId: 1 }, { idempotencyKey: 'k' }), 'idempotency_unsupported', /cannot remember idempotency keys; send the create without an idempotency key/);
    assert.equal((await store.listPets()).length, 1);
  });

  test('createPet() refuses a replayed pet whose id breaks the id policy as a storage defect', async () => {
    const storage: PetStorage = {
      ...createMemoryStorage(),
      insertOnce: async (pet, idempotency) => ({ pet: { id: 0, ...pet }, fingerprint: idempotency.fingerprint, isReplay: true }),
    };
    await rejection(() => createPetstore({ storage }).createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k' }), 'internal_error', /Storage defect: insert returned id 0/);
  });
});
