import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { OpenApiDocumentOptions } from '../../../../extras/docs-site/openapi/index.js';
import { TOOLS_ROOT } from '../../../tools/paths.js';

const REDOCLY = join(TOOLS_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const SPECTRAL = join(TOOLS_ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');

/** Spectral's own OpenAPI rules and nothing else: Spectral needs a ruleset argument, and this one turns nothing off. */
const SPECTRAL_RULESET = 'extends: ["spectral:oas"]\n';

/** The documents linted: one stating a body limit (as the server serves it), the default, and one a host framework mounts. */
const VARIANTS: Record<string, OpenApiDocumentOptions> = {
  withBodyLimit: { bodyLimit: 65_536 },
  default: {},
  mounted: { basePath: '' },
};

/** One problem found, in a form both linters' reports can be read into. */
interface LintProblem {
  rule: string;
  severity: string;
  where: string;
  message: string;
}

/** The child's environment: no telemetry and no update check, since the test has no network; no coverage of the linters' own code. */
function lintEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  delete environment['NODE_V8_COVERAGE'];
  return environment;
}

/** Runs a linter's command line from `cwd` and returns what it printed; its exit status says only whether it found errors, so the report is read instead. */
function runLinter(args: readonly string[], cwd: string): Promise<{ stdout: string; stderr: string; exit: string }> {
  return new Promise((resolveRun) => {
    execFile(process.execPath, args, { cwd, env: lintEnvironment(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolveRun({ stdout, stderr, exit: error?.message ?? 'exit 0' });
    });
  });
}

/** What `redocly lint --format json` reports, as far as the test reads it. */
interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint --extends recommended-strict`, the strictest built-in rule set, from a directory without any configuration file. */
async function redoclyProblems(file: string, cwd: string): Promise<LintProblem[]> {
  const { stdout, stderr, exit } = await runLinter([REDOCLY, 'lint', '--extends', 'recommended-strict', '--format', 'json', file], cwd);
  let report: RedoclyReport;
  try {
    report = JSON.parse(stdout) as RedoclyReport;
  } catch {
    throw new Error(`redocly lint printed no report (${exit}):\n${stdout}\n${stderr}`);
  }
  const problems = report.problems.map((problem) => ({ rule: problem.ruleId, severity: problem.severity, where: problem.location[0]?.pointer ?? '?', message: problem.message }));
  // The totals and the list must agree, or the list read here is not the whole report.
  assert.equal(problems.length, report.totals.errors + report.totals.warnings, stdout);
  return problems;
}

/** What `spectral lint --format json` reports per problem, as far as the test reads it; severity 0 is an error, 1 a warning, 2 information, 3 a hint. */
interface SpectralResult {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

/** `spectral lint` with SPECTRAL_RULESET, every severity reported. */
async function spectralProblems(file: string, ruleset: string, cwd: string): Promise<LintProblem[]> {
  const { stdout, stderr, exit } = await runLinter([SPECTRAL, 'lint', '--ruleset', ruleset, '--format', 'json', '--fail-severity', 'hint', file], cwd);
  // Spectral prints its JSON, then a line of its own when there is nothing to report.
  const json = stdout.slice(0, stdout.lastIndexOf(']') + 1);
  let results: SpectralResult[];
  try {
    results = JSON.parse(json) as SpectralResult[];
  } catch {
    throw new Error(`spectral lint printed no report (${exit}):\n${stdout}\n${stderr}`);
  }
  const severities = ['error', 'warning', 'information', 'hint'];
  return results.map((result) => ({ rule: result.code, severity: severities[result.severity] ?? String(result.severity), where: result.path.join('.'), message: result.message }));
}

/** The problems one per line, for a failure message. */
function describeProblems(problems: readonly LintProblem[]): string {
  return problems.map((problem) => `${problem.severity} ${problem.rule} at ${problem.where}: ${problem.message}`).join('\n');
}

describe('createOpenApiDocument() under redocly and spectral, without any project configuration', () => {
  let directory: string;
  let ruleset: string;
  const files: Record<string, string> = {};
  before(async () => {
    // A directory of its own, holding no redocly.yaml and no .spectral file: each linter's own rules alone.
    directory = await mkdtemp(join(tmpdir(), 'petstore-openapi-lint-'));
    ruleset = join(directory, 'spectral-oas.yaml');
    await writeFile(ruleset, SPECTRAL_RULESET);
    for (const [name, options] of Object.entries(VARIANTS)) {
      files[name] = join(directory, `${name}.json`);
      await writeFile(files[name], `${JSON.stringify(createOpenApiDocument(options), null, 2)}\n`);
    }
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('createOpenApiDocument() passes redocly lint --extends recommended-strict with no error and no warning', async () => {
    for (const [name, file] of Object.entries(files)) {
      const problems = await redoclyProblems(file, directory);
      assert.deepEqual(problems, [], `${name}:\n${describeProblems(problems)}`);
    }
  });

  test('createOpenApiDocument() passes spectral lint with spectral:oas with nothing at any severity', async () => {
    for (const [name, file] of Object.entries(files)) {
      const problems = await spectralProblems(file, ruleset, directory);
      assert.deepEqual(problems, [], `${name}:\n${describeProblems(problems)}`);
    }
  });

  test('the linters as run here report what is wrong, so the checks above can fail', async () => {
    const document = createOpenApiDocument();
    const listPets = document.paths['/pets']?.get;
    const limit = listPets?.parameters?.[0];
    assert.ok(listPets !== undefined && limit?.examples !== undefined);
    // A refused request as a request example, and an operation without tags: what each linter must flag.
    limit.examples['ten'] = { summary: 'Not an integer', value: 'ten' };
    delete listPets.tags;
    const file = join(directory, 'broken.json');
    await writeFile(file, JSON.stringify(document));
    const redocly = await redoclyProblems(file, directory);
    assert.ok(redocly.some((problem) => problem.rule === 'no-invalid-parameter-examples' && problem.severity === 'error'), describeProblems(redocly));
    const spectral = await spectralProblems(file, ruleset, directory);
    assert.deepEqual(new Set(spectral.map((problem) => problem.rule)), new Set(['oas3-valid-media-example', 'operation-tags']), describeProblems(spectral));
  });
});
