import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createPetstore } from '../../lib/index.js';
import { READONLY_CONSUMER } from '../support/readonly-consumer.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');

test('Pet is read-only in the types of the engine, the storage contract and the client: a strict consumer that assigns to a returned pet fails to type-check', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-readonly-'));
  try {
    await writeFile(join(directory, 'consumer.ts'), READONLY_CONSUMER);
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
