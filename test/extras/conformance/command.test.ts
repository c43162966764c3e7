import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { runConformanceCommand } from '../../../extras/conformance/index.js';
import type { CommandIo, ConformanceFetch } from '../../../extras/conformance/index.js';
import { MUTANTS } from './support/mutants.js';
import { KIT_KEY, ROOT, startFetchTarget, startNodeAdapter } from './support/targets.js';
import { closingAfter } from '../../support/closing.js';

const run = promisify(execFile);

/** The command's output, and the files it wrote. */
interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  files: Map<string, string>;
}

async function command(argv: readonly string[], io: Partial<CommandIo> = {}): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const files = new Map<string, string>();
  const code = await runConformanceCommand(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    writeFile: async (path, text) => void files.set(path, text),
    ...io,
  });
  return { code, stdout, stderr, files };
}

/** A fetch that must not be called. */
const NO_FETCH: ConformanceFetch = () => {
  throw new Error('no request may be sent');
};

describe('runConformanceCommand()', () => {
  test('runConformanceCommand() --help prints the usage with every option and exits 0', async () => {
    const { code, stdout } = await command(['--help']);
    assert.equal(code, 0);
    for (const option of ['<baseUrl>', '--key', '--level spec|reference', '--only', '--skip', '--timeout', '--json', '--junit-report', '--list', '--run-id', 'Exit status']) {
      assert.ok(stdout.includes(option), option);
    }
  });

  test('runConformanceCommand() --list prints the selected checks with id, clause and level, without sending a request', async () => {
    const all = await command(['--list', '--level', 'reference'], { fetch: NO_FETCH });
    assert.equal(all.code, 0);
    assert.match(all.stdout, /^auth\/missing-key\/listPets +\[5\.4\] +spec +listPets without a key answers 401 with the Error body$/m);
    assert.match(all.stdout, /^document\/getPet +\[4\.3\] +reference +/m);
    const section = await command(['--list', '--only=4.3', '--json'], { fetch: NO_FETCH });
    const checks = JSON.parse(section.stdout) as { id: string; clause: string }[];
    assert.deepEqual(checks.map((check) => check.id), ['get/created-pet', 'get/missing-pet']);
  });

  test('runConformanceCommand() prints one line per check and the summary alone on the last line, and exits 0 when all pass', async () => {
    const { code, stdout, stderr } = await closingAfter(startNodeAdapter(), (target) => command([target.baseUrl, '--key', target.apiKey, '--run-id', 'cli']));
    assert.equal(code, 0, stdout + stderr);
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^Petstore conformance, level spec, of http:\/\/127\.0\.0\.1:\d+\/v1; the pets this run creates are named conformance-cli-\.\.\.$/);
    assert.equal(lines.filter((line) => line.startsWith('PASS ')).length, lines.length - 2);
    assert.match(lines.at(-1) ?? '', /^\d+ passed, 0 failed, 0 skipped$/);
    assert.equal(stderr, '');
  });

  test('runConformanceCommand() exits 1 when a check fails, with --json results and a JUnit report', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'missing-pet-as-200');
    assert.ok(mutant !== undefined);
    const { code, stdout, files } = await closingAfter(startFetchTarget((handler) => mutant.wrap(handler, KIT_KEY)), (target) => command([
      target.baseUrl, '--key', target.apiKey, '--only', 'get,auth/missing-key/getPet', '--skip', 'get/created-pet', '--json', '--junit-report', 'report.xml', '--timeout', '2000',
    ]));
    assert.equal(code, 1);
    const report = JSON.parse(stdout) as { summary: unknown; results: { id: string; outcome: string }[] };
    assert.deepEqual(report.summary, { passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(report.results.map((result) => `${result.id} ${result.outcome}`), ['auth/missing-key/getPet pass', 'get/missing-pet fail']);
    assert.match(files.get('report.xml') ?? '', /<testsuites name="petstore conformance \(spec\) of http:\/\/127\.0\.0\.1:\d+\/v1" tests="2" failures="1"/);
  });

  test('runConformanceCommand() exits 2 with a one-line message for each usage error', async () => {
    // Without a writeFile, as on a runtime given no file system.
    const cases: [string[], RegExp][] = [
      [[], /the base URL is missing/],
      [['http://127.0.0.1:9/v1'], /--key is missing/],
      [['http://127.0.0.1:9/v1', '--key', 'k', '--key-file', 'keys'], /--key and --key-file are both given: choose one/],
      [['http://127.0.0.1:9/v1', '--key-file', 'keys'], /--key-file needs a file system, which this runtime was not given; set PETSTORE_CONFORMANCE_KEY instead/],
      [['http://127.0.0.1:9/v1', 'http://127.0.0.1:10/v1', '--key', 'k'], /one base URL only/],
      [['http://127.0.0.1:9/v1', '--key'], /--key needs a value/],
      [['http://127.0.0.1:9/v1', '--key', 'a', '--key=b'], /--key is given more than once/],
      [['http://127.0.0.1:9/v1', '--key', 'k', '--strict'], /unknown option "--strict"/],
      [['--list=yes'], /--list takes no value/],
      [['--list', '--level', 'strict'], /--level must be spec or reference, not "strict"/],
      [['http://127.0.0.1:9/v1', '--key', 'k', '--timeout', '5s'], /--timeout must be a positive number of milliseconds, not "5s"/],
      [['http://127.0.0.1:9/v1', '--key', 'k', '--timeout', '0'], /--timeout must be a positive number/],
      [['--list', '--only', 'nothing'], /--only "nothing" names no check, group or section; --list shows them/],
      [['not-a-url', '--key', 'k'], /`baseUrl` must be an absolute http or https URL/],
      [['http://127.0.0.1:9/v1', '--key', 'k', '--junit-report', 'r.xml'], /--junit-report needs a file system/],
    ];
    for (const [argv, message] of cases) {
      let stdout = '';
      let stderr = '';
      const code = await runConformanceCommand(argv, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), fetch: NO_FETCH });
      assert.equal(code, 2, argv.join(' '));
      assert.equal(stdout, '', argv.join(' '));
      assert.match(stderr, message, argv.join(' '));
      assert.match(stderr, /^petstore-reference conformance: .*; see --help\n$/);
    }
  });

  test('runConformanceCommand() exits 2 naming the URL when nothing answers there', async () => {
    const target = await startNodeAdapter();
    await target.close();
    const { code, stdout, stderr } = await command([target.baseUrl, '--key', 'k', '--json']);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, new RegExp(`^petstore-reference conformance: cannot reach ${target.baseUrl.replace(/\./g, '\\.')}: .*ECONNREFUSED`));
  });

  test('runConformanceCommand() exits 2 with one line and no header when the key is refused or the base URL lacks /v1', async () => {
    await closingAfter(startNodeAdapter(), async (target) => {
      const origin = new URL(target.baseUrl).origin;
      const cases: [string[], RegExp][] = [
        [[target.baseUrl, '--key', 'not-the-key'], /^petstore-reference conformance: the key was refused: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets with the key answered 401 unauthorized; give a key the server accepts\n$/],
        [[origin, '--key', target.apiKey], /^petstore-reference conformance: nothing answers the interface at http:\/\/127\.0\.0\.1:\d+: does the base URL end in the version prefix, e\.g\. \/v1\? \(GET http:\/\/127\.0\.0\.1:\d+\/pets with the key answered 404 not_found\)\n$/],
      ];
      for (const [argv, message] of cases) {
        const { code, stdout, stderr } = await command(argv);
        assert.equal(code, 2, argv.join(' '));
        assert.equal(stdout, '');
        assert.match(stderr, message);
      }
    });
  });

  test('runConformanceCommand() exits 2 when the JUnit report cannot be written', async () => {
    const { code, stderr } = await closingAfter(startNodeAdapter(), (target) => command([target.baseUrl, '--key', target.apiKey, '--only', 'auth/missing-key/listPets', '--junit-report', '/no/such/dir/r.xml'], {
      writeFile: () => Promise.reject(new Error('ENOENT: no such file or directory')),
    }));
    assert.equal(code, 2);
    assert.match(stderr, /cannot write the JUnit report to \/no\/such\/dir\/r\.xml: ENOENT/);
  });

  test('extras/cli/main.ts conformance hands the rest of its arguments to the kit and exits with its status', async () => {
    await closingAfter(startNodeAdapter(), async (target) => {
      const main = join(ROOT, 'extras', 'cli', 'main.ts');
      const { NODE_V8_COVERAGE: coverage = '' } = process.env;
      const options = { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', NODE_V8_COVERAGE: coverage } };
      const passed = await run(process.execPath, ['--import', 'tsx', main, 'conformance', target.baseUrl, '--key', target.apiKey, '--only', 'auth'], options);
      assert.match(passed.stdout, /\n6 passed, 0 failed, 0 skipped\n$/);
      const refused = await run(process.execPath, ['--import', 'tsx', main, 'conformance', target.baseUrl], options).catch((error: { code: number; stderr: string }) => error);
      assert.ok('code' in refused && refused.code === 2);
      assert.match(refused.stderr, /--key is missing/);
      const fromVariable = await run(process.execPath, ['--import', 'tsx', main, 'conformance', target.baseUrl, '--only', 'auth'], { ...options, env: { ...options.env, PETSTORE_CONFORMANCE_KEY: target.apiKey } });
      assert.match(fromVariable.stdout, /\n6 passed, 0 failed, 0 skipped\n$/);
    });
  });

  test('runConformanceCommand() takes the key from PETSTORE_CONFORMANCE_KEY or --key-file as well as --key, a flag before the variable, and never quotes it', async () => {
    await closingAfter(startNodeAdapter(), async (target) => {
      const files: Record<string, string> = { keys: `# the key of the test server\n\n  ${target.apiKey}  # rotated 2026-11\nsecond-key-not-used\n`, wrong: 'not-the-key-0123456789\n' };
      const readFile = async (path: string): Promise<string> => {
        const text = files[path];
        if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
        return text;
      };
      const passing = ['--only', 'list/array-of-pets'];
      const cases: [string[], Partial<CommandIo>, number][] = [
        [[target.baseUrl, ...passing], { keyVariable: target.apiKey }, 0],
        [[target.baseUrl, ...passing], { keyVariable: `  ${target.apiKey}\n` }, 0],
        [[target.baseUrl, '--key-file', 'keys', ...passing], { readFile }, 0],
        [[target.baseUrl, '--key-file', 'keys', ...passing], { readFile, keyVariable: 'not-the-key-0123456789' }, 0],
        [[target.baseUrl, '--key', target.apiKey, ...passing], { keyVariable: 'not-the-key-0123456789' }, 0],
        // The file's wrong key, not the variable's right one: refused before any check.
        [[target.baseUrl, '--key-file', 'wrong', ...passing], { readFile, keyVariable: target.apiKey }, 2],
      ];
      for (const [argv, io, expected] of cases) {
        const outcome = await command(argv, io);
        assert.equal(outcome.code, expected, `${argv.join(' ')} ${JSON.stringify(Object.keys(io))}: ${outcome.stderr}${outcome.stdout}`);
        assert.ok(!(outcome.stdout + outcome.stderr).includes(target.apiKey), 'the key is never printed');
        if (expected === 2) assert.match(outcome.stderr, /^petstore-reference conformance: the key was refused: /);
      }
    });
    const refusals: [string[], RegExp][] = [
      [['--key-file', 'missing'], /^petstore-reference conformance: --key-file: cannot read missing: ENOENT/],
      [['--key-file', 'comments'], /^petstore-reference conformance: --key-file: comments holds no key \(only blank lines and comments\); see --help\n$/],
      [[], /--key is missing/],
    ];
    for (const [argv, message] of refusals) {
      const outcome = await command(['http://127.0.0.1:9/v1', ...argv], { fetch: NO_FETCH, keyVariable: ' ', readFile: async (path) => {
        if (path === 'comments') return '# none yet\n\n';
        throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      } });
      assert.equal(outcome.code, 2, argv.join(' '));
      assert.match(outcome.stderr, message);
    }
  });
});
