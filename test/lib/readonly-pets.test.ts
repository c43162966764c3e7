import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createPetstore } from '../../lib/index.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * A consumer of every entry point that hands out pets: each assignment to a returned pet's field is
 * marked `@ts-expect-error`, so tsc fails with "Unused '@ts-expect-error' directive" the day one of
 * them type-checks again (and would throw at run time, the pet being frozen).
 */
const CONSUMER = `
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

test('Pet is read-only in the types of the engine, the storage contract and the client: a strict consumer that assigns to a returned pet fails to type-check', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-readonly-'));
  try {
    await writeFile(join(directory, 'consumer.ts'), CONSUMER);
    await writeFile(join(directory, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(directory, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true, verbatimModuleSyntax: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
        paths: {
          'petstore-reference': [join(ROOT, 'lib', 'index.ts')],
          'petstore-reference/client': [join(ROOT, 'extras', 'client', 'index.ts')],
        },
      },
      files: ['consumer.ts'],
    }));
    const result = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', directory]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    assert.equal(result.stdout.trim(), '');
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});

test('Pet is frozen at run time, as its type says: an assignment to a returned pet changes nothing', async () => {
  const pet = await createPetstore().createPet({ name: 'Rex', categoryId: 1 });
  assert.ok(Object.isFrozen(pet));
  assert.equal(Reflect.set(pet, 'name', 'Max'), false);
  assert.equal(pet.name, 'Rex');
});
