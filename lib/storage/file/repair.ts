import { dirname, resolve } from 'node:path';
import { PetstoreError } from '../../errors.js';
import { errorMessageOf, nodeFileSystem } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';
import { LOCK_SUFFIX, openJournal, syncDirectory } from './file-storage.js';
import { encodeReserveRecord } from './journal-format.js';
import { highestIdFrom, scanJournal } from './journal-scan.js';
import { acquireLock } from './lock-file.js';

/** Options of repairFile. */
export interface RepairOptions {
  /** Receives a note on a stale lock taken over; default: process.emitWarning. */
  log?: (line: string) => void;
  /** The file-system calls to use; default: node:fs. */
  fileSystem?: StorageFileSystem;
}

/** What repairFile did. */
export interface RepairReport {
  /** Absolute path of the journal. */
  path: string;
  /** Where the untouched copy went; undefined when the journal needed no repair. */
  backupPath: string | undefined;
  /** Byte offset the journal was cut at; undefined when it needed no repair. */
  cutAt: number | undefined;
  /** What was wrong at `cutAt`. */
  reason: string | undefined;
  /** Bytes removed from the journal. */
  removedBytes: number;
  /** Pets the journal still holds. */
  pets: number;
  /** Highest id found in intact records beyond the cut, now reserved so it is never handed out again; undefined when none. */
  reservedId: number | undefined;
}

function repairError(path: string, doing: string, cause: unknown): PetstoreError {
  return new PetstoreError('unavailable', `Cannot repair data file ${path}: ${doing} failed: ${errorMessageOf(cause)}`, { cause });
}

/** A backup name that sorts by time and does not exist yet (the copy refuses to overwrite). */
function backupPathFor(path: string): string {
  return `${path}.${new Date().toISOString().replaceAll(':', '-')}.bak`;
}

/**
 * Repairs a journal that refuses to open: copies it aside as a backup (synced), then cuts it at the
 * first record that cannot be replayed. Pets in intact records beyond the cut are lost from the
 * journal (they stay in the backup), but their ids are reserved, so no id is ever handed out twice.
 * Takes the single-writer lock, so it refuses to run while a server has the file open.
 */
export async function repairFile(path: string, options: RepairOptions = {}): Promise<RepairReport> {
  const fileSystem = options.fileSystem ?? nodeFileSystem;
  const log = options.log ?? ((line: string) => process.emitWarning(line, { code: 'PETSTORE_FILE_STORAGE' }));
  const journalPath = resolve(path);
  const lock = await acquireLock(`${journalPath}${LOCK_SUFFIX}`, journalPath, fileSystem, log);
  try {
    const { file, size } = await openJournal(fileSystem, journalPath, false);
    try {
      return await repairOpenJournal(fileSystem, journalPath, file, size);
    } finally {
      await file.close().catch(() => undefined);
    }
  } finally {
    await lock.release();
  }
}

async function repairOpenJournal(fileSystem: StorageFileSystem, path: string, file: StorageFile, size: number): Promise<RepairReport> {
  let step = 'reading it';
  try {
    const scan = await scanJournal(file, size, () => undefined);
    const damage = scan.damage;
    if (damage === undefined) {
      return { path, backupPath: undefined, cutAt: undefined, reason: undefined, removedBytes: 0, pets: scan.pets, reservedId: undefined };
    }
    const beyond = await highestIdFrom(file, size, damage.offset + 1);
    const backupPath = backupPathFor(path);
    step = `copying it to ${backupPath}`;
    await fileSystem.copyNewFile(path, backupPath);
    const backup = await fileSystem.open(backupPath, 'r');
    try {
      await backup.sync();
    } finally {
      await backup.close();
    }
    await syncDirectory(fileSystem, dirname(path));
    step = `cutting it at byte offset ${damage.offset}`;
    await file.truncate(damage.offset);
    await file.sync();
    const reservedId = beyond > scan.highestId ? beyond : undefined;
    if (reservedId !== undefined) {
      step = `reserving id ${reservedId}`;
      const record = encodeReserveRecord(reservedId);
      if ((await file.write(record, 0, record.length, damage.offset)) !== record.length) throw new Error('short write');
      await file.datasync();
    }
    return { path, backupPath, cutAt: damage.offset, reason: damage.reason, removedBytes: size - damage.offset, pets: scan.pets, reservedId };
  } catch (error) {
    throw error instanceof PetstoreError ? error : repairError(path, step, error);
  }
}
