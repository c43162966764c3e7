import { basename, dirname, join } from 'node:path';
import { PetstoreError } from '../../lib/index.js';
import { keepRange } from './damaged-tail.js';
import { errorCode, errorMessageOf, synchronousFileSystem } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';
import type { OwnershipProblem } from './journal-writer.js';

/** What names the copy of a replaced journal beside it: `<journal>.orphaned-<inode>`. */
export const ORPHANED_INFIX = '.orphaned-';

/** What a client is told once the journal was replaced under the server: no server path, and what happens next. */
const REPLACED_MESSAGE = 'Cannot create pet: the server\'s data file was replaced, moved or removed on disk while the server had it open, so the pet was not stored. '
  + 'Creates stay refused until an operator restarts the server; every pet acknowledged before is kept.';

/**
 * Watches that the journal's path still names the file the server holds open (device and inode, by
 * `stat`), the way SQLite checks that a database file has not moved. When it no longer does (a copy
 * renamed over it, as rsync or a restore does, or the file removed or moved away), the server's
 * records exist only in the file it holds, so they are copied once beside the journal as
 * `<journal>.orphaned-<inode>`, where the next start finds them (refuseOrphans).
 */
export class JournalWatch {
  readonly #path: string;
  readonly #file: StorageFile;
  readonly #fileSystem: StorageFileSystem;
  readonly #identity: string;
  #found: Promise<OwnershipProblem> | undefined;

  constructor(path: string, file: StorageFile, options: { fileSystem: StorageFileSystem; identity: string }) {
    this.#path = path;
    this.#file = file;
    this.#fileSystem = options.fileSystem;
    this.#identity = options.identity;
  }

  /** The held file's size, by a synchronous `stat` of the path, when the path provably names that file now; undefined when it may not, or cannot be asked so (then `problem` says). */
  sizeNow(): number | undefined {
    try {
      const status = synchronousFileSystem(this.#fileSystem)?.status(this.#path);
      return status?.identity === this.#identity ? status.size : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Why the path no longer names the held file, after its content was kept beside it; undefined while
   * it does. A `stat` that fails other than with ENOENT proves nothing either way and counts as the same
   * file: the lock's and the size's checks still stand.
   */
  async problem(): Promise<OwnershipProblem | undefined> {
    if (this.#found !== undefined) return this.#found;
    let current: string | undefined;
    try {
      current = await this.#fileSystem.identity(this.#path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return undefined;
    }
    if (current === this.#identity) return undefined;
    this.#found ??= this.#keep(current);
    return this.#found;
  }

  /** Keeps the held file's content beside the journal and describes what happened, with both identities. */
  async #keep(current: string | undefined): Promise<OwnershipProblem> {
    const path = this.#path;
    const what = current === undefined
      ? `was removed or moved away while this server had it open: the path names no file now, and this server writes file ${this.#identity} (device:inode)`
      : `was replaced while this server had it open: the path now names file ${current} (device:inode), not file ${this.#identity} that this server writes (a copy renamed over it, as rsync or a restore does)`;
    // The inode number of the identity `<dev>:<ino>`.
    const target = `${path}${ORPHANED_INFIX}${this.#identity.slice(this.#identity.indexOf(':') + 1)}`;
    let kept: string;
    try {
      const size = await this.#file.size();
      await keepRange(target, { fileSystem: this.#fileSystem, from: this.#file, range: { position: 0, length: size } });
      kept = `Everything this server wrote (${size} bytes) is kept in ${target}; the next start on ${path} refuses until an operator chooses between the two files, as its message says.`;
    } catch (error) {
      kept = `Keeping a copy of what this server wrote in ${target} failed (${errorMessageOf(error)}): the pets it acknowledged are only in the file it holds open, `
        + `so before stopping it copy that file out of /proc/${process.pid}/fd (\`ls -l /proc/${process.pid}/fd\` shows it as deleted or at its new place) to ${target}.`;
    }
    return { reason: `Data file ${path} ${what}. ${kept}`, createMessage: REPLACED_MESSAGE };
  }
}

/**
 * Refuses to open a journal beside which a server kept what it wrote after the journal was replaced,
 * removed or moved under it: starting on the path alone could hand out ids that file acknowledged.
 * The operator chooses, with one command either way. A file system without listDirectory is not asked.
 */
export async function refuseOrphans(fileSystem: StorageFileSystem, path: string): Promise<void> {
  const directory = dirname(path);
  let names: string[];
  try {
    names = (await fileSystem.listDirectory?.(directory)) ?? [];
  } catch {
    // A directory that cannot be listed: opening the journal in it says why.
    return;
  }
  const prefix = `${basename(path)}${ORPHANED_INFIX}`;
  const orphan = names.filter((name) => name.startsWith(prefix)).sort()[0];
  if (orphan === undefined) return;
  const kept = join(directory, orphan);
  throw new PetstoreError(
    'unavailable',
    `Cannot open data file ${path}: ${kept} holds what a server wrote to this data file after it was replaced, removed or moved while that server had it open (its log says which), `
    + 'so starting on the data file alone could hand out ids of pets already acknowledged from that copy. With no server running, choose one: '
    + `\`mv ${kept} ${path}\` continues from the file the server last wrote, with every pet it acknowledged (whatever ${path} holds now is replaced: copy it aside first to keep it); `
    + `or move ${kept} out of ${directory} to keep ${path} as it is, giving up the pets only the copy holds, whose ids may then be handed out again.`,
  );
}
