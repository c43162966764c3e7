import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');
const packageName = 'petstore-reference';

/** Every subpath the package exports, with a name each must provide. */
const ENTRY_POINTS: [string, string][] = [
  [packageName, 'createPetstore'],
  [`${packageName}/testing`, 'runStorageContract'],
];

describe('the packed package', () => {
  let consumer = '';

  before(async () => {
    consumer = await mkdtemp(join(tmpdir(), 'petstore-consumer-'));
    await run('npm', ['pack', '--silent', '--pack-destination', consumer], { cwd: root });
    const tarball = (await readdir(consumer)).find((file) => file.endsWith('.tgz'));
    assert.ok(tarball !== undefined, 'npm pack wrote a tarball');
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--silent', '--no-audit', '--no-fund', '--ignore-scripts', join(consumer, tarball)], { cwd: consumer });
  });

  after(async () => {
    await rm(consumer, { recursive: true, force: true });
  });

  test('the packed package ships only dist, README, LICENSE and package.json', async () => {
    const installed = join(consumer, 'node_modules', packageName);
    const top = (await readdir(installed)).sort();
    assert.deepEqual(top, ['LICENSE', 'README.md', 'dist', 'package.json']);
  });

  test('the packed package imports with plain node from every entry point', async () => {
    const script = [
      `import { createPetstore } from '${packageName}';`,
      ...ENTRY_POINTS.map(([specifier, name], index) => `import { ${name} as entry${index} } from '${specifier}';`),
      ...ENTRY_POINTS.map((_, index) => `if (typeof entry${index} !== 'function') throw new Error('missing export ${index}');`),
      'const store = createPetstore();',
      "const pet = await store.createPet({ name: 'Rex', categoryId: 1 });",
      'console.log(JSON.stringify(await store.getPet(pet.id)));',
    ].join('\n');
    await writeFile(join(consumer, 'main.mjs'), script);
    const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: consumer });
    assert.equal(stdout.trim(), '{"id":1,"name":"Rex","categoryId":1}');
  });

  test('the packed package type-checks from a TypeScript consumer', async () => {
    const source = [
      `import { createPetstore, PetstoreError } from '${packageName}';`,
      `import type { Pet, PetStatus } from '${packageName}';`,
      'const store = createPetstore();',
      "const status: PetStatus = 'sold';",
      "const pet: Pet = await store.createPet({ name: 'Rex', categoryId: 1, status });",
      'const id: number = pet.id;',
      "const error: PetstoreError = new PetstoreError('not_found', `Pet ${id} was not found`);",
      'export { error };',
      '// @ts-expect-error getPet takes a number',
      "await store.getPet('1');",
    ].join('\n');
    await writeFile(join(consumer, 'consumer.ts'), source);
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: ['consumer.ts'],
    }));
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const result = await run(tsc, ['-p', consumer]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    assert.equal(result.stdout.trim(), '');
  });
});
