import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { PetstoreError } from '../../lib/index.js';
import { errorMessageOf, errorCode, synchronousFile, synchronousFileSystem } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';

/** A lock this process holds; release it exactly once. */
export interface HeldLock {
  /** Removes the lock file if it is still this acquisition's, and closes it. */
  release(): Promise<void>;
  /**
   * Why this process can no longer prove that it holds the lock, or undefined while it can: the path
   * still names the very file this acquisition created (same device and inode), and that file still
   * holds this acquisition's content. Any process that took the lock since made a new file there.
   */
  problem(): Promise<string | undefined>;
  /**
   * The same check as `problem`, made with synchronous calls in a few microseconds: true when the
   * lock is provably still this acquisition's; false when it may not be or the file system has no
   * synchronous calls, and then `problem` says why (or finds it held after all).
   */
  isHeldNow(): boolean;
}

/** Who wrote a lock file: enough to tell that process apart from a later one that got the same pid. */
export interface LockOwner {
  pid: number;
  /** The process's start time in clock ticks after boot (/proc/<pid>/stat, field 22); undefined where /proc is absent. */
  startTime: string | undefined;
  /** The kernel's boot id (/proc/sys/kernel/random/boot_id); undefined where /proc is absent. */
  bootId: string | undefined;
  /** Random, per acquisition. */
  token: string;
}

/** Tokens of the locks held by this process, so a second open here is told apart from a previous process that had our pid. */
const heldTokens = new Set<string>();

/** Takeover attempts before giving up: each one loses only to another process racing for the same lock. */
const MAX_ATTEMPTS = 3;

/** A lock file is a few dozen bytes; anything longer is not one of ours. */
const MAX_LOCK_SIZE = 512;

/** Where Linux says which boot this is: a new random UUID at every boot. */
const BOOT_ID_PATH = '/proc/sys/kernel/random/boot_id';

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}

