import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startCommandOf, startCommandText, withRevisionBuild, WORKTREE_PREFIX } from '../../bench/against.js';
import type { RevisionBuild } from '../../bench/against.js';

const run = promisify(execFile);

/** The package.json of 3.0.0, as far as starting goes. */
const LAYOUT_3_0 = { name: 'petstore-reference', bin: { 'petstore-reference': 'dist/cli/main.js' }, scripts: { prestart: 'npm run build', start: 'node dist/cli/main.js' } };

/** The same after the CLI moved to extras/cli/. */
const LAYOUT_EXTRAS = { name: 'petstore-reference', bin: { 'petstore-reference': 'dist/extras/cli/main.js' }, scripts: { prestart: 'npm run build', start: 'node dist/extras/cli/main.js' } };

describe('startCommandOf()', () => {
  test('startCommandOf() reads the start script of 3.0.0\'s layout and of the extras/ layout', () => {
    assert.deepEqual(startCommandOf(LAYOUT_3_0), { nodeArguments: [], script: 'dist/cli/main.js', args: [] });
    assert.deepEqual(startCommandOf(LAYOUT_EXTRAS), { nodeArguments: [], script: 'dist/extras/cli/main.js', args: [] });
  });

  test('startCommandOf() keeps the Node options and arguments of the start script', () => {
    const command = startCommandOf({ scripts: { start: 'node --max-old-space-size=512 --enable-source-maps ./dist/extras/cli/main.js serve --port=0' } });
    assert.deepEqual(command, { nodeArguments: ['--max-old-space-size=512', '--enable-source-maps'], script: 'dist/extras/cli/main.js', args: ['serve', '--port=0'] });
    assert.equal(startCommandText(command), 'node --max-old-space-size=512 --enable-source-maps dist/extras/cli/main.js serve --port=0');
  });

  test('startCommandOf() refuses a package.json whose start script is not `node <file.js>` inside the package, naming it', () => {
    const cases: [unknown, RegExp][] = [
      [null, /not a JSON object/],
      [[LAYOUT_3_0], /not a JSON object/],
      [{ name: 'petstore-reference', bin: LAYOUT_3_0.bin }, /it has no start script, which must be `node \[options\] <file\.js> \[arguments\]`/],
      [{ scripts: { start: 'tsx cli/main.ts' } }, /its start script "tsx cli\/main\.ts" is not `node \[options\] <file\.js>/],
    ];
    for (const start of ['npm run build && node dist/cli/main.js', 'node --import tsx extras/cli/main.ts', 'node "$ENTRY"', 'node', 'node ../elsewhere/main.js', 'node /usr/bin/main.js']) {
      cases.push([{ ...LAYOUT_EXTRAS, scripts: { start } }, /does not say how to start the server: its start script/]);
    }
    for (const [manifest, message] of cases) assert.throws(() => startCommandOf(manifest), message, JSON.stringify(manifest));
  });
});

/** Runs git in a folder with a fixed identity, so commits work on any machine. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd });
  return stdout;
}

/** The worktrees git knows of in a repository. */
async function worktreesOf(repository: string): Promise<string[]> {
  return (await git(repository, 'worktree', 'list', '--porcelain')).split('\n').filter((line) => line.startsWith('worktree ')).map((line) => line.slice('worktree '.length));
}

describe('withRevisionBuild()', () => {
  let folder = '';
  let repository = '';
  let temporary = '';
  let firstCommit = '';

  /**
   * A repository of two commits in the two layouts, each with a build that writes its start file,
   * the same package-lock.json in both, and a node_modules of its own (untracked) with a file in it.
   */
  before(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'petstore-against-test-')));
    repository = join(folder, 'repository');
    temporary = join(folder, 'temporary');
    await mkdir(repository);
    await mkdir(temporary);
    await git(repository, 'init', '--quiet');
    const build = (file: string): string => `const { mkdirSync, writeFileSync } = require('node:fs'); const { dirname } = require('node:path'); mkdirSync(dirname('${file}'), { recursive: true }); writeFileSync('${file}', 'built');`;
    await writeFile(join(repository, 'package-lock.json'), '{"lockfileVersion":3}\n');
    await writeFile(join(repository, 'build.cjs'), build('dist/cli/main.js'));
    await writeFile(join(repository, 'package.json'), JSON.stringify({ ...LAYOUT_3_0, scripts: { ...LAYOUT_3_0.scripts, build: 'node build.cjs' } }));
    await git(repository, 'add', '.');
    await git(repository, 'commit', '--quiet', '-m', 'the 3.0 layout');
    firstCommit = (await git(repository, 'rev-parse', 'HEAD')).trim();
    await writeFile(join(repository, 'build.cjs'), build('dist/extras/cli/main.js'));
    await writeFile(join(repository, 'package.json'), JSON.stringify({ ...LAYOUT_EXTRAS, scripts: { ...LAYOUT_EXTRAS.scripts, build: 'node build.cjs' } }));
    await git(repository, 'commit', '--quiet', '-am', 'the extras layout');
    await mkdir(join(repository, 'node_modules'));
    await writeFile(join(repository, 'node_modules', 'kept.txt'), 'this checkout\'s');
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /** Checks that nothing of a revision's build is left: no folder, no worktree in git, this checkout's node_modules whole. */
  async function assertCleanedUp(): Promise<void> {
    assert.deepEqual(await readdir(temporary), []);
    assert.deepEqual(await worktreesOf(repository), [repository]);
    assert.equal(await readFile(join(repository, 'node_modules', 'kept.txt'), 'utf8'), 'this checkout\'s');
  }

  test('withRevisionBuild() builds each layout\'s revision in a worktree that links this checkout\'s node_modules, then removes it', async () => {
    for (const [revision, script] of [[firstCommit.slice(0, 7), 'dist/cli/main.js'], ['HEAD', 'dist/extras/cli/main.js']] as const) {
      const seen = await withRevisionBuild(revision, { repository, log: () => undefined, temporaryFolder: temporary }, async (build: RevisionBuild) => {
        assert.equal(build.start.script, script);
        assert.ok(build.root.startsWith(join(temporary, WORKTREE_PREFIX)), build.root);
        assert.equal(await readFile(join(build.root, script), 'utf8'), 'built');
        assert.ok((await lstat(join(build.root, 'node_modules'))).isSymbolicLink());
        assert.equal(await readFile(join(build.root, 'node_modules', 'kept.txt'), 'utf8'), 'this checkout\'s');
        assert.deepEqual(await worktreesOf(repository), [repository, build.root]);
        return build.commit;
      });
      assert.equal(seen, (await git(repository, 'rev-parse', revision)).trim());
      await assertCleanedUp();
    }
  });

  test('withRevisionBuild() runs npm ci in the worktree instead of linking when the revision\'s package-lock.json differs', async () => {
    const lock = { name: 'petstore-reference', lockfileVersion: 3, requires: true, packages: { '': { name: 'petstore-reference' } } };
    await writeFile(join(repository, 'package-lock.json'), `${JSON.stringify(lock)}\n`);
    await git(repository, 'commit', '--quiet', '-am', 'another lock');
    // This checkout's lock stays the one before, so the revision's differs from it.
    await writeFile(join(repository, 'package-lock.json'), '{"lockfileVersion":3}\n');
    try {
      await withRevisionBuild('HEAD', { repository, log: () => undefined, temporaryFolder: temporary }, async (build: RevisionBuild) => {
        assert.equal(await readFile(join(build.root, 'dist/extras/cli/main.js'), 'utf8'), 'built');
        const installed = await lstat(join(build.root, 'node_modules')).catch(() => undefined);
        assert.ok(installed === undefined || !installed.isSymbolicLink(), 'npm ci\'s node_modules, not a link');
      });
      await assertCleanedUp();
    } finally {
      await git(repository, 'reset', '--quiet', '--hard', 'HEAD~1');
    }
  });

  test('withRevisionBuild() removes the worktree when what runs against it fails', async () => {
    await assert.rejects(
      withRevisionBuild('HEAD', { repository, log: () => undefined, temporaryFolder: temporary }, async () => {
        throw new Error('a server did not start');
      }),
      /a server did not start/,
    );
    await assertCleanedUp();
  });

  test('withRevisionBuild() removes the worktree when the revision\'s build fails, and says which step failed', async () => {
    await writeFile(join(repository, 'package.json'), JSON.stringify({ ...LAYOUT_EXTRAS, scripts: { ...LAYOUT_EXTRAS.scripts, build: 'node -e "process.exit(3)"' } }));
    await git(repository, 'commit', '--quiet', '-am', 'a broken build');
    try {
      await assert.rejects(withRevisionBuild('HEAD', { repository, log: () => undefined, temporaryFolder: temporary }, async () => 'not reached'), /^Error: npm run build of HEAD failed/);
      await assertCleanedUp();
    } finally {
      await git(repository, 'reset', '--quiet', '--hard', 'HEAD~1');
    }
  });

  test('withRevisionBuild() refuses a revision the repository does not have, before making anything', async () => {
    await assert.rejects(
      withRevisionBuild('v9.9.9', { repository, log: () => undefined, temporaryFolder: temporary }, async () => 'not reached'),
      /^Error: --against v9\.9\.9: no such commit in this repository \(`git tag` and `git log --oneline` list the names it takes\)$/,
    );
    await assertCleanedUp();
  });

  test('withRevisionBuild() removes the worktree when the process is stopped by SIGTERM while it runs', async () => {
    const script = `import { withRevisionBuild } from ${JSON.stringify(resolve(import.meta.dirname, '..', '..', 'bench', 'against.ts'))};
await withRevisionBuild('HEAD', { repository: ${JSON.stringify(repository)}, log: () => undefined, temporaryFolder: ${JSON.stringify(temporary)} }, async () => {
  process.stdout.write('built\\n');
  await new Promise(() => setInterval(() => undefined, 1000));
});`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
    try {
      await new Promise<void>((done, fail) => {
        child.stdout.on('data', (data: Buffer) => { if (data.toString().includes('built')) done(); });
        child.once('exit', (code) => fail(new Error(`the child ended with ${code} before building`)));
      });
      assert.equal((await worktreesOf(repository)).length, 2);
      child.kill('SIGTERM');
      assert.equal(await exited, 'SIGTERM');
    } finally {
      child.kill('SIGKILL');
    }
    await assertCleanedUp();
  });
});
