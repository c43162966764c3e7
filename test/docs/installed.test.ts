/**
 * The guides as their readers meet them. In a project that installs the packed tarball: every
 * relative link of the installed README and docs/ resolves inside the package, and every TypeScript
 * sample type-checks with TypeScript's defaults (`strict`, no `lib` override, so the DOM's types are
 * in). In that project and in a copy of the clone: docs/postgres.md's commands, run as written
 * against a throwaway PostgreSQL, reach a server that stores a pet, and the server started before
 * the driver is installed names the command of the guide that installs it there.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { access, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { consumerEnv, installTarball, packPackage } from '../support/pack.js';
import { makePool, startTestPostgres } from '../support/postgres.js';
import { ROOT } from '../support/process.js';
import { codeBlocks, shellLines } from '../support/readme.js';
import { asShown } from '../hosts/host-checks.js';

const run = promisify(execFile);
const TOOLS = join(ROOT, 'test', 'tools', 'node_modules');
const PACKAGE = 'petstore-reference';

/** What the samples import beside the package: the test tools' packages (the install stays offline), and @types/node of the project. */
async function samplePackages(): Promise<[string, string][]> {
  const packages: [string, string][] = [['@types/node', join(ROOT, 'node_modules', '@types', 'node')]];
  for (const name of await readdir(TOOLS)) {
    if (name.startsWith('.')) continue;
    const names = name.startsWith('@') ? (await readdir(join(TOOLS, name))).map((inner) => `${name}/${inner}`) : [name];
    for (const full of names) if (full !== '@types/node' && full !== PACKAGE) packages.push([full, join(TOOLS, full)]);
  }
  return packages;
}

/** Where a sample is written: a host guide under its own file name, which its sibling guides import; any other by its document and place. */
async function sampleFile(path: string, index: number, block: string): Promise<string> {
  for (const file of await readdir(join(ROOT, 'examples', 'hosts'))) {
    if (asShown(await readFile(join(ROOT, 'examples', 'hosts', file), 'utf8')) === block.trimEnd()) return join('hosts', file);
  }
  return join('samples', `${path.replace(/[/.]/g, '-')}-${index + 1}.ts`);
}

