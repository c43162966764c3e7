import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOpenApiDocument } from '../../../server/openapi/index.js';
import type { OpenApiDocument, OpenApiDocumentOptions } from '../../../server/openapi/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The documents linted: one stating a body limit (as the server serves it), the default, and one a host framework mounts. */
const VARIANTS: Record<string, OpenApiDocumentOptions> = {
  withBodyLimit: { bodyLimit: 65_536 },
  default: {},
  mounted: { basePath: '' },
};

/** The shared responses that no operation references, on purpose (see redocly.yaml). */
const SHARED_RESPONSES = ['UnknownPath', 'MethodNotAllowed', 'MalformedRequest', 'RequestTimeout', 'ExpectationFailed', 'HeadersTooLarge'];

/** The rules that flag examples not matching their schema, which redocly.yaml turns off for the request examples invalid on purpose. */
const EXAMPLE_RULES = new Set(['no-invalid-media-type-examples', 'no-invalid-parameter-examples']);

/** JSON pointers to the request examples whose answer is a 400: a request body's or a parameter's example, under a key a 400 answers. */
function rejectedRequestExamples(document: OpenApiDocument): string[] {
  const escape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');
  const pointers: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'head', 'post'] as const) {
      const operation = item[method];
      // HEAD answers like GET, without the bodies that hold the keys.
      const answering = method === 'head' ? item.get : operation;
      const rejected = new Set(Object.keys(answering?.responses['400']?.content?.['application/json']?.examples ?? {}));
      if (operation === undefined) continue;
      const at = `#/paths/${escape(path)}/${method}`;
      for (const key of Object.keys(operation.requestBody?.content['application/json']?.examples ?? {})) {
        if (rejected.has(key)) pointers.push(`${at}/requestBody/content/application~1json/examples/${key}/value`);
      }
      (operation.parameters ?? []).forEach((parameter, index) => {
        for (const key of Object.keys(parameter.examples ?? {})) if (rejected.has(key)) pointers.push(`${at}/parameters/${index}/examples/${key}/value`);
      });
      (item.parameters ?? []).forEach((parameter, index) => {
        for (const key of Object.keys(parameter.examples ?? {})) if (rejected.has(key)) pointers.push(`#/paths/${escape(path)}/parameters/${index}/examples/${key}/value`);
      });
    }
  }
  return pointers;
}

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

  test('createOpenApiDocument() leaves only the shared responses unreferenced and only the rejected request examples invalid, the exceptions redocly.yaml makes', async () => {
    const file = files['withBodyLimit'];
    assert.ok(file !== undefined);
    // From the temporary directory, which has no redocly.yaml: the recommended rules alone.
    const report = await lint(file, directory);
    const unused = new Set(SHARED_RESPONSES.map((name) => `#/components/responses/${name}`));
    const rejected = rejectedRequestExamples(createOpenApiDocument(VARIANTS['withBodyLimit']));
    const isRejected = (pointer: string): boolean => rejected.some((example) => pointer === example || pointer.startsWith(`${example}/`));
    const others = report.problems.filter((problem) => {
      const pointer = problem.location[0]?.pointer ?? '';
      if (problem.ruleId === 'no-unused-components') return !unused.has(pointer);
      return !(EXAMPLE_RULES.has(problem.ruleId) && isRejected(pointer));
    });
    assert.deepEqual(others, [], describeProblems(report));
    assert.equal(report.totals.errors, 0);
    // Each rejected request example is flagged: the rules run, and they agree that the schema refuses it.
    const flagged = new Set(report.problems.filter((problem) => EXAMPLE_RULES.has(problem.ruleId)).map((problem) => problem.location[0]?.pointer ?? ''));
    for (const example of rejected) assert.ok([...flagged].some((pointer) => pointer === example || pointer.startsWith(`${example}/`)), example);
  });
});
