import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { codeBlocks, curlSessions, printedLines, readmeApiKey, shellLines } from './support/readme.js';
import type { CurlSample } from './support/readme.js';
import { TARBALL } from './support/pack.js';
import { TOOLS_ROOT } from './tools/paths.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const README = await readFile(join(ROOT, 'README.md'), 'utf8');
/** The page the README sends readers to for the package's other entry points, whose samples are checked here too. */
const EMBEDDING = await readFile(join(ROOT, 'docs', 'embedding.md'), 'utf8');
const SCRIPTS = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The key the README's server is started with, as its quick start shows. */
const README_KEY = 'secret-key-for-dev';

/** The origin the README's samples name; the test's server listens on a free port instead. */
const README_ORIGIN = 'http://127.0.0.1:8080';

/** The server `npm start` started: its origin, what it has written to stdout so far, and how to stop it. */
interface NpmServer {
  origin: string;
  stdout(): string;
  stop(): Promise<void>;
}

/** Starts `npm start` as the README does, in a process group of its own so it can be stopped whole. */
async function startWithNpm(): Promise<NpmServer> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NODE_V8_COVERAGE: process.env['NODE_V8_COVERAGE'] ?? '', PORT: '0', PETSTORE_API_KEYS: README_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  let stdout = '';
  const origin = await new Promise<string>((found, fail) => {
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString('utf8');
      stdout += data.toString('utf8');
      // The startup line names the API's base URL; whatever else it says, that URL ends in /v1.
      const match = /(http:\/\/127\.0\.0\.1:[0-9]+)\/v1\b/.exec(stdout);
      if (match?.[1] !== undefined) found(match[1]);
    });
    child.stderr.on('data', (data: Buffer) => {
      output += data.toString('utf8');
    });
    exited.then(() => fail(new Error(`npm start exited before listening: ${output}`)));
  });
  return {
    origin,
    stdout: () => stdout,
    async stop() {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/**
 * Runs a session's curl commands exactly as written, in one bash, against `origin`: the session's
 * `BASE=` line is the one line changed, to the base URL of that server, as a reader whose server
 * listens elsewhere would change it. Returns what each command printed on stdout.
 */
async function replay(origin: string, assignments: readonly string[], samples: readonly CurlSample[]): Promise<string[]> {
  const script = [
    'set -u',
    ...assignments.map((line) => (line.startsWith('BASE=') ? `BASE=${origin}/v1` : line)),
    // A record separator before each command's output, a byte no answer of the session holds.
    ...samples.map((sample) => `printf '\\036'; ${sample.command}`),
  ].join('\n');
  const { stdout } = await run('bash', ['--noprofile', '--norc', '-c', script], { maxBuffer: 1 << 24 });
  return stdout.split('\u001e').slice(1);
}

/**
 * Asserts that what a sample shows is what `curl -i` printed, with some header lines left out: the
 * status line as printed, each shown header line as one of the printed ones in the printed order,
 * and then an empty line and the whole body when there is one.
 */
function assertShownAsPrinted(sample: CurlSample, printed: string): void {
  const headEnd = printed.indexOf('\r\n\r\n');
  assert.ok(headEnd > 0, `${sample.command} prints no head (curl shows it with -i or -I): ${JSON.stringify(printed.slice(0, 200))}`);
  const [statusLine, ...headerLines] = printed.slice(0, headEnd).split('\r\n');
  const body = printed.slice(headEnd + 4);
  const blank = sample.shown.indexOf('');
  const shownHeaders = sample.shown.slice(1, blank === -1 ? undefined : blank);
  const shownBody = blank === -1 ? undefined : sample.shown.slice(blank + 1).join('\n');
  assert.equal(sample.shown[0], statusLine, `${sample.command}: the status line`);
  let position = 0;
  for (const line of shownHeaders) {
    const found = headerLines.indexOf(line, position);
    assert.ok(found !== -1, `${sample.command}: "${line}" is not among the header lines printed after "${headerLines[position - 1] ?? statusLine}":\n${headerLines.join('\n')}`);
    position = found + 1;
  }
  if (body === '') assert.equal(shownBody, undefined, `${sample.command} prints no body`);
  else assert.equal(shownBody, body, `${sample.command}: the body, in full`);
}

/** The commands of the README's install block, the tarball named as npm pack names it for this version. */
const INSTALL_STEPS: readonly string[] = ['npm pack', 'npm init -y', 'npm pkg set type=module', `npm install ./${TARBALL}`, 'npx tsx sample.ts'];

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

/** Why a command line of a shell block is known to work, or undefined when the README shows a command nothing checks. */
async function checkCommand(part: string): Promise<string | undefined> {
  const command = part.replace(/^([A-Z_]+=\S+\s+)+/, '');
  if (command === 'npm ci') return 'an npm command';
  // The steps of installing the tarball, which test/package.test.ts follows in a new project, running every sample there.
  if (INSTALL_STEPS.includes(command)) return (await exists(join(ROOT, 'test', 'package.test.ts'))) ? 'an install step, followed by test/package.test.ts' : undefined;
  const script = /^npm (?:run )?(\S+)$/.exec(command);
  if (script?.[1] !== undefined) return Object.hasOwn(SCRIPTS, script[1]) ? `the script ${script[1]}` : undefined;
  const example = /^npx tsx (examples\/([\w-]+)\.ts)$/.exec(command);
  if (example?.[1] !== undefined) {
    const isTested = await exists(join(ROOT, 'test', 'examples', `${example[2]}.test.ts`));
    return (await exists(join(ROOT, example[1]))) && isTested ? `${example[1]}, run by its test` : undefined;
  }
  return undefined;
}

describe('README.md', () => {
  test('README.md and docs/embedding.md TypeScript samples type-check against the sources, and those that say what they print print it', async () => {
    const readmeBlocks = codeBlocks(README, 'ts');
    assert.ok(readmeBlocks.length >= 2, 'the README shows the engine and the server');
    assert.ok(readmeBlocks.some((block) => printedLines(block).length > 0), 'the README shows what its engine sample prints');
    const blocks = [...readmeBlocks, ...codeBlocks(EMBEDDING, 'ts')];
    assert.ok(blocks.length >= 8, 'docs/embedding.md shows the engine, the handler, the fetch handler, inject, the client and the contract suite');
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
          // tsc type-checks and tsx runs the samples through these: the package's names mapped to the sources.
          paths: {
            'petstore-reference': [join(ROOT, 'lib', 'index.ts')],
            'petstore-reference/server': [join(ROOT, 'server', 'node', 'index.ts')],
            'petstore-reference/fetch': [join(ROOT, 'server', 'fetch', 'index.ts')],
            'petstore-reference/openapi': [join(ROOT, 'extras', 'docs-site', 'openapi', 'index.ts')],
            'petstore-reference/client': [join(ROOT, 'extras', 'client', 'index.ts')],
            'petstore-reference/testing': [join(ROOT, 'server', 'testing', 'index.ts')],
            'petstore-reference/file-storage': [join(ROOT, 'extras', 'file-storage', 'index.ts')],
            'petstore-reference/postgres': [join(ROOT, 'extras', 'postgres', 'index.ts')],
            'petstore-reference/conformance': [join(ROOT, 'extras', 'conformance', 'index.ts')],
            // docs/embedding.md shows the fetch handler inside hono, a test tool: its own types.
            hono: [join(TOOLS_ROOT, 'node_modules', 'hono', 'dist', 'types', 'index.d.ts')],
            // and the guides for Express, Koa and Fastify, test tools: their own types or DefinitelyTyped's.
            express: [join(TOOLS_ROOT, 'node_modules', '@types', 'express', 'index.d.ts')],
            koa: [join(TOOLS_ROOT, 'node_modules', '@types', 'koa', 'index.d.ts')],
            '@koa/bodyparser': [join(TOOLS_ROOT, 'node_modules', '@koa', 'bodyparser', 'dist', 'index.d.ts')],
            fastify: [join(TOOLS_ROOT, 'node_modules', 'fastify', 'fastify.d.ts')],
            '@fastify/middie': [join(TOOLS_ROOT, 'node_modules', '@fastify', 'middie', 'types', 'index.d.ts')],
            // and the guides for NestJS and hapi.
            ...Object.fromEntries(['common', 'core', 'platform-express', 'platform-fastify'].map((name) => [`@nestjs/${name}`, [join(TOOLS_ROOT, 'node_modules', '@nestjs', name, 'index.d.ts')]])),
            '@hapi/hapi': [join(TOOLS_ROOT, 'node_modules', '@hapi', 'hapi', 'lib', 'index.d.ts')],
          },
        },
        files,
      }));
      const result = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', directory]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      assert.equal(result.stdout.trim(), '');
      for (const [index, block] of blocks.entries()) {
        const expected = printedLines(block);
        if (expected.length === 0) continue;
        const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), [files[index] ?? ''], { cwd: directory });
        assert.deepEqual(stdout.trimEnd().split('\n'), expected, block);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('README.md quick start holds against a server started with npm start: every curl sample prints the lines shown as curl -i prints them, and the startup lines and the page to open are the server\'s', async () => {
    assert.equal(readmeApiKey(README), README_KEY);
    const sessions = curlSessions(README);
    assert.ok(sessions.length > 0);
    for (const { assignments, samples } of sessions) {
      // One line to change for a server elsewhere: the session sets BASE beside KEY, and no command names an origin of its own.
      assert.deepEqual(assignments.filter((line) => line.startsWith('BASE=')), [`BASE=${README_ORIGIN}/v1`], 'the curl session sets BASE= to the quick start\'s base URL');
      for (const sample of samples) assert.doesNotMatch(sample.command, /https?:\/\//, `${sample.command} names an origin instead of using $BASE`);
    }
    const server = await startWithNpm();
    try {
      // The session runs against a server elsewhere than the README's 8080, so BASE is what makes it work.
      assert.notEqual(server.origin, README_ORIGIN);
      for (const { assignments, samples } of sessions) {
        const printed = await replay(server.origin, assignments, samples);
        assert.equal(printed.length, samples.length);
        samples.forEach((sample, index) => assertShownAsPrinted(sample, printed[index] ?? ''));
      }
      // The lines the quick start says the server prints, as npm start printed them, one after the other.
      const startup = codeBlocks(README, 'text').find((block) => block.startsWith('Petstore listening on '));
      assert.ok(startup !== undefined, 'the quick start shows what the server prints');
      assert.ok(server.stdout().includes(startup.replaceAll(README_ORIGIN, server.origin)), `npm start printed:\n${server.stdout()}`);
      // The page the quick start tells readers to open in a browser, served without a key.
      const page = /Open\s+\*\*(http:\/\/\S+?)\*\*/.exec(README)?.[1];
      assert.ok(page !== undefined, 'the quick start names a page to open');
      const answer = await fetch(page.replace(README_ORIGIN, server.origin));
      assert.equal(answer.status, 200, page);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await answer.text(), /<html/i);
    } finally {
      await server.stop();
    }
  });

  test('README.md shell commands other than curl name scripts, examples and the package, each of which a test runs', async () => {
    for (const block of codeBlocks(README, 'sh')) {
      for (const line of shellLines(block)) {
        if (line === '' || line.startsWith('#') || line.startsWith('curl ') || /^[A-Z_]+=/.test(line)) continue;
        for (const part of line.replace(/\s+#\s.*$/, '').split('&&').map((text) => text.trim())) {
          assert.notEqual(await checkCommand(part), undefined, `nothing checks the README command ${JSON.stringify(part)}`);
        }
      }
    }
  });

  test('README.md links point to files that exist', async () => {
    for (const [, target = ''] of README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^https?:/.test(target)) continue;
      assert.ok(await exists(resolve(ROOT, target)), `README links to ${target}, which does not exist`);
    }
  });
});
