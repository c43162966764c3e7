import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ERROR_CODES } from '../lib/index.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const README = await readFile(join(ROOT, 'README.md'), 'utf8');
const SCRIPTS = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The key the README's server is started with, as its quick start shows. */
const README_KEY = 'secret-key';

/** The fenced code blocks of a Markdown text, with their language. */
function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1] === language).map((match) => match[2] ?? '');
}

/** The lines of a shell block, with `\` continuations joined. */
function shellLines(block: string): string[] {
  return block.replace(/\\\n\s*/g, ' ').split('\n').map((line) => line.trim());
}

/** A curl command of the README and what its comment lines say it answers. */
interface CurlCase {
  command: string;
  status: number;
  headers: [string, string][];
  body: unknown;
}

/** Reads the curl commands of a shell block, each followed by `# STATUS Reason`, `# Header: value` lines and a `# JSON` body line. */
function curlCases(lines: readonly string[]): { assignments: string[]; cases: CurlCase[] } {
  const assignments: string[] = [];
  const cases: CurlCase[] = [];
  let current: CurlCase | undefined;
  for (const line of lines) {
    if (line.startsWith('curl ')) {
      current = { command: line, status: 0, headers: [], body: undefined };
      cases.push(current);
    } else if (/^[A-Z_]+=/.test(line)) {
      assignments.push(line);
    } else if (line.startsWith('# ') && current !== undefined) {
      const text = line.slice(2);
      const status = /^([1-5][0-9]{2}) [A-Z]/.exec(text);
      const header = /^([A-Za-z-]+): (.+)$/.exec(text);
      if (current.status === 0 && status !== null) current.status = Number(status[1]);
      else if (text.startsWith('{') || text.startsWith('[')) current.body = JSON.parse(text);
      else if (header !== null) current.headers.push([header[1] ?? '', header[2] ?? '']);
    } else if (line === '') {
      current = undefined;
    }
  }
  return { assignments, cases };
}

