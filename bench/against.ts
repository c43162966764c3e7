import { execFileSync } from 'node:child_process';
import { lstatSync, rmSync, unlinkSync } from 'node:fs';
import { access, mkdtemp, readFile, realpath, rm, symlink, unlink } from 'node:fs/promises';
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
  /** Which entry of the package.json it was read from. */
  source: 'scripts.start' | 'bin';
}

/** A revision checked out, given dependencies and built, ready to start. */
export interface RevisionBuild {
  /** The revision as given (`v3.0.0`, `762c6c9`, `main~3`). */
  revision: string;
  /** The full commit id it names. */
  commit: string;
  /** The root of its temporary worktree. */
  root: string;
  /** How its `npm start` runs its server. */
  start: StartCommand;
  /** How its dependencies came: this checkout's node_modules linked, or `npm ci`. */
  dependencies: DependencyPlan;
}

/** How a revision gets its dependencies: this checkout's node_modules by symlink, or its own `npm ci`. */
export type DependencyPlan = 'link' | 'install';

/** Options of withRevisionBuild. */
export interface RevisionBuildOptions {
  /** The checkout whose git repository holds the revision, and whose node_modules and package-lock.json are reused. */
  repository: string;
  /** Progress lines. */
  log: (line: string) => void;
  /** Where the temporary folder is made; default the OS's temporary folder. */
  temporaryFolder?: string;
}

/** Prefix of the temporary folder of a revision's worktree. */
export const WORKTREE_PREFIX = 'petstore-bench-against-';

/** A path of a package.json kept inside the package: relative, normalised, never above its root. */
function packagePath(path: string): string | undefined {
  const normalised = posix.normalize(path.replaceAll('\\', '/'));
  if (normalised === '' || normalised === '.' || isAbsolute(normalised) || normalised.startsWith('../') || normalised === '..') return undefined;
  return normalised;
}

/** A word of a start script that needs no shell: no quotes, variables, redirections or command separators. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** The start command of a `scripts.start` that runs `node [options] <file.js> [arguments]`, or undefined for any other script. */
function fromStartScript(script: string): StartCommand | undefined {
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node' || !words.every((word) => PLAIN_WORD.test(word))) return undefined;
  const scriptIndex = words.findIndex((word, index) => index > 0 && !word.startsWith('-'));
  if (scriptIndex === -1) return undefined;
  const file = packagePath(words[scriptIndex] as string);
  // An option taking its value as the next word (`--import tsx`) would be read as the script: only a JavaScript file counts.
  if (file === undefined || !/\.[cm]?js$/.test(file)) return undefined;
  return { nodeArguments: words.slice(1, scriptIndex), script: file, args: words.slice(scriptIndex + 1), source: 'scripts.start' };
}

/** The file of a package.json's `bin`: the string, or the entry named as the package, or the only entry. */
function binFile(bin: unknown, name: unknown): string | undefined {
  if (typeof bin === 'string') return bin;
  if (typeof bin !== 'object' || bin === null) return undefined;
  const entries = Object.entries(bin).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const named = entries.find(([command]) => command === name);
  return named?.[1] ?? (entries.length === 1 ? entries[0]?.[1] : undefined);
}

/**
 * How a revision's `npm start` runs its server, read from its package.json (parsed JSON): its
 * `scripts.start` when that is `node [options] <file.js> [arguments]`, otherwise its `bin`. Both the
 * layout of 3.0.0 (`dist/cli/main.js`) and the later one (`dist/extras/cli/main.js`) come out of
 * the file itself, never from a path written here. Throws when neither says how to start.
 */
export function startCommandOf(manifest: unknown): StartCommand {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw new Error('its package.json is not a JSON object');
  const scripts = 'scripts' in manifest ? manifest.scripts : undefined;
  const start = typeof scripts === 'object' && scripts !== null && 'start' in scripts ? scripts.start : undefined;
  if (typeof start === 'string') {
    const command = fromStartScript(start);
    if (command !== undefined) return command;
  }
  const file = binFile('bin' in manifest ? manifest.bin : undefined, 'name' in manifest ? manifest.name : undefined);
  const script = file === undefined ? undefined : packagePath(file);
  if (script !== undefined) return { nodeArguments: [], script, args: [], source: 'bin' };
  const startText = typeof start === 'string' ? `its start script ${JSON.stringify(start)} is not \`node <file.js>\`` : 'it has no start script';
  throw new Error(`its package.json does not say how to start the server: ${startText}, and it has no \`bin\` entry inside the package`);
}

