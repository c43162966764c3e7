import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { consumerEnv, packPackage } from './support/pack.js';
import { codeBlocks, printedLines, shellLines } from './support/readme.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');
const packageName = 'petstore-reference';
const README = await readFile(join(root, 'README.md'), 'utf8');

/** Every subpath the package exports, with a name each must provide. */
const ENTRY_POINTS: [string, string][] = [
  [packageName, 'createPetstore'],
  [`${packageName}/server`, 'createHandler'],
  [`${packageName}/core`, 'createRequestCore'],
  [`${packageName}/client`, 'PetstoreClient'],
  [`${packageName}/testing`, 'runStorageContract'],
];

/** The README's install steps: the shell block that starts with `npm pack`, one command per item. */
function installSteps(): string[] {
  const block = codeBlocks(README, 'sh').find((candidate) => candidate.startsWith('npm pack'));
  assert.ok(block !== undefined, 'the README shows how to install the tarball');
  return shellLines(block).flatMap((line) => line.replace(/\s+#\s.*$/, '').split('&&').map((part) => part.trim())).filter((part) => part !== '');
}

/** tsx from the repository, standing for the consumer's own `npm install --save-dev tsx`: the install stays offline. */
const TSX = join(root, 'node_modules', '.bin', 'tsx');

/** The README's server sample listens on 8080; here on a free port. */
const README_PORT = 'port: 8080';

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

describe('the packed package, installed as the README says', () => {
  let work = '';
  let consumer = '';
  const samples: string[] = [];

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-consumer-'));
    const stage = join(work, 'stage');
    consumer = join(work, 'consumer');
    await Promise.all([mkdir(stage), mkdir(consumer)]);
    for (const step of installSteps()) {
      if (step === 'npm pack') {
        // In the clone: builds and packs; here into a stage of its own, and the tarball goes straight into the project.
        await packPackage({ stage, destination: consumer });
      } else if (step.startsWith('npx tsx ')) {
        samples.push(step);
      } else {
        assert.match(step, /^npm (init -y|pkg set type=module|install \.\/petstore-reference-[0-9.]+\.tgz)$/, `an install step this test knows: ${step}`);
        await run('bash', ['-c', step], { cwd: consumer, env: consumerEnv() });
      }
    }
    assert.deepEqual(samples, ['npx tsx sample.ts']);
  });

  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('the README\'s install steps make a project of ES modules that depends on the tarball', async () => {
    const manifest = JSON.parse(await readFile(join(consumer, 'package.json'), 'utf8')) as { type?: string; dependencies?: Record<string, string> };
    assert.equal(manifest.type, 'module');
    assert.match(manifest.dependencies?.[packageName] ?? '', /^file:petstore-reference-[0-9.]+\.tgz$/);
  });

  test('the packed package ships dist, the sources, the guides and what they link to, README, LICENSE and a package.json without lifecycle scripts', async () => {
    const installed = join(consumer, 'node_modules', packageName);
    assert.deepEqual((await readdir(installed)).sort(), ['LICENSE', 'README.md', 'bench', 'dist', 'docs', 'examples', 'extras', 'lib', 'openapi.json', 'package.json', 'server']);
    assert.deepEqual((await readdir(join(installed, 'examples'))).sort(), [
      'custom-storage.ts', 'embed-in-process.ts', 'hosts', 'mount-in-existing-server.ts', 'quickstart-messages.ts', 'remote-client.ts', 'seed-pets.json',
    ]);
    assert.deepEqual((await readdir(join(installed, 'bench'))).sort(), ['RESULTS-file-storage.md', 'RESULTS-gauge.md', 'RESULTS-postgres.md', 'RESULTS.md']);
    const scripts = (JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // A consumer's npm would run none of these, but they are install scripts by name, and tools warn of them.
    for (const name of ['prepare', 'preinstall', 'install', 'postinstall']) assert.equal(scripts[name], undefined, name);
  });

  test('the installed README\'s links point to files installed with it', async () => {
    const installed = join(consumer, 'node_modules', packageName);
    const targets = [...README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1] ?? '').filter((target) => !/^https?:/.test(target));
    assert.ok(targets.includes('docs/interface.md'));
    for (const target of targets) assert.ok(await exists(join(installed, target)), `README links to ${target}, which the package does not ship`);
  });

  test('npx petstore-reference --help names the folder the guides were installed in', async () => {
    const { stdout } = await run('npx', ['--no-install', packageName, '--help'], { cwd: consumer, env: consumerEnv() });
    const docs = join(consumer, 'node_modules', packageName, 'docs');
    assert.ok(stdout.includes(`\n  ${docs}\n`), stdout);
    assert.ok(await exists(join(docs, 'interface.md')));
  });

  test('every TypeScript sample of the README runs in the project as the README says, printing what it says it prints', async () => {
    const blocks = codeBlocks(README, 'ts');
    assert.ok(blocks.length >= 2);
    for (const block of blocks) {
      await writeFile(join(consumer, 'sample.ts'), block);
      const expected = printedLines(block);
      if (expected.length > 0) {
        const { stdout } = await run(TSX, ['sample.ts'], { cwd: consumer, env: consumerEnv() });
        assert.deepEqual(stdout.trimEnd().split('\n'), expected, block);
        continue;
      }
      // The one sample that prints nothing it states is the server, which runs until SIGTERM.
      assert.ok(block.includes(README_PORT), block);
      const apiKey = /apiKeys: \['([^']+)'\]/.exec(block)?.[1];
      assert.ok(apiKey !== undefined, block);
      await writeFile(join(consumer, 'sample.ts'), block.replace(README_PORT, 'port: 0'));
      await runServerSample(consumer, apiKey);
    }
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
      "const handler = createHandler({ store: createPetstore(), apiKeys: ['consumer-key-0123456789'] });",
      'export const host = createServer((request, response) => handler(request, response, () => response.end()));',
      "export const running: Promise<RunningServer> = startServer({ store: createPetstore(), apiKeys: ['consumer-key-0123456789'], port: 0 });",
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
    const child = spawn(process.execPath, [join(consumer, 'node_modules', packageName, 'dist', 'extras', 'cli', 'main.js')], {
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

/** Runs the README's server sample with tsx: it says where it listens, answers with the sample's key, and stops on SIGTERM with status 0. */
async function runServerSample(consumer: string, apiKey: string): Promise<void> {
  // tsx relays the signals it gets to the node process that runs the sample, so SIGTERM goes to tsx alone (the sample stops on the first).
  const child = spawn(TSX, ['sample.ts'], { cwd: consumer, env: consumerEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  let output = '';
  child.stderr.on('data', (data: Buffer) => {
    output += data.toString('utf8');
  });
  try {
    const url = await new Promise<string>((found, fail) => {
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString('utf8');
        const match = /^Petstore listening on (http:\/\/\S+)$/m.exec(output);
        if (match?.[1] !== undefined) found(match[1]);
      });
      void exited.then((code) => fail(new Error(`the server sample exited with ${code} before listening: ${output}`)));
    });
    const answer = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), []);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  assert.equal(await exited, 0, output);
}