/** Starts `npm start` as the README does, in a process group of its own so it can be stopped whole. */
async function startWithNpm(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NODE_V8_COVERAGE: process.env['NODE_V8_COVERAGE'] ?? '', PORT: '0', PETSTORE_API_KEYS: README_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  const url = await new Promise<string>((found, fail) => {
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) found(match[1]);
    });
    child.stderr.on('data', (data: Buffer) => {
      output += data.toString('utf8');
    });
    exited.then(() => fail(new Error(`npm start exited before listening: ${output}`)));
  });
  return {
    origin: new URL(url).origin,
    async stop() {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/** Runs curl commands in bash and splits each answer into status, headers and body. */
async function replay(origin: string, assignments: readonly string[], cases: readonly CurlCase[]): Promise<{ status: number; headers: Map<string, string>; body: string }[]> {
  const script = [
    'set -u',
    ...assignments,
    ...cases.map((curl) => `printf '\\n@@@\\n'; ${curl.command.replaceAll('http://127.0.0.1:8080', origin)} -D - -w '\\n%{http_code}'`),
  ].join('\n');
  const { stdout } = await run('bash', ['-c', script]);
  return stdout.split('\n@@@\n').slice(1).map((answer) => {
    const headEnd = answer.indexOf('\r\n\r\n');
    const lastLine = answer.lastIndexOf('\n');
    const headers = new Map<string, string>();
    for (const line of answer.slice(0, headEnd).split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    return { status: Number(answer.slice(lastLine + 1)), headers, body: answer.slice(headEnd + 4, lastLine) };
  });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

/** Why a command line of a shell block is known to work, or undefined when the README shows a command nothing checks. */
async function checkCommand(part: string): Promise<string | undefined> {
  const command = part.replace(/^([A-Z_]+=\S+\s+)+/, '');
  if (command === 'npm ci') return 'an npm command';
  const script = /^npm (?:run )?(\S+)$/.exec(command);
  if (script?.[1] !== undefined) return Object.hasOwn(SCRIPTS, script[1]) ? `the script ${script[1]}` : undefined;
  const example = /^npx tsx (examples\/([\w-]+)\.ts)$/.exec(command);
  if (example?.[1] !== undefined) {
    const isTested = await exists(join(ROOT, 'test', 'examples', `${example[2]}.test.ts`));
    return (await exists(join(ROOT, example[1]))) && isTested ? `${example[1]}, run by its test` : undefined;
  }
  // Run from a packed and installed tarball against a live server by test/conformance/package.test.ts.
  if (command.startsWith('npx petstore-reference conformance ')) {
    return (await exists(join(ROOT, 'test', 'conformance', 'package.test.ts'))) ? 'the conformance command, run by its package test' : undefined;
  }
  // Its compiled form is started by test/package.test.ts.
  if (command === 'node dist/cli/main.js') return (await exists(join(ROOT, 'cli', 'main.ts'))) ? 'the compiled server' : undefined;
  return undefined;
}

describe('README.md', () => {
  test('README.md TypeScript samples type-check against the sources, with the package names mapped to them', async () => {
    const blocks = codeBlocks(README, 'ts');
    assert.ok(blocks.length >= 4, 'the README shows the engine, the handler, the client and the contract suite');
    const directory = await mkdtemp(join(tmpdir(), 'petstore-readme-'));
    try {
      const files = blocks.map((_, index) => `sample-${index}.ts`);
      await Promise.all(blocks.map((block, index) => writeFile(join(directory, files[index] ?? ''), `${block}\nexport {};\n`)));
      await writeFile(join(directory, 'package.json'), JSON.stringify({ type: 'module' }));
      await writeFile(join(directory, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          // The sources' own lib (tsconfig.json): the fetch API's types come from @types/node, not from the DOM lib, whose BodyInit they do not target.
          target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true,
          verbatimModuleSyntax: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
          paths: {
            'petstore-reference': [join(ROOT, 'lib', 'index.ts')],
            'petstore-reference/server': [join(ROOT, 'server', 'index.ts')],
            'petstore-reference/fetch': [join(ROOT, 'fetch', 'index.ts')],
            'petstore-reference/client': [join(ROOT, 'client', 'index.ts')],
            'petstore-reference/testing': [join(ROOT, 'testing', 'index.ts')],
            'petstore-reference/file-storage': [join(ROOT, 'lib', 'storage', 'file', 'index.ts')],
            'petstore-reference/postgres': [join(ROOT, 'lib', 'storage', 'postgres', 'index.ts')],
            // The README shows the fetch handler inside hono, a dev dependency: its own types.
            hono: [join(ROOT, 'node_modules', 'hono', 'dist', 'types', 'index.d.ts')],
          },
        },
        files,
      }));
      const result = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', directory]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      assert.equal(result.stdout.trim(), '');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('README.md curl samples answer what their comments say, against a server started with npm start', async () => {
    assert.match(README, new RegExp(`PETSTORE_API_KEYS=${README_KEY} npm start`));
    const blocks = codeBlocks(README, 'sh').map(shellLines).map(curlCases).filter((block) => block.cases.length > 0);
    assert.ok(blocks.length > 0);
    const server = await startWithNpm();
    try {
      for (const { assignments, cases } of blocks) {
        const answers = await replay(server.origin, assignments, cases);
        assert.equal(answers.length, cases.length);
        cases.forEach((curl, index) => {
          const answer = answers[index];
          assert.ok(answer !== undefined && curl.status !== 0, `${curl.command} shows its status`);
          assert.equal(answer.status, curl.status, curl.command);
          for (const [name, value] of curl.headers) assert.equal(answer.headers.get(name.toLowerCase()), value, `${curl.command}: ${name}`);
          if (curl.body !== undefined) assert.deepEqual(JSON.parse(answer.body), curl.body, curl.command);
        });
      }
    } finally {
      await server.stop();
    }
  });

  test('README.md shell commands other than curl name scripts and examples that exist and are tested', async () => {
    for (const block of codeBlocks(README, 'sh')) {
      for (const line of shellLines(block)) {
        if (line === '' || line.startsWith('#') || line.startsWith('curl ') || /^[A-Z_]+='/.test(line)) continue;
        for (const part of line.replace(/\s+#\s.*$/, '').split('&&').map((text) => text.trim())) {
          assert.notEqual(await checkCommand(part), undefined, `nothing checks the README command ${JSON.stringify(part)}`);
        }
      }
    }
  });

  test('README.md error code table is ERROR_CODES', () => {
    const section = README.slice(README.indexOf('## Error codes'));
    const rows = [...section.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((match) => [match[1], Number(match[2])]);
    assert.deepEqual(rows, Object.entries(ERROR_CODES));
    assert.match(README, new RegExp(`the ${Object.keys(ERROR_CODES).length} codes above`));
  });

  test('README.md configuration table names only variables the server reads', async () => {
    // The command line reads each variable through its one table of settings.
    const main = await readFile(join(ROOT, 'cli', 'settings.ts'), 'utf8');
    const section = README.slice(README.indexOf('## Configuration'));
    const variables = [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1] ?? '');
    assert.ok(variables.length >= 6);
    for (const variable of variables) assert.match(main, new RegExp(`env: '${variable}'`), variable);
  });

  test('README.md links point to files that exist', async () => {
    for (const [, target = ''] of README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^https?:/.test(target)) continue;
      assert.ok(await exists(resolve(ROOT, target)), `README links to ${target}, which does not exist`);
    }
  });
});