/** A small text file through the injectable file system; undefined when it cannot be read (no /proc, hidepid, a process gone). */
async function readText(fileSystem: StorageFileSystem, path: string): Promise<string | undefined> {
  try {
    return Buffer.from(await fileSystem.readFile(path)).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The start time of process `pid` in clock ticks after boot: field 22 of /proc/<pid>/stat. The
 * second field (the command name, in parentheses) may hold spaces and parentheses, so fields are
 * counted after the last `)`, where field 3 begins.
 */
export async function processStartTime(fileSystem: StorageFileSystem, pid: number): Promise<string | undefined> {
  const stat = await readText(fileSystem, `/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTime = fields[22 - 3];
  return startTime !== undefined && /^[0-9]{1,20}$/.test(startTime) ? startTime : undefined;
}

/** This boot's id, or undefined where the kernel does not say. */
export async function bootId(fileSystem: StorageFileSystem): Promise<string | undefined> {
  const text = (await readText(fileSystem, BOOT_ID_PATH))?.trim();
  return text !== undefined && /^[0-9a-f-]{8,64}$/.test(text) ? text : undefined;
}

/** The lock file content: one `name value` line each, `-` for what this system cannot tell. */
export function formatLockContent(owner: LockOwner): string {
  return `pid ${owner.pid}\nstart ${owner.startTime ?? '-'}\nboot ${owner.bootId ?? '-'}\ntoken ${owner.token}\n`;
}

/** Parses lock file content: this format, or the earlier `<pid>\n<token>\n`; undefined for anything else. */
export function parseLockContent(content: string): LockOwner | undefined {
  const current = /^pid ([1-9][0-9]{0,9})\nstart (-|[0-9]{1,20})\nboot (-|[0-9a-f-]{8,64})\ntoken ([0-9a-f]{32})\n$/.exec(content);
  if (current !== null) {
    const [, pid = '', startTime = '-', boot = '-', token = ''] = current;
    return { pid: Number(pid), startTime: startTime === '-' ? undefined : startTime, bootId: boot === '-' ? undefined : boot, token };
  }
  const earlier = /^([1-9][0-9]{0,9})\n([0-9a-f]{32})\n$/.exec(content);
  if (earlier === null) return undefined;
  const [, pid = '', token = ''] = earlier;
  return { pid: Number(pid), startTime: undefined, bootId: undefined, token };
}

/** Whether two values are both known and differ: an unknown one never proves a difference. */
function differ(left: string | undefined, right: string | undefined): boolean {
  return left !== undefined && right !== undefined && left !== right;
}

/**
 * Why the lock's owner is provably gone, or undefined while it may still be running. A reused pid is
 * told apart by the boot id (a lock from before a reboot) and by the start time of the process that
 * has the pid now; where /proc cannot tell, only a pid without a process counts as gone, so a live
 * owner is never taken for a dead one.
 */
async function staleReason(owner: LockOwner | undefined, self: LockOwner, fileSystem: StorageFileSystem): Promise<string | undefined> {
  if (owner === undefined) return 'its content is not a pid and token (a crash or an edit left it so)';
  if (differ(owner.bootId, self.bootId)) return `it was written before the machine restarted (boot id ${owner.bootId}, now ${self.bootId})`;
  if (owner.pid === process.pid) {
    if (heldTokens.has(owner.token)) return undefined;
    // Same pid, same start, same boot: this very process wrote it, through another copy of this module or a release that failed.
    if (owner.startTime !== undefined && owner.startTime === self.startTime && owner.bootId === self.bootId) return undefined;
    return `pid ${owner.pid} is this process, which does not hold it (an earlier process had the same pid)`;
  }
  if (!isProcessAlive(owner.pid)) return `no process has pid ${owner.pid}`;
  const startTime = owner.startTime === undefined ? undefined : await processStartTime(fileSystem, owner.pid);
  if (differ(owner.startTime, startTime)) {
    return `pid ${owner.pid} now belongs to another process (started at tick ${startTime} after boot; the lock's owner started at tick ${owner.startTime})`;
  }
  return undefined;
}

function lockError(message: string, cause?: unknown): PetstoreError {
  return new PetstoreError('unavailable', message, cause === undefined ? {} : { cause });
}

/** What an errno says about the directory a file could not be created in. */
const DIRECTORY_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of its path is not a directory',
  EACCES: 'this user may not create files in it',
  EPERM: 'this user may not create files in it',
  EROFS: 'its file system is read-only',
  ENOSPC: 'its file system is full',
  EDQUOT: 'this user\'s disk quota is used up',
};

/**
 * The refusal when the lock cannot even be created: it names the lock file, which the operator did not
 * name and may not know about, and the directory, which the operator controls (never the lock's temporary name).
 */
function directoryError(dataPath: string, lockPath: string, error: unknown): PetstoreError {
  const code = errorCode(error);
  // The errno alone where it has no gloss here: Node's message would name the lock's temporary file.
  const problem = code === undefined ? undefined : DIRECTORY_PROBLEMS[code];
  const detail = code === undefined ? errorMessageOf(error) : problem === undefined ? code : `${code}: ${problem}`;
  const directory = dirname(dataPath);
  return lockError(
    `Cannot open data file ${dataPath}: its lock file ${lockPath} cannot be created in ${directory} (${detail}). `
    + `The lock keeps a second server off the data file, so ${directory} must exist and let this user create files in it, even when the data file is already there: `
    + 'make it so, or keep the data file in a directory that does.',
    error,
  );
}

/** A lock file as read at one moment: which file it is, and what it says. */
interface LockSnapshot {
  identity: string;
  content: string;
}

/** Reads the lock file and the identity of that same open file, so the two belong together; undefined when it is gone. */
async function readLock(lockPath: string, fileSystem: StorageFileSystem): Promise<LockSnapshot | undefined> {
  let file: StorageFile;
  try {
    file = await fileSystem.open(lockPath, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { identity: await file.identity(), content: await readContent(file) };
  } finally {
    await file.close().catch(() => undefined);
  }
}

/**
 * Removes the stale lock `stale` and nothing else. Unlinking the path would race: another process
 * may have replaced the stale file with its own live lock since we read it. So the path is renamed
 * to a name of ours (atomic), and if what moved is not the stale file, it is linked back (the same
 * inode, so its owner's checks still pass) and left alone. Resolves whether the stale file was removed.
 */
async function removeStale(lockPath: string, stale: LockSnapshot, token: string, fileSystem: StorageFileSystem): Promise<boolean> {
  const aside = `${lockPath}.${process.pid}.${token.slice(0, 8)}.stale`;
  try {
    await fileSystem.rename(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
  try {
    if ((await fileSystem.identity(aside)) === stale.identity) return true;
    try {
      await fileSystem.link(aside, lockPath);
    } catch (error) {
      // EEXIST: a third process linked its lock in the moment the path was free; the one we moved is displaced, and its owner's next check says so.
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    return false;
  } finally {
    await fileSystem.unlink(aside).catch(() => undefined);
  }
}

/**
 * Takes the single-writer lock `lockPath` for `dataPath`. The lock file holds the owner's pid, start
 * time, boot id and a random token; it is published with link(2), which fails when the lock exists,
 * so the lock never exists without its content. A lock whose owner is provably gone (no such pid, a
 * pid now used by a process started later, a lock from before a reboot) is stale and taken over, so
 * a server killed with SIGKILL restarts at once; a lock whose owner may live is never taken over.
 */
export async function acquireLock(lockPath: string, dataPath: string, fileSystem: StorageFileSystem, log: (line: string) => void): Promise<HeldLock> {
  const token = randomBytes(16).toString('hex');
  const [startTime, boot] = await Promise.all([processStartTime(fileSystem, process.pid), bootId(fileSystem)]);
  const self: LockOwner = { pid: process.pid, startTime, bootId: boot, token };
  const content = formatLockContent(self);
  const draft = `${lockPath}.${process.pid}.${token.slice(0, 8)}`;
  try {
    await fileSystem.writeNewFile(draft, content);
  } catch (error) {
    throw directoryError(dataPath, lockPath, error);
  }
  let held: StorageFile | undefined;
  try {
    let file: StorageFile;
    let identity: string;
    try {
      file = await fileSystem.open(draft, 'r');
      held = file;
      identity = await file.identity();
    } catch (error) {
      throw lockError(`Cannot lock data file ${dataPath}: cannot open the lock file it just wrote: ${errorMessageOf(error)}`, error);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await fileSystem.link(draft, lockPath);
        heldTokens.add(token);
        const lock = heldLock({ lockPath, dataPath, token, content, identity, file, fileSystem });
        held = undefined;
        return lock;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw lockError(`Cannot lock data file ${dataPath}: cannot create ${lockPath}: ${errorMessageOf(error)}`, error);
      }
      let current: LockSnapshot | undefined;
      try {
        current = await readLock(lockPath, fileSystem);
      } catch (error) {
        throw lockError(`Cannot lock data file ${dataPath}: cannot read ${lockPath}: ${errorMessageOf(error)}`, error);
      }
      // The owner released the lock between our link and our read: try again.
      if (current === undefined) {
        if (attempt < MAX_ATTEMPTS) continue;
        throw lockError(`Cannot lock data file ${dataPath}: another process keeps taking and releasing ${lockPath}`);
      }
      const owner = parseLockContent(current.content);
      const reason = await staleReason(owner, self, fileSystem);
      if (reason === undefined) {
        const holder = owner?.pid === process.pid ? 'this process' : `running process ${owner?.pid}`;
        throw lockError(`Data file ${dataPath} is in use: ${lockPath} is held by ${holder}. Only one writer may open it; stop the other one first.`);
      }
      if (attempt >= MAX_ATTEMPTS) throw lockError(`Cannot lock data file ${dataPath}: another process keeps taking over the stale lock ${lockPath}`);
      let isRemoved: boolean;
      try {
        isRemoved = await removeStale(lockPath, current, token, fileSystem);
      } catch (error) {
        throw lockError(`Cannot lock data file ${dataPath}: cannot remove the stale lock ${lockPath}: ${errorMessageOf(error)}`, error);
      }
      if (isRemoved) log(`petstore: taking over the stale lock ${lockPath}: ${reason}`);
    }
  } finally {
    await held?.close().catch(() => undefined);
    await fileSystem.unlink(draft).catch(() => undefined);
  }
}

/** What a held lock keeps about its acquisition. */
interface Acquisition {
  lockPath: string;
  dataPath: string;
  token: string;
  content: string;
  /** Device and inode of the lock file this acquisition created. */
  identity: string;
  /** That file, kept open, so its content can be checked even if the path is made to name another file. */
  file: StorageFile;
  fileSystem: StorageFileSystem;
}

/** The lock this process took. */
function heldLock(acquisition: Acquisition): HeldLock {
  const { lockPath, dataPath, token, content, identity, file, fileSystem } = acquisition;
  /** Where isHeldNow reads the lock file, allocated once. */
  let lockBuffer: Buffer | undefined;
  return {
    async release(): Promise<void> {
      heldTokens.delete(token);
      const ownContent = await readHeld(file);
      await file.close().catch(() => undefined);
      try {
        // Only if it is still ours: an operator may have removed it and another process taken it since.
        if (ownContent !== content || (await fileSystem.identity(lockPath)) !== identity) return;
        await fileSystem.unlink(lockPath);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw lockError(`Cannot release the lock ${lockPath}: ${errorMessageOf(error)}`, error);
      }
    },

    isHeldNow(): boolean {
      const fileNow = synchronousFile(file);
      const systemNow = synchronousFileSystem(fileSystem);
      if (fileNow === undefined || systemNow === undefined) return false;
      try {
        if (systemNow.status(lockPath).identity !== identity) return false;
        const buffer = (lockBuffer ??= Buffer.alloc(MAX_LOCK_SIZE));
        const count = fileNow.read(buffer, 0, buffer.length, 0);
        return buffer.toString('utf8', 0, count) === content;
      } catch {
        return false;
      }
    },

    async problem(): Promise<string | undefined> {
      const start = `The single-writer lock ${lockPath} of data file ${dataPath}`;
      const [current, ownContent] = await Promise.all([
        fileSystem.identity(lockPath).then((value) => ({ value }), (error: unknown) => ({ error })),
        readHeld(file),
      ]);
      if ('error' in current) {
        const what = errorCode(current.error) === 'ENOENT' ? 'was removed' : `cannot be checked (${errorMessageOf(current.error)})`;
        return `${start} ${what}, so another process may open the file and write to it too. `
          + 'Stop any other server on this data file, then restart this one: it takes the lock again on open.';
      }
      if (current.value === identity && ownContent === content) return undefined;
      const shown = current.value === identity ? ownContent : (await readLock(lockPath, fileSystem).catch(() => undefined))?.content;
      const owner = shown === undefined ? undefined : parseLockContent(shown);
      const holder = owner === undefined || owner.token === token
        ? (current.value === identity ? 'no longer holds this process\'s pid and token' : 'was replaced by another file')
        : `now belongs to pid ${owner.pid}`;
      return `${start} ${holder}, so another process may be writing to the file too. `
        + 'Stop every other server on this data file, then restart this one.';
    },
  };
}

/** The content of an open lock file now. */
async function readContent(file: StorageFile): Promise<string> {
  const buffer = Buffer.alloc(MAX_LOCK_SIZE);
  const count = await file.read(buffer, 0, buffer.length, 0);
  return buffer.toString('utf8', 0, count);
}

/** The content of the held lock file now, read through its open descriptor; undefined when that read fails. */
function readHeld(file: StorageFile): Promise<string | undefined> {
  return readContent(file).catch(() => undefined);
}
