import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createPetstore, PetstoreError, seedPets } from '../../lib/index.js';
import type { ErrorDetail } from '../../lib/index.js';
import { ROOT } from '../support/process.js';

/** The validation error a seed is refused with. */
async function refusal(input: unknown): Promise<PetstoreError> {
  const store = createPetstore();
  const error = await seedPets(store, input).then(() => undefined, (reason: unknown) => reason);
  assert.ok(error instanceof PetstoreError, String(error));
  assert.equal(error.code, 'validation_failed');
  assert.deepEqual(await store.listPets(), [], 'nothing was stored');
  return error;
}

describe('seedPets()', () => {
  test('seedPets() creates every pet of an empty store in the order given, so ids follow it', async () => {
    const store = createPetstore();
    const report = await seedPets(store, [{ name: 'First', categoryId: 2, status: 'sold' }, { name: 'Second', categoryId: 1 }, { name: 'Third', categoryId: 3, status: 'pending' }]);
    assert.deepEqual(report, { seeded: 3, skipped: false });
    assert.deepEqual(await store.listPets(), [
      { id: 1, name: 'First', categoryId: 2, status: 'sold' },
      { id: 2, name: 'Second', categoryId: 1 },
      { id: 3, name: 'Third', categoryId: 3, status: 'pending' },
    ]);
  });

  test('seedPets() leaves a store that already holds a pet alone, and says it skipped', async () => {
    const store = createPetstore();
    await store.createPet({ name: 'Already here', categoryId: 1 });
    assert.deepEqual(await seedPets(store, [{ name: 'Seeded', categoryId: 1 }]), { seeded: 0, skipped: true });
    assert.deepEqual((await store.listPets()).map((pet) => pet.name), ['Already here']);
  });

  test('seedPets() with an empty array seeds nothing and skips nothing', async () => {
    assert.deepEqual(await seedPets(createPetstore(), []), { seeded: 0, skipped: false });
  });

  test('seedPets() refuses the whole seed for one invalid entry, naming its index and every problem, before storing anything', async () => {
    const error = await refusal([{ name: 'Fine', categoryId: 1 }, { name: 'Fine too', categoryId: 2 }, { categoryId: 1.5, status: 'lost', id: 9 }, { name: 'Good', categoryId: 4 }, 'Rex']);
    const details: ErrorDetail[] = error.details ?? [];
    assert.deepEqual(details.map((detail) => detail.field), ['[2].id', '[2].name', '[2].categoryId', '[2].status', '[4]']);
    assert.match(details[1]?.message ?? '', /`name` is required/);
    assert.match(details[4]?.message ?? '', /must be a JSON object, not a string/);
    assert.match(error.message, /^Cannot seed pets: 5 problems, first: \[2\]\.id: `id` is not a field of NewPet/);
  });

  test('seedPets() names the one problem of a seed in its message', async () => {
    const error = await refusal([{ name: '', categoryId: 1 }]);
    assert.equal(error.message, 'Cannot seed pets: [0].name: `name` must not be empty');
  });

  test('seedPets() refuses anything but an array', async () => {
    for (const [input, described] of [[{ name: 'Rex', categoryId: 1 }, 'an object'], ['[]', 'a string'], [null, 'null'], [undefined, 'undefined'], [3, 'a number']] as const) {
      const error = await refusal(input);
      assert.deepEqual(error.details, [{ field: '', message: `The seed must be a JSON array of NewPets, not ${described}` }], described);
    }
  });

  test('seedPets() lists at most 100 problems and says how many more there are', async () => {
    const error = await refusal(Array.from({ length: 60 }, () => ({})));
    const details = error.details ?? [];
    assert.equal(details.length, 101);
    assert.deepEqual(details.at(-1), { field: '', message: '20 more problems are not listed' });
    assert.match(error.message, /^Cannot seed pets: 120 problems, first: \[0\]\.name/);
  });

  test('seedPets() refuses an array it cannot read (a revoked Proxy) as not an array', async () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const error = await refusal(proxy);
    assert.match(error.message, /must be a JSON array/);
  });

  test('seedPets() accepts the example seed file: ten pets of every status', async () => {
    const input: unknown = JSON.parse(await readFile(join(ROOT, 'examples', 'seed-pets.json'), 'utf8'));
    const store = createPetstore();
    assert.deepEqual(await seedPets(store, input), { seeded: 10, skipped: false });
    const pets = await store.listPets({ limit: 100 });
    assert.deepEqual(new Set(pets.map((pet) => pet.status)), new Set(['available', 'pending', 'sold', undefined]));
  });
});
