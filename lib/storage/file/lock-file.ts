import { randomBytes } from 'node:crypto';
import { PetstoreError } from '../../errors.js';
import { errorMessageOf, errorCode } from './file-system.js';
import type { StorageFileSystem } from './file-system.js';

/** A lock this process holds; release it exactly once. */
export interface HeldLock {
  /** Removes the lock file. */
  release(): Promise<void>;
  /** Why the lock file no longer shows this acquisition (removed, or taken by another process), or undefined while it does. */
  problem(): Promise<string | undefined>;
}

/** Tokens of the locks held by this process, so a second open here is told apart from a previous process that had our pid. */
const heldTokens = new Set<string>();

/** Takeover attempts before giving up: each one loses only to another process racing for the same lock. */
const MAX_ATTEMPTS = 3;

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}

/** The owner recorded in a lock file: its pid and the random token of that acquisition. */
interface LockOwner {
  pid: number;
  token: string;
}

/** Parses lock file content `<pid>\n<token>\n`; undefined when it is not in that shape. */
function parseOwner(content: string): LockOwner | undefined {
  const match = /^([1-9][0-9]{0,9})\n([0-9a-f]{32})\n$/.exec(content);
  if (match === null) return undefined;
  return { pid: Number(match[1]), token: match[2] as string };
}

/** Why the lock's owner is gone, or undefined while it may still be running. */
function staleReason(owner: LockOwner | undefined): string | undefined {
  if (owner === undefined) return 'its content is not a pid and token (a crash or an edit left it so)';
  if (owner.pid === process.pid) return heldTokens.has(owner.token) ? undefined : `pid ${owner.pid} is this process, which does not hold it (an earlier process had the same pid)`;
  return isProcessAlive(owner.pid) ? undefined : `no process has pid ${owner.pid}`;
}

function lockError(message: string, cause?: unknown): PetstoreError {
  return new PetstoreError('unavailable', message, cause === undefined ? {} : { cause });
}

/**
 * Takes the single-writer lock `lockPath` for `dataPath`. The lock file holds the owner's pid and a
 * token; it is published with link(2), which fails when the lock exists, so the lock never exists
 * without its content. A lock whose pid is no longer alive is stale and taken over, so a server
 * killed with SIGKILL restarts at once.
 */
export async function acquireLock(lockPath: string, dataPath: string, fileSystem: StorageFileSystem, log: (line: string) => void): Promise<HeldLock> {
  const token = randomBytes(16).toString('hex');
  const draft = `${lockPath}.${process.pid}.${token.slice(0, 8)}`;
  try {
    await fileSystem.writeNewFile(draft, `${process.pid}\n${token}\n`);
  } catch (error) {
    throw lockError(`Cannot lock data file ${dataPath}: cannot write ${draft}: ${errorMessageOf(error)}`, error);
  }
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await fileSystem.link(draft, lockPath);
        heldTokens.add(token);
        return { release: () => releaseLock(lockPath, token, fileSystem), problem: () => lockProblem(lockPath, dataPath, token, fileSystem) };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw lockError(`Cannot lock data file ${dataPath}: cannot create ${lockPath}: ${errorMessageOf(error)}`, error);
      }
      let content: string;
      try {
        content = Buffer.from(await fileSystem.readFile(lockPath)).toString('utf8');
      } catch (error) {
        // The owner released the lock between our link and our read: try again.
        if (errorCode(error) === 'ENOENT' && attempt < MAX_ATTEMPTS) continue;
        throw lockError(`Cannot lock data file ${dataPath}: cannot read ${lockPath}: ${errorMessageOf(error)}`, error);
      }
      const owner = parseOwner(content);
      const reason = staleReason(owner);
      if (reason === undefined) {
        const holder = owner?.pid === process.pid ? 'this process' : `running process ${owner?.pid}`;
        throw lockError(`Data file ${dataPath} is in use: ${lockPath} is held by ${holder}. Only one writer may open it; stop the other one first.`);
      }
      if (attempt >= MAX_ATTEMPTS) throw lockError(`Cannot lock data file ${dataPath}: another process keeps taking over the stale lock ${lockPath}`);
      log(`petstore: taking over the stale lock ${lockPath}: ${reason}`);
      try {
        await fileSystem.unlink(lockPath);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw lockError(`Cannot lock data file ${dataPath}: cannot remove the stale lock ${lockPath}: ${errorMessageOf(error)}`, error);
      }
    }
  } finally {
    await fileSystem.unlink(draft).catch(() => undefined);
  }
}

/** Removes the lock file if it is still ours: an operator may have removed it and another process taken it since. */
async function releaseLock(lockPath: string, token: string, fileSystem: StorageFileSystem): Promise<void> {
  heldTokens.delete(token);
  try {
    if (parseOwner(Buffer.from(await fileSystem.readFile(lockPath)).toString('utf8'))?.token !== token) return;
    await fileSystem.unlink(lockPath);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw lockError(`Cannot release the lock ${lockPath}: ${errorMessageOf(error)}`, error);
  }
}

/** Why `lockPath` no longer holds `token`, said for an operator, or undefined while it does. */
async function lockProblem(lockPath: string, dataPath: string, token: string, fileSystem: StorageFileSystem): Promise<string | undefined> {
  let content: string;
  try {
    content = Buffer.from(await fileSystem.readFile(lockPath)).toString('utf8');
  } catch (error) {
    const what = errorCode(error) === 'ENOENT' ? 'was removed' : `cannot be read (${errorMessageOf(error)})`;
    return `The single-writer lock ${lockPath} of data file ${dataPath} ${what}, so another process may open the file and write to it too. `
      + 'Stop any other server on this data file, then restart this one: it takes the lock again on open.';
  }
  const owner = parseOwner(content);
  if (owner?.token === token) return undefined;
  const holder = owner === undefined ? 'no longer holds this process\'s pid and token' : `now belongs to pid ${owner.pid}`;
  return `The single-writer lock ${lockPath} of data file ${dataPath} ${holder}, so another process may be writing to the file too. `
    + 'Stop every other server on this data file, then restart this one.';
}
