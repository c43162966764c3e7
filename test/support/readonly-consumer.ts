/**
 * A consumer of every entry point that hands out pets: each assignment to a returned pet's field is
 * marked `@ts-expect-error`, so tsc fails with "Unused '@ts-expect-error' directive" the day one of
 * them type-checks again (and would throw at run time, the pet being frozen). test/lib/readonly-pets.test.ts
 * type-checks it against the sources, test/hosts/packed.test.ts against the installed package.
 */
export const READONLY_CONSUMER = `
import { createMemoryStorage, createPetstore } from 'petstore-reference';
import type { Pet, PetStorage } from 'petstore-reference';
import { PetstoreClient } from 'petstore-reference/client';

export async function engine(): Promise<void> {
  const store = createPetstore();
  const created = await store.createPet({ name: 'Rex', categoryId: 1 });
  // @ts-expect-error a created pet is read-only
  created.name = 'Max';
  const [listed] = await store.listPets();
  // @ts-expect-error a listed pet is read-only
  if (listed !== undefined) listed.status = 'sold';
  const fetched = await store.getPet(created.id);
  // @ts-expect-error a fetched pet is read-only
  fetched.categoryId = 2;
  const outcome = await store.createPetOutcome({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k' });
  // @ts-expect-error a pet of createPetOutcome is read-only
  outcome.pet.id = 7;
}

export async function storage(storage: PetStorage = createMemoryStorage()): Promise<void> {
  const inserted = await storage.insert({ name: 'Rex', categoryId: 1 });
  // @ts-expect-error a pet a storage inserted is read-only
  inserted.name = 'Max';
  const got = await storage.get(1);
  // @ts-expect-error a pet a storage got is read-only
  if (got !== undefined) got.name = 'Max';
  const [listed] = await storage.list({ status: undefined, after: 0, limit: 1 });
  // @ts-expect-error a pet a storage listed is read-only
  if (listed !== undefined) listed.name = 'Max';
}

export async function client(client: PetstoreClient): Promise<void> {
  const created = await client.createPet({ name: 'Rex', categoryId: 1 });
  // @ts-expect-error a pet the client created is read-only
  created.name = 'Max';
  const [listed] = await client.listPets();
  // @ts-expect-error a pet the client listed is read-only
  if (listed !== undefined) listed.name = 'Max';
  const fetched = await client.getPet(1);
  // @ts-expect-error a pet the client fetched is read-only
  fetched.name = 'Max';
  for await (const pet of client.pets()) {
    // @ts-expect-error a pet of the client's pages is read-only
    pet.name = 'Max';
  }
}

// Building a pet stays possible: read-only is about what is handed out, not about making one.
export const built: Pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
`;
