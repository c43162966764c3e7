// A child process for the storage-ceiling test: `count` keyed creates through the engine on the
// in-memory storage, then a retry of the last key; prints one JSON line of what it saw.
import { createPetstore } from '../../lib/index.js';

const count = Number(process.argv[2]);
if (!Number.isSafeInteger(count) || count < 1) throw new Error('usage: many-keys.ts <count>');
const store = createPetstore();
const pet = { name: 'Rex', categoryId: 1 };
let created = 0;
let failure: string | undefined;
for (let index = 1; index <= count; index++) {
  try {
    await store.createPet(pet, { idempotencyKey: `k${index}` });
    created++;
  } catch (error) {
    failure = `create ${index}: ${error instanceof Error ? error.message : String(error)}`;
    break;
  }
}
const last = `k${created}`;
const retry = await store.createPetOutcome(pet, { idempotencyKey: last }).then((outcome) => ({ id: outcome.pet.id, isReplay: outcome.isReplay }), (error: unknown) => String(error));
const page = await store.listPetsPage({ after: created - 1, limit: 5 });
process.stdout.write(`${JSON.stringify({ created, failure, retry, lastIds: page.pets.map((stored) => stored.id) })}\n`);
