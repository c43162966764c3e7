import { execFileSync } from 'node:child_process';
import { lstatSync, rmSync, unlinkSync } from 'node:fs';
import { access, mkdtemp, readFile, realpath, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, posix } from 'node:path';
import { run } from './support.js';

/**
 * `npm run bench -- --against <revision>`: the project as built at another git revision, in a
 * temporary worktree, started as that revision's own package.json says, so it runs as one more
 * server in the same rounds as this build.
 */

/** How a revision's server starts: `node <nodeArguments> <script> <args>`, the script relative to the revision's root. */
export interface StartCommand {
  nodeArguments: string[];
  script: string;
  args: string[];
}

/** A build as its `npm start` runs it, under its name in the tables: where its files are, and its start command. */
export interface NamedBuild<Name extends string = string> {
  name: Name;
  root: string;
  start: StartCommand;
}

/** A revision (as given: `v3.0.0`, `762c6c9`, `main~3`) checked out at its full commit in a temporary worktree, given dependencies and built. */
export interface RevisionBuild {
  revision: string;
  commit: string;
  root: string;
  start: StartCommand;
}

/** Options of withRevisionBuild: the checkout whose git repository holds the revision (and whose node_modules may serve), progress lines, where the temporary folder goes. */
export interface RevisionBuildOptions {
  repository: string;
  log: (line: string) => void;
  temporaryFolder?: string;
}

/** Prefix of the temporary folder of a revision's worktree. */
export const WORKTREE_PREFIX = 'petstore-bench-against-';

/**
 * How a revision's `npm start` runs its server, read from its package.json (parsed JSON): its
 * `scripts.start`, which must be `node [options] <file.js> [arguments]` in plain words (no quotes,
 * variables or separators) with the file inside the package, as in every revision since 3.0.0. Both
 * the layout of 3.0.0 (`dist/cli/main.js`) and the later one (`dist/extras/cli/main.js`) come out of
 * the file itself, never from a path written here.
 */
export function startCommandOf(manifest: unknown): StartCommand {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw new Error('its package.json is not a JSON object');
  const scripts = 'scripts' in manifest ? manifest.scripts : undefined;
  const start = typeof scripts === 'object' && scripts !== null && 'start' in scripts ? scripts.start : undefined;
  const words = typeof start === 'string' ? start.trim().split(/\s+/) : [];
  const scriptIndex = words.findIndex((word, index) => index > 0 && !word.startsWith('-'));
  const file = posix.normalize(words[scriptIndex] ?? '');
  // An option taking its value as the next word (`--import tsx`) would be read as the script: only a JavaScript file counts.
  const isPlain = words[0] === 'node' && words.every((word) => /^[\w@%+=:,./-]+$/.test(word)) && /\.[cm]?js$/.test(file) && !isAbsolute(file) && !file.startsWith('../');
  if (isPlain) return { nodeArguments: words.slice(1, scriptIndex), script: file, args: words.slice(scriptIndex + 1) };
  const startText = typeof start === 'string' ? `its start script ${JSON.stringify(start)} is not` : 'it has no start script, which must be';
  throw new Error(`its package.json does not say how to start the server: ${startText} \`node [options] <file.js> [arguments]\` with the file inside the package`);
}

/** The start command as a line to show: `node dist/cli/main.js`. */
export function startCommandText(command: StartCommand): string {
  return ['node', ...command.nodeArguments, command.script, ...command.args].join(' ');
}

/** The full commit id of a revision of the repository, or an Error that says how to name one. */
export async function commitOf(repository: string, revision: string): Promise<string> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], { cwd: repository });
    return stdout.trim();
  } catch {
    throw new Error(`--against ${revision}: no such commit in this repository (\`git tag\` and \`git log --oneline\` list the names it takes)`);
  }
}

