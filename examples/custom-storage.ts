// A custom storage: a sorted array with binary search, checked by the contract suite every storage must pass.
// Run: npx tsx examples/custom-storage.ts   (runs the contract suite with node:test and prints its report)
// From an installed package the imports read:
//   import { createPetstore } from 'petstore-reference';
//   import type { NewPet, Pet, PetStorage, StorageListQuery } from 'petstore-reference';
//   import { runStorageContract } from 'petstore-reference/testing';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstore } from '../lib/index.js';
import type { NewPet, Pet, PetStorage, StorageListQuery } from '../lib/index.js';
import { runStorageContract } from '../server/testing/index.js';

/** The stored form of a pet: frozen, so handing it out cannot let a caller change the storage. */
function stored(id: number, pet: NewPet): Pet {
  const { name, categoryId, status } = pet;
  return Object.freeze(status === undefined ? { id, name, categoryId } : { id, name, categoryId, status });
}

/**
 * Pets in one array in ascending id order, which holds because every new id is larger than the last.
 * `list` finds its start by binary search and reads on from there: O(log n + what it reads).
 */
export function createArrayStorage(): PetStorage {
  const pets: Pet[] = [];

  /** Index of the first pet whose id is greater than `id`. */
  function firstAfter(id: number): number {
    let low = 0;
    let high = pets.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((pets[middle]?.id ?? Infinity) <= id) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  return {
    // Synchronous inside, so concurrent inserts can never get the same id.
    async insert(pet: NewPet): Promise<Pet> {
      const created = stored((pets.at(-1)?.id ?? 0) + 1, pet);
      pets.push(created);
      return created;
    },
    async get(id: number): Promise<Pet | undefined> {
      const pet = pets[firstAfter(id - 1)];
      return pet?.id === id ? pet : undefined;
    },
    async list({ status, after, limit }: StorageListQuery): Promise<Pet[]> {
      const found: Pet[] = [];
      for (let index = firstAfter(after); index < pets.length && found.length < limit; index++) {
        const pet = pets[index];
        if (pet !== undefined && (status === undefined || pet.status === status)) found.push(pet);
      }
      return found;
    },
  };
}

runStorageContract('array', { makeStorage: createArrayStorage });

test('the array storage serves a Petstore', async () => {
  const store = createPetstore({ storage: createArrayStorage() });
  const rex = await store.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
  assert.deepEqual(await store.listPets({ status: 'available' }), [rex]);
  assert.deepEqual(await store.getPet(rex.id), rex);
});
