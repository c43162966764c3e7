import { PetstoreError } from '../../lib/index.js';
import { errorMessageOf, errorCode } from './file-system.js';

/** A failed write of the journal as each audience is told about it. */
export interface WriteFailure {
  /** What a create answers: 503, without server paths, since the message reaches clients. */
  createError: PetstoreError;
  /** What `checkReady` answers: 503 naming the file, the errno and what an operator can do. */
  readinessError: PetstoreError;
}

/** What an operator can do about the usual causes of a failed write, by errno. */
const ADVICE: Readonly<Record<string, string>> = {
  ENOSPC: 'Free space on the file system that holds it',
  EDQUOT: 'Free space or raise the disk quota of the user the server runs as',
  EFBIG: 'The file reached the largest size its file system (or RLIMIT_FSIZE) allows: raise the limit or move the data file',
  EROFS: 'Remount its file system read-write',
  EIO: 'Check the disk and the kernel log (dmesg) for I/O errors',
};

/** The errors for a journal at `path` whose latest write, sync or cut failed with `cause`. */
export function writeFailure(path: string, cause: unknown): WriteFailure {
  const code = errorCode(cause);
  const shownCode = code === undefined ? '' : ` (${code})`;
  // The cause as shown to operators: Node's message, with the errno in front when the message lacks it.
  const message = errorMessageOf(cause);
  const shownCause = code === undefined || message.includes(code) ? message : `${code}: ${message}`;
  return {
    createError: new PetstoreError(
      'unavailable',
      `Cannot create pet: the data file refused the write${shownCode}, so the pet was not stored. `
      + 'The storage retries with each create and resumes by itself once writes succeed again.',
      { cause },
    ),
    readinessError: new PetstoreError(
      'unavailable',
      `Data file ${path} refuses writes: the latest attempt failed with ${shownCause}. `
      + `${(code === undefined ? undefined : ADVICE[code]) ?? 'Fix the cause above'}; `
      + 'the storage retries with each create and readiness check and resumes by itself, without a restart.',
      { cause },
    ),
  };
}
