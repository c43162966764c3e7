import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { consumerEnv, installTarball, packPackage } from '../../support/pack.js';
import { ROOT, startNodeAdapter } from './support/targets.js';
import { toolBin } from '../../tools/paths.js';
import type { Target } from './support/targets.js';

const run = promisify(execFile);

/** A program that runs the packed kit with whatever runtime runs it (Node, Deno or Bun) and prints the summary line. */
const KIT_PROGRAM = `
const { runConformance, summarize, formatSummary } = await import('./node_modules/petstore-reference/dist/extras/conformance/index.js');
const [baseUrl, apiKey] = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const results = await runConformance({ baseUrl, apiKey, level: 'reference' });
console.log(formatSummary(summarize(results)));
`;

/** The environment of a child process: no coverage collection, which would only slow it down. */
const childEnv = consumerEnv;

describe('the packed conformance kit', () => {
  let work = '';
  let consumer = '';
  let target: Target;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-conformance-'));
    consumer = join(work, 'consumer');
    const stage = join(work, 'package');
    await mkdir(stage);
    const tarball = await packPackage({ stage, destination: work });
    await mkdir(consumer);
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await installTarball(consumer, tarball);
    target = await startNodeAdapter();
  });

  after(async () => {
    await target?.close();
    await rm(work, { recursive: true, force: true });
  });

  test('npx petstore-reference conformance from an installed tarball passes a live server and exits 0', async () => {
    const { stdout } = await run('npx', ['--no-install', 'petstore-reference', 'conformance', target.baseUrl, '--key', target.apiKey], { cwd: consumer, env: childEnv() });
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines.at(-1) ?? '', /^2\d passed, 0 failed, 0 skipped$/);
    assert.ok(lines.slice(1, -1).every((line) => line.startsWith('PASS ')), stdout);
  });

  test('npx petstore-reference conformance --level reference writes a JUnit report and exits 0', async () => {
    const { stdout } = await run('npx', ['--no-install', 'petstore-reference', 'conformance', target.baseUrl, '--key', target.apiKey, '--level', 'reference', '--junit-report', 'report.xml'], { cwd: consumer, env: childEnv() });
    assert.match(stdout, /\n\d+ passed, 0 failed, 0 skipped\n$/);
    assert.match(await readFile(join(consumer, 'report.xml'), 'utf8'), /<testsuites name="petstore conformance \(reference\) of http:\/\/127\.0\.0\.1:\d+\/v1" tests="\d+" failures="0" errors="0" skipped="0"/);
  });

  test('npx petstore-reference conformance exits 2 for a usage error', async () => {
    const refused = await run('npx', ['--no-install', 'petstore-reference', 'conformance', target.baseUrl], { cwd: consumer, env: childEnv() }).catch((error: { code: number; stderr: string }) => error);
    assert.ok('code' in refused && refused.code === 2);
    assert.match(refused.stderr, /--key is missing/);
  });

  test('the packed kit runs under Deno and Bun as well as Node, passing a live server at the reference level', async () => {
    await writeFile(join(consumer, 'kit.mjs'), KIT_PROGRAM);
    const runtimes: [string, string[]][] = [
      [process.execPath, ['kit.mjs']],
      [toolBin('deno'), ['run', '--quiet', '--no-config', '--allow-net=127.0.0.1', 'kit.mjs']],
      [toolBin('bun'), ['kit.mjs']],
    ];
    for (const [runtime, args] of runtimes) {
      const { stdout } = await run(runtime, [...args, target.baseUrl, target.apiKey], { cwd: consumer, env: childEnv({ DENO_DIR: join(work, 'deno') }) });
      assert.match(stdout, /^\d+ passed, 0 failed, 0 skipped\n$/, runtime);
    }
  });

  test('the packed conformance entry point type-checks without DOM or Node typings', async () => {
    await writeFile(join(consumer, 'kit.ts'), [
      "import { runConformance, validateResponse } from 'petstore-reference/conformance';",
      "import type { CheckResult, Departure } from 'petstore-reference/conformance';",
      "export const results: Promise<CheckResult[]> = runConformance({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'key', level: 'reference' });",
      "export const departures: Departure[] = validateResponse('listPets', 200, { 'content-type': 'application/json' }, []);",
    ].join('\n'));
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, lib: ['ES2022'], types: [] },
      files: ['kit.ts'],
    }));
    const result = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', consumer]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    assert.equal(result.stdout.trim(), '');
  });
});