/** The start command as a line to show: `node dist/cli/main.js`. */
export function startCommandText(command: StartCommand): string {
  return ['node', ...command.nodeArguments, command.script, ...command.args].join(' ');
}

/** Whether a revision can reuse this checkout's node_modules: only when its package-lock.json is this one's, byte for byte. */
export function dependencyPlan(currentLock: string | undefined, revisionLock: string | undefined): DependencyPlan {
  return currentLock !== undefined && currentLock === revisionLock ? 'link' : 'install';
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
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

/** The message of a failed command, with its output, shortened to its end. */
function failure(step: string, error: unknown): Error {
  const output = typeof error === 'object' && error !== null && 'stderr' in error && 'stdout' in error ? `${String(error.stdout)}${String(error.stderr)}` : String(error);
  return new Error(`${step} failed:\n${output.trim().split('\n').slice(-20).join('\n')}`);
}

/** Gives the worktree its dependencies as `plan` says. */
async function provideDependencies(repository: string, tree: string, plan: DependencyPlan): Promise<void> {
  if (plan === 'link') {
    await symlink(await realpath(join(repository, 'node_modules')), join(tree, 'node_modules'), 'dir');
    return;
  }
  try {
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tree, maxBuffer: 1 << 24 });
  } catch (error) {
    throw failure('npm ci in the revision\'s worktree', error);
  }
}

/**
 * Removes a revision's worktree and its temporary folder, and forgets the worktree in git; every
 * step runs even when an earlier one fails. The linked node_modules goes first, so nothing of this
 * checkout's is ever removed through the link.
 */
async function removeWorktree(repository: string, folder: string, tree: string): Promise<void> {
  await unlink(join(tree, 'node_modules')).catch(() => undefined);
  await run('git', ['worktree', 'remove', '--force', '--force', tree], { cwd: repository }).catch(() => undefined);
  await rm(folder, { recursive: true, force: true });
  await run('git', ['worktree', 'prune'], { cwd: repository }).catch(() => undefined);
}

/** The same, synchronously, for a signal handler that must finish before the process ends. */
function removeWorktreeNow(repository: string, folder: string, tree: string): void {
  const linked = join(tree, 'node_modules');
  try {
    if (lstatSync(linked).isSymbolicLink()) unlinkSync(linked);
  } catch {
    // Nothing linked yet.
  }
  try {
    execFileSync('git', ['worktree', 'remove', '--force', '--force', tree], { cwd: repository, stdio: 'ignore' });
  } catch {
    // Not registered yet, or already removed: the folder goes below either way.
  }
  rmSync(folder, { recursive: true, force: true });
  try {
    execFileSync('git', ['worktree', 'prune'], { cwd: repository, stdio: 'ignore' });
  } catch {
    // The registration goes with git's next prune.
  }
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
    removeWorktreeNow(repository, folder, tree);
    // The handler is gone: raising the signal again ends the process as it would have.
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`Against ${revision} (${commit.slice(0, 12)}): a worktree in ${tree}…`);
    try {
      await run('git', ['worktree', 'add', '--detach', tree, commit], { cwd: repository });
    } catch (error) {
      throw failure(`git worktree add of ${revision}`, error);
    }
    let start: StartCommand;
    try {
      start = startCommandOf(JSON.parse(await readFile(join(tree, 'package.json'), 'utf8')));
    } catch (error) {
      throw new Error(`--against ${revision}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const dependencies = dependencyPlan(await readIfPresent(join(repository, 'package-lock.json')), await readIfPresent(join(tree, 'package-lock.json')));
    log(dependencies === 'link' ? 'Against: the same package-lock.json, so this checkout\'s node_modules is linked' : 'Against: another package-lock.json, so npm ci…');
    await provideDependencies(repository, tree, dependencies);
    log('Against: its npm run build…');
    try {
      await run('npm', ['run', 'build', '--silent'], { cwd: tree, maxBuffer: 1 << 24 });
    } catch (error) {
      throw failure(`npm run build of ${revision}`, error);
    }
    try {
      await access(join(tree, start.script));
    } catch {
      throw new Error(`--against ${revision}: its ${start.source} runs ${start.script}, which its npm run build did not write`);
    }
    return await use({ revision, commit, root: tree, start, dependencies });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await removeWorktree(repository, folder, tree);
  }
}
