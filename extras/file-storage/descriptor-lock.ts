import { spawn } from 'node:child_process';

/** What an attempt to lock an open file's own description came to. */
export type DescriptorLock =
  | { state: 'taken' }
  /** Another open description of the same file holds it: another process, or another open in this one. */
  | { state: 'busy' }
  /** This platform or file system cannot say; `reason` is empty where that is expected (no `flock` program, not Linux). */
  | { state: 'unsupported'; reason: string };

/** Options of lockDescriptor, for tests: the program and the platform to take. */
export interface DescriptorLockOptions {
  /** The util-linux program to run; default `flock`. */
  program?: string;
  /** The platform the lock is taken on; default process.platform. */
  platform?: NodeJS.Platform;
}

/** The exit status asked of `flock` when another description holds the lock, so it is told apart from its other failures (which exit 1). */
const CONFLICT_STATUS = 75;

/**
 * Takes an exclusive flock(2) lock on the open file description behind `fd`, without waiting. Node has
 * no flock call, so the util-linux `flock` program takes it on the description it inherits as its
 * fd 3: a flock lock belongs to the open file description, not to the process that took it, so it
 * outlives the program and lasts while this process keeps `fd` open (released on close or on death).
 * Every path that reaches the same inode (a bind mount of the file, a moved file, a hard link) meets it.
 */
export async function lockDescriptor(fd: number, options: DescriptorLockOptions = {}): Promise<DescriptorLock> {
  if ((options.platform ?? process.platform) !== 'linux') return { state: 'unsupported', reason: '' };
  const program = options.program ?? 'flock';
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(program, ['--nonblock', '--exclusive', '--conflict-exit-code', String(CONFLICT_STATUS), '3'], {
      stdio: ['ignore', 'ignore', 'pipe', fd],
    });
  } catch (error) {
    // A spawn refused before the program runs (no process or file slot left): the lock file still holds.
    return { state: 'unsupported', reason: `${program} could not run: ${error instanceof Error ? error.message : String(error)}` };
  }
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  return new Promise<DescriptorLock>((resolve) => {
    child.once('error', (error) => {
      // ENOENT: no such program here, the fallback the docs describe, so nothing to report.
      resolve({ state: 'unsupported', reason: 'code' in error && error.code === 'ENOENT' ? '' : `${program} could not run: ${error.message}` });
    });
    child.once('close', (status, signal) => {
      if (status === 0) resolve({ state: 'taken' });
      else if (status === CONFLICT_STATUS) resolve({ state: 'busy' });
      else resolve({ state: 'unsupported', reason: `${program} failed (${signal ?? `exit status ${status}`}${stderr.trim() === '' ? '' : `: ${stderr.trim()}`})` });
    });
  });
}
