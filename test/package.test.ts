import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
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
  [`${packageName}/server`, 'createHandler'],
  [`${packageName}/client`, 'PetstoreClient'],
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

  test('the packed client type-checks without Node typings, and the server with them', async () => {
    await writeFile(join(consumer, 'client.ts'), [
      `import { PetstoreClient } from '${packageName}/client';`,
      `import type { DeprecationNotice, LinkValue } from '${packageName}/client';`,
      `import type { Pet, PetstoreApi } from '${packageName}';`,
      "const client: PetstoreApi = new PetstoreClient({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'key', onDeprecation: (notice: DeprecationNotice) => notice.sunsetAt });",
      'export async function names(remote: PetstoreClient): Promise<string[]> {',
      '  const seen: string[] = [];',
      "  for await (const pet of remote.pets({ status: 'sold' })) seen.push(pet.name);",
      '  return seen;',
      '}',
      'export const first: Promise<Pet[]> = client.listPets({ limit: 1 });',
      'export type Links = LinkValue[];',
    ].join('\n'));
    await writeFile(join(consumer, 'server.ts'), [
      "import { createServer } from 'node:http';",
      `import { createPetstore } from '${packageName}';`,
      `import { createOpenApiDocument } from '${packageName}/openapi';`,
      `import { createHandler, startServer } from '${packageName}/server';`,
      `import type { RunningServer } from '${packageName}/server';`,
      "const handler = createHandler({ store: createPetstore(), apiKeys: ['key'] });",
      'export const host = createServer((request, response) => handler(request, response, () => response.end()));',
      "export const running: Promise<RunningServer> = startServer({ store: createPetstore(), apiKeys: ['key'], port: 0 });",
      "export const version: string = createOpenApiDocument().info.version;",
    ].join('\n'));
    const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false };
    await writeFile(join(consumer, 'tsconfig.client.json'), JSON.stringify({ compilerOptions: { ...options, lib: ['ES2022'], types: [] }, files: ['client.ts'] }));
    await writeFile(join(consumer, 'tsconfig.server.json'), JSON.stringify({
      compilerOptions: { ...options, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] },
      files: ['server.ts'],
    }));
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    for (const project of ['tsconfig.client.json', 'tsconfig.server.json']) {
      const result = await run(tsc, ['-p', join(consumer, project)]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      assert.equal(result.stdout.trim(), '', project);
    }
  });

  test('the packed server starts with plain node on PORT=0 and answers an authenticated request', async () => {
    const child = spawn(process.execPath, [join(consumer, 'node_modules', packageName, 'dist', 'cli', 'main.js')], {
      cwd: consumer,
      env: { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: 'packed-key-0123456' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
    try {
      const url = await new Promise<string>((found, fail) => {
        let stdout = '';
        child.stdout.on('data', (data: Buffer) => {
          stdout += data.toString('utf8');
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match?.[1] !== undefined) found(match[1]);
        });
        exited.then((code) => fail(new Error(`the packed server exited with ${code} before listening`)));
      });
      const created = await fetch(`${url}/pets`, { method: 'POST', headers: { authorization: 'Bearer packed-key-0123456', 'content-type': 'application/json' }, body: '{"name":"Packed","categoryId":1}' });
      assert.equal(created.status, 201);
      assert.deepEqual(await created.json(), { id: 1, name: 'Packed', categoryId: 1 });
      assert.equal((await fetch(`${url}/pets`)).status, 401);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
