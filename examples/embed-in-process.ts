// Embedding the engine: a service calls the spec's operations directly, without HTTP.
// Run: npx tsx examples/embed-in-process.ts
// From an installed package the import reads: import { createPetstore, PetstoreError, validateNewPet } from 'petstore-reference';
import { pathToFileURL } from 'node:url';
import { createPetstore, PetstoreError, validateNewPet } from '../lib/index.js';

/** Adds three pets, lists and fetches them, and shows a rejected input; each step is one line of `log`. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const store = createPetstore(); // in-memory storage; pass { storage } for a durable one
  try {
    const rex = await store.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    await store.createPet({ name: 'Tom', categoryId: 2, status: 'sold' });
    await store.createPet({ name: 'Kit', categoryId: 2 }); // no status: none is assigned [spec 2]
    log(`created ${JSON.stringify(rex)}`);

    const available = await store.listPets({ status: 'available' });
    log(`available: ${available.map((pet) => pet.name).join(', ')}`);
    const firstTwo = await store.listPets({ limit: 2 });
    log(`first page of 2: ${firstTwo.map((pet) => pet.id).join(', ')}`);
    log(`getPet(${rex.id}): ${(await store.getPet(rex.id)).name}`);

    try {
      // Input from outside the program (a form, a message) is `unknown` until validateNewPet narrows it.
      const fromOutside: unknown = { name: '', categoryId: 1.5, color: 'brown' };
      await store.createPet(validateNewPet(fromOutside));
    } catch (error) {
      if (!(error instanceof PetstoreError)) throw error;
      // The same code, status and details the HTTP interface sends as its Error body [spec 7].
      log(`rejected: ${error.status} ${error.code}: ${(error.details ?? []).map((detail) => detail.field).join(', ')}`);
    }
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
