import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstore, PetstoreError } from '../../lib/index.js';
import type { PetstoreApi } from '../../lib/index.js';

/**
 * A misspelled field. The `@ts-expect-error` lines are the test: `npm test` type-checks this file
 * first, and fails with "Unused '@ts-expect-error' directive" the day such a call compiles.
 */
async function createWithTypo(store: PetstoreApi): Promise<unknown> {
  // @ts-expect-error `nmae` is not a field of NewPet
  return store.createPet({ nmae: 'Typo', categoryId: 1 });
}

/** The same for the other mistakes a typed caller can make: a status outside PetStatus, a categoryId given as text. */
async function createWithWrongTypes(store: PetstoreApi): Promise<unknown[]> {
  return Promise.allSettled([
    // @ts-expect-error `status` must be one of the PetStatus values
    store.createPet({ name: 'Rex', categoryId: 1, status: 'lost' }),
    // @ts-expect-error `categoryId` is a number
    store.createPet({ name: 'Rex', categoryId: '1' }),
  ]);
}

test('createPet() takes a NewPet in the engine: a misspelled field is a compile error, and still a 400 at run time', async () => {
  const store = createPetstore();
  await assert.rejects(createWithTypo(store), (error: unknown) => error instanceof PetstoreError && error.code === 'validation_failed');
  const settled = await createWithWrongTypes(store);
  assert.equal(settled.length, 2);
  assert.deepEqual(await store.listPets(), []);
});
