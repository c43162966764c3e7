import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore, PetstoreError } from '../../lib/index.js';
import type { NewPet, Pet, PetStorage } from '../../lib/index.js';
import { rejection } from '../support/assertions.js';
import { untyped } from '../support/untyped.js';

const MAX = Number.MAX_SAFE_INTEGER;

function fieldsOf(error: PetstoreError): string[] {
  return (error.details ?? []).map((detail) => detail.field);
}

describe('createPetstore()', () => {
  test('createPetstore() defaults to an empty in-memory storage', async () => {
    const store = createPetstore();
    assert.deepEqual(await store.listPets(), []);
    const pet = await store.createPet({ name: 'Rex', categoryId: 1 });
    assert.equal(pet.id, 1);
    await store.close();
  });

  test('createPetstore() uses the storage it is given', async () => {
    const storage = createMemoryStorage();
    await storage.insert({ name: 'Already there', categoryId: 5 });
    const store = createPetstore({ storage });
    assert.deepEqual(await store.getPet(1), { id: 1, name: 'Already there', categoryId: 5 });
  });
});

describe('createPet()', () => {
  test('createPet() returns the pet with an assigned id and the fields sent', async () => {
    const store = createPetstore();
    const pet = await store.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
    assert.deepEqual(pet, { id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    assert.deepEqual(Object.keys(pet), ['id', 'name', 'categoryId', 'status']);
  });

  test('createPet() gives no default status: an absent status stays absent', async () => {
    const store = createPetstore();
    const pet = await store.createPet({ name: 'Tom', categoryId: 1 });
    assert.equal(Object.hasOwn(pet, 'status'), false);
    assert.equal(Object.hasOwn(await store.getPet(pet.id), 'status'), false);
    assert.equal(JSON.stringify(pet), '{"id":1,"name":"Tom","categoryId":1}');
  });

  test('createPet() accepts each PetStatus value', async () => {
    const store = createPetstore();
    for (const status of ['available', 'pending', 'sold'] as const) {
      assert.equal((await store.createPet({ name: 'Pet', categoryId: 1, status })).status, status);
    }
  });

  test('createPet() stores the name exactly as sent, surrounding spaces included', async () => {
    const store = createPetstore();
    for (const name of ['  Rex  ', 'Zoë', '🐕🐈', 'a"b\\c', 'tab\there']) {
      assert.equal((await store.createPet({ name, categoryId: 1 })).name, name);
    }
  });

  test('createPet() accepts names of 1 and 256 code points, counting astral characters once', async () => {
    const store = createPetstore();
    for (const name of ['x', 'x'.repeat(256), '🐕'.repeat(256)]) {
      assert.equal((await store.createPet({ name, categoryId: 1 })).name, name);
    }
  });

  test('createPet() accepts JSON integers written as 1.0 and 1e2, and the safe-integer bounds', async () => {
    const store = createPetstore();
    const cases: [string, number][] = [['1.0', 1], ['1e2', 100], [String(MAX), MAX], [String(-MAX), -MAX], ['0', 0]];
    for (const [text, expected] of cases) {
      const pet = await store.createPet(JSON.parse(`{"name":"n","categoryId":${text}}`));
      assert.equal(pet.categoryId, expected, text);
    }
  });

  test('createPet() turns a categoryId of -0 into 0', async () => {
    const store = createPetstore();
    const pet = await store.createPet(JSON.parse('{"name":"n","categoryId":-0}'));
    assert.ok(Object.is(pet.categoryId, 0));
    assert.equal(JSON.stringify(pet), '{"id":1,"name":"n","categoryId":0}');
  });

  test('createPet() rejects a body that is not a plain JSON object', async () => {
    const store = createPetstore();
    const bodies: unknown[] = [null, undefined, [], [{ name: 'a', categoryId: 1 }], 'a string', 42, true, new Map(), new Date(0), Object.create({ name: 'inherited', categoryId: 1 })];
    for (const body of bodies) {
      const error = await rejection(() => store.createPet(untyped(body)), 'validation_failed');
      assert.deepEqual(fieldsOf(error), ['']);
      assert.match(error.message, /^Cannot create pet: The body must be a JSON object/);
    }
    assert.deepEqual(await store.listPets(), []);
  });

  test('createPet() accepts an object without a prototype', async () => {
    const store = createPetstore();
    const body = Object.assign(Object.create(null) as object, { name: 'Bare', categoryId: 1 });
    assert.equal((await store.createPet(body)).name, 'Bare');
  });

  test('createPet() rejects bad names with a message naming `name`', async () => {
    const store = createPetstore();
    const cases: [unknown, RegExp][] = [
      [undefined, /`name` is required/],
      [null, /`name` must be a string, not null/],
      [42, /`name` must be a string, not a number/],
      [['Rex'], /`name` must be a string, not an array/],
      [{ first: 'Rex' }, /`name` must be a string, not an object/],
      [true, /`name` must be a string, not a boolean/],
      ['', /`name` must not be empty/],
      ['   ', /`name` must contain a character other than white space/],
      ['\t\n\u00a0\u3000', /`name` must contain a character other than white space/],
      ['x'.repeat(257), /`name` must be at most 256 characters long \(it has 257\)/],
      ['🐕'.repeat(257), /at most 256 characters long \(it has 257\)/],
      ['bad \ud800 surrogate', /lone surrogate/],
      ['bad \udc00 surrogate', /lone surrogate/],
      ['ends with \ud83d', /lone surrogate/],
      ['nul \u0000 inside', /NUL character/],
    ];
    for (const [name, message] of cases) {
      const body: Record<string, unknown> = { categoryId: 1 };
      if (name !== undefined) body['name'] = name;
      const error = await rejection(() => store.createPet(untyped(body)), 'validation_failed');
      assert.deepEqual(fieldsOf(error), ['name'], String(name));
      assert.match(error.details?.[0]?.message ?? '', message);
    }
  });

  test('createPet() rejects bad categoryIds, never coercing or rounding them', async () => {
    const store = createPetstore();
    const cases: [string, RegExp][] = [
      ['"5"', /must be an integer, not a string/],
      ['null', /must be an integer, not null/],
      ['1.5', /fractional part/],
      ['-0.5', /fractional part/],
      ['true', /not a boolean/],
      ['[1]', /not an array/],
      ['{"value":1}', /not an object/],
      [String(MAX + 1), /between -9007199254740991 and 9007199254740991/],
      ['9223372036854775807', /cannot be represented exactly/],
      [String(-MAX - 1), /between -9007199254740991/],
      ['1e400', /not finite|fractional/],
    ];
    for (const [text, message] of cases) {
      const error = await rejection(() => store.createPet(JSON.parse(`{"name":"n","categoryId":${text}}`)), 'validation_failed');
      assert.deepEqual(fieldsOf(error), ['categoryId'], text);
      assert.match(error.details?.[0]?.message ?? '', message, text);
    }
    const missing = await rejection(() => store.createPet(untyped({ name: 'n' })), 'validation_failed');
    assert.equal(missing.details?.[0]?.message, '`categoryId` is required');
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 10n]) {
      await rejection(() => store.createPet(untyped({ name: 'n', categoryId: value })), 'validation_failed');
    }
    assert.deepEqual(await store.listPets(), []);
  });

  test('createPet() rejects a status outside the enum, case-sensitively, and null', async () => {
    const store = createPetstore();
    for (const status of ['Available', 'AVAILABLE', 'adopted', '', ' available', null, 1, ['sold'], {}]) {
      const error = await rejection(() => store.createPet(untyped({ name: 'n', categoryId: 1, status })), 'validation_failed');
      assert.deepEqual(fieldsOf(error), ['status'], String(status));
      assert.match(error.details?.[0]?.message ?? '', /`status` must be one of `available`, `pending`, `sold`/);
    }
  });

  test('createPet() rejects unknown fields, id and prototype keys included', async () => {
    const store = createPetstore();
    for (const key of ['id', 'color', 'constructor', 'prototype', 'Name', '']) {
      const error = await rejection(() => store.createPet({ name: 'n', categoryId: 1, [key]: 1 }), 'validation_failed');
      assert.deepEqual(fieldsOf(error), [key]);
      assert.match(error.message, /is not a field of NewPet/);
    }
  });

  test('createPet() is not fooled by a __proto__ own key from JSON.parse', async () => {
    const store = createPetstore();
    const bodies = [
      '{"name":"n","categoryId":1,"__proto__":{"status":"sold"}}',
      '{"__proto__":{"name":"n","categoryId":1}}',
      '{"name":"n","categoryId":1,"\\u005f_proto__":{"isAdmin":true}}',
    ];
    for (const text of bodies) {
      const error = await rejection(() => store.createPet(JSON.parse(text)), 'validation_failed');
      assert.ok(fieldsOf(error).includes('__proto__'), text);
    }
    assert.equal(({} as Record<string, unknown>)['isAdmin'], undefined);
    assert.deepEqual(await store.listPets(), []);
  });

  test('createPet() reports every problem at once', async () => {
    const store = createPetstore();
    const error = await rejection(() => store.createPet(untyped({ name: '', categoryId: 'x', status: 'lost', id: 7, extra: true })), 'validation_failed');
    assert.deepEqual(fieldsOf(error).sort(), ['categoryId', 'extra', 'id', 'name', 'status']);
    assert.match(error.message, /^Cannot create pet: 5 problems, first: /);
  });

  test('createPet() lists at most 20 problems for a body with 100,000 unknown keys', async () => {
    const store = createPetstore();
    const body: Record<string, number> = { name: 1 } as unknown as Record<string, number>;
    for (let index = 0; index < 100_000; index++) body[`key${index}`] = index;
    const error = await rejection(() => store.createPet(untyped(body)), 'validation_failed');
    assert.equal(error.details?.length, 21);
    assert.match(error.details?.at(-1)?.message ?? '', /^\d+ more problems are not listed$/);
  });

  test('createPet() does not run getters or fail on hostile objects', async () => {
    const store = createPetstore();
    const getter = Object.defineProperty({ categoryId: 1 }, 'name', { get: () => { throw new Error('getter ran'); }, enumerable: true });
    await rejection(() => store.createPet(untyped(getter)), 'validation_failed');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    await rejection(() => store.createPet(untyped(proxy)), 'validation_failed');
    const trapping = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    await rejection(() => store.createPet(untyped(trapping)), 'validation_failed');
  });

  test('createPet() copies its input: changing the input later changes nothing', async () => {
    const store = createPetstore();
    const input: NewPet = { name: 'Before', categoryId: 1, status: 'available' };
    const pet = await store.createPet(input);
    input.name = 'After';
    assert.equal((await store.getPet(pet.id)).name, 'Before');
  });
});