/** A Markdown text without its fenced code blocks, where a link is a sample's text, not a link. */
function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The README and the guides of a package directory, by their path inside it. */
async function guidesIn(directory: string): Promise<Map<string, string>> {
  const paths = ['README.md', ...(await readdir(join(directory, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];
  return new Map(await Promise.all(paths.map(async (path): Promise<[string, string]> => [path, await readFile(join(directory, path), 'utf8')])));
}

/** A file or folder exists. */
async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

/** docs/postgres.md's two command blocks of the standalone server: in a project, then in a clone. */
async function postgresSteps(): Promise<{ project: string[]; clone: string[] }> {
  const text = await readFile(join(ROOT, 'docs', 'postgres.md'), 'utf8');
  const section = text.split('### The standalone server')[1]?.split('\n### ')[0] ?? '';
  const [project, clone] = codeBlocks(section, 'sh').map((block) => shellLines(block).map((line) => line.replace(/\s+#\s.*$/, '')).filter((line) => line !== ''));
  assert.ok(project !== undefined && clone !== undefined, 'docs/postgres.md shows the commands of a project and of a clone');
  return { project, clone };
}

/** A command line's leading `NAME=value` assignments and the command after them. */
function splitAssignments(line: string): { env: Record<string, string>; command: string[] } {
  const words = line.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name = '', ...value] = (words.shift() ?? '').split('=');
    env[name] = value.join('=');
  }
  return { env, command: words };
}

/** A server started by a guide's last command: its origin once it listens, or its exit status and stderr. */
interface Started {
  origin: string | undefined;
  code: number | string | undefined;
  stderr: string;
  stop(): Promise<void>;
}

/** Runs a guide's start command in `directory`, the database URL's host pointed at the throwaway cluster and PORT at any free port. */
async function start(directory: string, line: string, port: number): Promise<Started> {
  const { env, command } = splitAssignments(line.replace('db.internal:5432', `127.0.0.1:${port}`).replace(/\bPORT=\d+/, 'PORT=0'));
  const [program = '', ...args] = command;
  const child = spawn(program, args, { cwd: directory, env: consumerEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
  const exited = new Promise<number | string>((done) => child.once('close', (code, signal) => done(code ?? signal ?? -1)));
  const origin = await new Promise<string | undefined>((found) => {
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url !== undefined) found(new URL(url).origin);
    });
    void exited.then(() => found(undefined));
  });
  const code = origin === undefined ? await exited : undefined;
  return {
    origin,
    code,
    stderr,
    async stop() {
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
    },
  };
}

/** Runs one of a guide's commands (not the start) in `directory`, as a reader's shell would. */
async function step(directory: string, line: string): Promise<void> {
  await run('bash', ['-c', line], { cwd: directory, env: consumerEnv(), timeout: 300_000 });
}

/** Runs a guide's steps in `directory`: the start first without the driver, which must name the guide's install step; then every step; then a pet stored over HTTP. */
async function followGuide(directory: string, steps: readonly string[], port: number): Promise<void> {
  const [install = '', ...rest] = steps;
  const startLine = rest.at(-1) ?? '';
  const key = /PETSTORE_API_KEYS=([^,\s]+)/.exec(startLine)?.[1] ?? '';
  assert.match(install, /^npm install /);
  const before = await start(directory, startLine, port);
  if (before.origin !== undefined) await before.stop();
  assert.equal(before.code, 2, `without the driver the server does not start: ${before.stderr}`);
  assert.ok(before.stderr.includes(`run \`${install}\``), `the start names the guide's own install step, \`${install}\`: ${before.stderr}`);
  for (const line of [install, ...rest.slice(0, -1)]) await step(directory, line);
  const server = await start(directory, startLine, port);
  assert.ok(server.origin !== undefined, `the guide's server listens: ${server.stderr}`);
  try {
    const created = await fetch(`${server.origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const pet = (await created.json()) as { id: number };
    const read = await fetch(`${server.origin}/v1/pets/${pet.id}`, { headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual(await read.json(), { id: pet.id, name: 'Rex', categoryId: 1 });
  } finally {
    await server.stop();
  }
}

const postgres = await startTestPostgres();

describe('the guides in a project that installs the packed tarball, and in a clone', () => {
  let work = '';
  let consumer = '';
  let installed = '';

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-installed-docs-'));
    consumer = join(work, 'consumer');
    installed = join(consumer, 'node_modules', PACKAGE);
    const stage = join(work, 'stage');
    await Promise.all([mkdir(stage), mkdir(consumer)]);
    const tarball = await packPackage({ stage, destination: work });
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await installTarball(consumer, tarball);
  });

  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('every relative link of the installed README and docs/ reaches a file the package ships', async () => {
    const guides = await guidesIn(installed);
    const broken: string[] = [];
    let links = 0;
    for (const [path, text] of guides) {
      for (const [, target = ''] of proseOf(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target) || target.startsWith('#')) continue;
        links++;
        const resolved = normalize(join(dirname(path), target.split('#')[0] ?? ''));
        if (resolved.startsWith('..') || !(await exists(join(installed, resolved.replace(/\/$/, ''))))) broken.push(`${path}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(links > 250, `${links} links`);
  });

  test('every TypeScript sample of the README and docs/ type-checks in the project with TypeScript\'s defaults (strict, the DOM\'s types in)', async () => {
    // A project of its own beside the consumer, with the same installed package: the consumer's npm never meets the linked tools.
    const project = join(work, 'samples');
    for (const [name, target] of [...(await samplePackages()), [PACKAGE, installed] as const]) {
      await mkdir(dirname(join(project, 'node_modules', name)), { recursive: true });
      await symlink(target, join(project, 'node_modules', name), 'dir');
    }
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'samples', private: true, type: 'module' }));
    const files: string[] = [];
    for (const [path, text] of await guidesIn(ROOT)) {
      for (const [index, block] of codeBlocks(text, 'ts').entries()) {
        const file = await sampleFile(path, index, block);
        await mkdir(dirname(join(project, file)), { recursive: true });
        await writeFile(join(project, file), block);
        files.push(file);
      }
    }
    assert.ok(files.length >= 25, `${files.length} samples`);
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    // The options `tsc --init` writes (strict, nodenext, no `lib`, so the DOM's types are in), with Node's types, as its comment says to add them.
    await run(tsc, ['--init'], { cwd: project });
    await writeFile(join(project, 'tsconfig.samples.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true, types: ['node'] }, files }));
    const result = await run(tsc, ['-p', join(project, 'tsconfig.samples.json')], { cwd: project }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    assert.equal(result.trim(), '', 'a sample a reader copies fails to compile');
  });

  describe('docs/postgres.md\'s commands of the standalone server', { skip: postgres.skip, timeout: 600_000 }, () => {
    let port = 0;

    before(async () => {
      assert.ok(postgres.cluster !== undefined);
      port = postgres.cluster.port;
      const pool = makePool(postgres.cluster.url, 1);
      try {
        // The role and database the guide's URL names, with the guide's password.
        await pool.query("CREATE ROLE petstore LOGIN PASSWORD 'secret'");
        await pool.query('CREATE DATABASE petstore OWNER petstore');
      } finally {
        await pool.end();
      }
    });

    test('in a project that installs the package, the steps reach a server on PostgreSQL, and the start before them names `npm install pg`', async () => {
      const { project } = await postgresSteps();
      await followGuide(consumer, project, port);
    });

    test('in a clone, the steps reach a server on PostgreSQL without changing package.json, and the start before them names the clone\'s install step', async () => {
      const { clone } = await postgresSteps();
      const copy = join(work, 'clone');
      for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'lib', 'server', 'extras']) {
        await cp(join(ROOT, entry), join(copy, entry), { recursive: true });
      }
      await run('npm', ['ci', '--ignore-scripts'], { cwd: copy, env: consumerEnv(), timeout: 300_000 });
      // Built first, so the start before the install runs as it would after `npm ci && npm run build`.
      await run('npm', ['run', 'build'], { cwd: copy, env: consumerEnv(), timeout: 300_000 });
      const manifest = await readFile(join(copy, 'package.json'), 'utf8');
      await followGuide(copy, clone, port);
      assert.equal(await readFile(join(copy, 'package.json'), 'utf8'), manifest, 'the clone\'s package.json is as it was');
      assert.ok(await exists(join(copy, 'node_modules', 'pg', 'package.json')), 'the clone\'s install step installed pg');
    });
  });
});
