import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOpenApiDocument } from '../../lib/index.js';
import type { OpenApiDocumentOptions } from '../../lib/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The documents linted: one stating a body limit (as the server serves it), the default, and one a host framework mounts. */
const VARIANTS: Record<string, OpenApiDocumentOptions> = {
  withBodyLimit: { bodyLimit: 65_536 },
  default: {},
  mounted: { basePath: '' },
};

/** The shared responses that no operation references, on purpose (see redocly.yaml). */
const SHARED_RESPONSES = ['UnknownPath', 'MethodNotAllowed', 'MalformedRequest', 'RequestTimeout', 'ExpectationFailed', 'HeadersTooLarge'];

/** One problem of `redocly lint --format json`, as far as the assertions read it. */
interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** The report of `redocly lint --format json`. */
interface LintReport {
  totals: { errors: number; warnings: number };
  problems: LintProblem[];
}

/** The child's environment: no telemetry and no update check, since the test has no network; no coverage of the linter's own code. */
function lintEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  delete environment['NODE_V8_COVERAGE'];
  return environment;
}

/** Runs `redocly lint --extends recommended --format json` on a file from `cwd`, where it looks for its redocly.yaml. */
function lint(file: string, cwd: string): Promise<LintReport> {
  return new Promise((resolveReport, reject) => {
    const args = [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file];
    // The exit status says only whether there were errors; the report says which.
    execFile(process.execPath, args, { cwd, env: lintEnvironment(), timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        resolveReport(JSON.parse(stdout) as LintReport);
      } catch {
        reject(new Error(`redocly lint printed no report (${error?.message ?? 'exit 0'}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** The problems one per line, for a failure message. */
function describeProblems(report: LintReport): string {
  return report.problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`).join('\n');
}

describe('createOpenApiDocument() under redocly lint', () => {
  let directory: string;
  const files: Record<string, string> = {};
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-openapi-lint-'));
    for (const [name, options] of Object.entries(VARIANTS)) {
      files[name] = join(directory, `${name}.json`);
      await writeFile(files[name], `${JSON.stringify(createOpenApiDocument(options), null, 2)}\n`);
    }
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('createOpenApiDocument() passes redocly\'s recommended rules with no error and no warning', async () => {
    for (const [name, file] of Object.entries(files)) {
      // From the repository root, as `npx redocly lint --extends recommended openapi.json` runs, with its redocly.yaml.
      const report = await lint(file, ROOT);
      assert.equal(report.totals.errors, 0, `${name}:\n${describeProblems(report)}`);
      assert.equal(report.totals.warnings, 0, `${name}:\n${describeProblems(report)}`);
    }
  });

  test('createOpenApiDocument() leaves only the shared responses unreferenced, the one exception redocly.yaml makes', async () => {
    const file = files['withBodyLimit'];
    assert.ok(file !== undefined);
    // From the temporary directory, which has no redocly.yaml: the recommended rules alone.
    const report = await lint(file, directory);
    const allowed = new Set(SHARED_RESPONSES.map((name) => `#/components/responses/${name}`));
    const others = report.problems.filter((problem) => !(problem.ruleId === 'no-unused-components' && allowed.has(problem.location[0]?.pointer ?? '')));
    assert.deepEqual(others, [], describeProblems(report));
    assert.equal(report.totals.errors, 0);
  });
});