/** Runs a command in `cwd`; when it fails, throws an Error naming `step`, with the end of its output. */
async function runStep(step: string, command: string, args: readonly string[], cwd: string): Promise<void> {
  try {
    await run(command, args, { cwd, maxBuffer: 1 << 24 });
  } catch (error) {
    const output = typeof error === 'object' && error !== null && 'stderr' in error && 'stdout' in error ? `${String(error.stdout)}${String(error.stderr)}` : String(error);
    throw new Error(`${step} failed:\n${output.trim().split('\n').slice(-20).join('\n')}`);
  }
}

/**
 * Removes a revision's worktree and its temporary folder, and forgets the worktree in git; every
 * step runs even when an earlier one fails. The linked node_modules goes first, so nothing of this
 * checkout's is ever removed through the link. Synchronous, so a signal handler can finish it.
 */
function removeWorktree(repository: string, folder: string, tree: string): void {
  const ignoring = (action: () => unknown): void => {
    try {
      action();
    } catch {
      // Not made yet, or already gone: what is left goes with the folder, or with git's next prune.
    }
  };
  ignoring(() => lstatSync(join(tree, 'node_modules')).isSymbolicLink() && unlinkSync(join(tree, 'node_modules')));
  ignoring(() => execFileSync('git', ['worktree', 'remove', '--force', '--force', tree], { cwd: repository, stdio: 'ignore' }));
  rmSync(folder, { recursive: true, force: true });
  ignoring(() => execFileSync('git', ['worktree', 'prune'], { cwd: repository, stdio: 'ignore' }));
}

/**
 * Checks `revision` out in a temporary git worktree (`git worktree add --detach` in a folder of the
 * OS's temporary folder), gives it dependencies, builds it with its own `npm run build`, finds how
 * its `npm start` runs the server, and calls `use` with it. The worktree and its folder are removed
 * when `use` settles, when any step fails, and on SIGINT or SIGTERM.
 */
export async function withRevisionBuild<T>(revision: string, options: RevisionBuildOptions, use: (build: RevisionBuild) => Promise<T>): Promise<T> {
  const { repository, log } = options;
  const commit = await commitOf(repository, revision);
  const folder = await mkdtemp(join(options.temporaryFolder ?? tmpdir(), WORKTREE_PREFIX));
  const tree = join(folder, 'tree');
  const onSignal = (signal: NodeJS.Signals): void => {
    removeWorktree(repository, folder, tree);
    // The handler is gone: raising the signal again ends the process as it would have.
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`Against ${revision} (${commit.slice(0, 12)}): a worktree in ${tree}…`);
    await runStep(`git worktree add of ${revision}`, 'git', ['worktree', 'add', '--detach', tree, commit], repository);
    let start: StartCommand;
    try {
      start = startCommandOf(JSON.parse(await readFile(join(tree, 'package.json'), 'utf8')));
    } catch (error) {
      throw new Error(`--against ${revision}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const lockOf = (root: string): Promise<string | undefined> => readFile(join(root, 'package-lock.json'), 'utf8').catch(() => undefined);
    // This checkout's node_modules serves only a revision whose package-lock.json is this one's, byte for byte.
    const currentLock = await lockOf(repository);
    if (currentLock !== undefined && currentLock === (await lockOf(tree))) {
      log('Against: the same package-lock.json, so this checkout\'s node_modules is linked');
      await symlink(await realpath(join(repository, 'node_modules')), join(tree, 'node_modules'), 'dir');
    } else {
      log('Against: another package-lock.json, so npm ci…');
      await runStep('npm ci in the revision\'s worktree', 'npm', ['ci', '--no-audit', '--no-fund'], tree);
    }
    log('Against: its npm run build…');
    await runStep(`npm run build of ${revision}`, 'npm', ['run', 'build', '--silent'], tree);
    await access(join(tree, start.script)).catch(() => {
      throw new Error(`--against ${revision}: its start script runs ${start.script}, which its npm run build did not write`);
    });
    return await use({ revision, commit, root: tree, start });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    removeWorktree(repository, folder, tree);
  }
}