describe('ids', () => {
  test('ids are positive, strictly increasing in creation order and never reused', async () => {
    const store = createPetstore();
    const sequential: number[] = [];
    for (let index = 0; index < 10; index++) sequential.push((await store.createPet({ name: `p${index}`, categoryId: 1 })).id);
    assert.deepEqual(sequential, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const concurrent = await Promise.all(Array.from({ length: 100 }, () => store.createPet({ name: 'c', categoryId: 1 })));
    const all = new Set([...sequential, ...concurrent.map((pet) => pet.id)]);
    assert.equal(all.size, 110);
  });

  test('ids a storage returns outside the safe positive range are refused as a storage defect', async () => {
    for (const badId of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      const storage: PetStorage = {
        insert: async (pet) => ({ ...pet, id: badId }),
        get: async () => undefined,
        list: async () => [],
      };
      const error = await rejection(() => createPetstore({ storage }).createPet({ name: 'n', categoryId: 1 }), 'internal_error');
      assert.match(error.message, /Storage defect/);
    }
  });
});

describe('listPets()', () => {
  async function storeWith(count: number): Promise<ReturnType<typeof createPetstore>> {
    const store = createPetstore();
    const statuses = ['available', 'pending', 'sold', undefined] as const;
    for (let index = 0; index < count; index++) {
      const status = statuses[index % 4];
      await store.createPet(status === undefined ? { name: `pet ${index}`, categoryId: 1 } : { name: `pet ${index}`, categoryId: 1, status });
    }
    return store;
  }

  test('listPets() defaults to 20 pets in ascending id order', async () => {
    const store = await storeWith(150);
    const pets = await store.listPets();
    assert.deepEqual(pets.map((pet) => pet.id), Array.from({ length: 20 }, (_, index) => index + 1));
  });

  test('listPets() clamps limits outside 1..100 instead of rejecting them', async () => {
    const store = await storeWith(150);
    const cases: [number, number][] = [[0, 1], [-5, 1], [1, 1], [100, 100], [101, 100], [1000, 100], [1e300, 100], [-0, 1], [50, 50]];
    for (const [limit, expected] of cases) assert.equal((await store.listPets({ limit })).length, expected, String(limit));
  });

  test('listPets() rejects a non-integer limit', async () => {
    const store = await storeWith(3);
    for (const limit of [1.5, Number.NaN, Number.POSITIVE_INFINITY, '10', null, true]) {
      const error = await rejection(() => store.listPets({ limit } as never), 'invalid_parameter');
      assert.match(error.message, /`limit` must be an integer/);
    }
  });

  test('listPets() filters by status', async () => {
    const store = await storeWith(40);
    const pets = await store.listPets({ status: 'pending', limit: 100 });
    assert.equal(pets.length, 10);
    for (const pet of pets) assert.equal(pet.status, 'pending');
  });

  test('listPets() rejects an unknown status', async () => {
    const store = await storeWith(3);
    for (const status of ['Sold', 'unknown', '', null, 3]) {
      const error = await rejection(() => store.listPets({ status } as never), 'invalid_parameter');
      assert.match(error.message, /`status` must be one of/);
    }
  });

  test('listPets() with `after` returns only pets with a larger id; a negative one starts at the beginning', async () => {
    const store = await storeWith(30);
    assert.deepEqual((await store.listPets({ after: 25 })).map((pet) => pet.id), [26, 27, 28, 29, 30]);
    assert.deepEqual((await store.listPets({ after: 30 })), []);
    assert.deepEqual((await store.listPets({ after: -10, limit: 2 })).map((pet) => pet.id), [1, 2]);
    assert.deepEqual((await store.listPets({ after: 4, status: 'available', limit: 2 })).map((pet) => pet.id), [5, 9]);
  });

  test('listPets() rejects an `after` that is not a safe integer', async () => {
    const store = await storeWith(3);
    for (const after of [1.5, MAX + 1, '3', null]) await rejection(() => store.listPets({ after } as never), 'invalid_parameter');
  });

  test('listPets() rejects a query that is not an object', async () => {
    const store = await storeWith(3);
    for (const query of [null, 'limit=5', 5, []]) await rejection(() => store.listPets(query as never), 'invalid_parameter');
  });

  test('listPets() ignores unknown query keys', async () => {
    const store = await storeWith(3);
    assert.equal((await store.listPets({ offset: 2 } as never)).length, 3);
  });

  test('listPetsPage() gives the query of the next page only when more pets match', async () => {
    const store = await storeWith(45);
    const first = await store.listPetsPage({ limit: 20 });
    assert.deepEqual(first.next, { limit: 20, after: 20 });
    const last = await store.listPetsPage({ limit: 20, after: 40 });
    assert.equal(last.pets.length, 5);
    assert.equal(last.next, undefined);
    const exact = await store.listPetsPage({ limit: 5, after: 40 });
    assert.equal(exact.next, undefined);
    const filtered = await store.listPetsPage({ limit: 2, status: 'sold' });
    assert.deepEqual(filtered.next, { limit: 2, after: 7, status: 'sold' });
  });
});

describe('getPet()', () => {
  test('getPet() returns the pet with that id', async () => {
    const store = createPetstore();
    const created = await store.createPet({ name: 'Rex', categoryId: 9, status: 'sold' });
    assert.deepEqual(await store.getPet(created.id), created);
  });

  test('getPet() rejects unknown ids, negative and beyond the safe range included, with not_found', async () => {
    const store = createPetstore();
    await store.createPet({ name: 'Rex', categoryId: 9 });
    for (const id of [0, -1, 2, 1000, MAX, MAX + 1, 2 ** 64]) {
      const error = await rejection(() => store.getPet(id), 'not_found');
      assert.match(error.message, /^Pet -?\d+(e\+\d+)? was not found$/);
    }
  });

  test('getPet() rejects an id that is not an integer with invalid_parameter', async () => {
    const store = createPetstore();
    for (const id of [1.5, Number.NaN, '1', null, undefined]) await rejection(() => store.getPet(id as never), 'invalid_parameter');
  });
});

describe('returned pets', () => {
  test('returned pets are frozen: a caller cannot change the store through them', async () => {
    const store = createPetstore();
    const created = await store.createPet({ name: 'Solid', categoryId: 1, status: 'available' });
    const [listed] = await store.listPets();
    const fetched = await store.getPet(1);
    for (const pet of [created, listed as Pet, fetched]) {
      assert.ok(Object.isFrozen(pet));
      assert.throws(() => { (pet as { name: string }).name = 'Changed'; }, TypeError);
    }
    const list = await store.listPets();
    list.pop();
    assert.equal((await store.listPets()).length, 1);
    assert.equal((await store.getPet(1)).name, 'Solid');
  });

  test('returned pets from a storage that hands out mutable objects are frozen copies', async () => {
    const shared: Pet = { id: 1, name: 'Shared', categoryId: 1 };
    const storage: PetStorage = { insert: async () => shared, get: async () => shared, list: async () => [shared] };
    const store = createPetstore({ storage });
    const fetched = await store.getPet(1);
    assert.ok(Object.isFrozen(fetched));
    assert.equal(Object.isFrozen(shared), false);
    assert.ok(Object.isFrozen((await store.listPets())[0]));
    assert.ok(Object.isFrozen(await store.createPet({ name: 'n', categoryId: 1 })));
  });
});

describe('checkReady()', () => {
  test('checkReady() resolves for a storage without checkReady, such as the in-memory one', async () => {
    const store = createPetstore();
    await store.checkReady();
    await createPetstore({ storage: { insert: async () => assert.fail('not called'), get: async () => undefined, list: async () => [] } }).checkReady();
  });

  test('checkReady() asks the storage\'s checkReady each time, resolving and rejecting as it does', async () => {
    let calls = 0;
    let problem: PetstoreError | undefined;
    const storage: PetStorage = {
      ...createMemoryStorage(),
      async checkReady() {
        calls++;
        if (problem !== undefined) throw problem;
      },
    };
    const store = createPetstore({ storage });
    await store.checkReady();
    problem = new PetstoreError('unavailable', 'Data file /srv/pets.journal refuses writes: ENOSPC');
    const error = await rejection(() => store.checkReady(), 'unavailable', /refuses writes: ENOSPC/);
    assert.equal(error, problem);
    problem = undefined;
    await store.checkReady();
    assert.equal(calls, 3);
  });
});
