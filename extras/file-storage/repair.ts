import { dirname } from 'node:path';
import { PetstoreError } from '../../lib/index.js';
import { errorMessageOf, nodeFileSystem, syncDirectory } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';
import { journalPathOf, LOCK_SUFFIX, openJournal } from './file-storage.js';
import { Appender, copyRange, judgeTail, MAX_FRAME_SIZE, readBytes, sideFilePath } from './damaged-tail.js';
import type { DamagedTail } from './damaged-tail.js';
import { encodeReserveRecord, HEADER_SIZE } from './journal-format.js';
import { salvageJournal, scanJournal } from './journal-scan.js';
import { acquireLock } from './lock-file.js';

/** Options of repairFile. */
export interface RepairOptions {
  /** Receives a note on a stale lock taken over; default: process.emitWarning. */
  log?: (line: string) => void;
  /** The file-system calls to use; default: node:fs. */
  fileSystem?: StorageFileSystem;
  /**
   * Keep every intact record after the damage, with the id it had, instead of cutting at the first
   * bad record; the bytes dropped go to a side file. Default false.
   */
  salvage?: boolean;
}

/** What repairFile did. */
export interface RepairReport {
  /** Absolute path of the journal. */
  path: string;
  /** Where the untouched copy went; undefined when the journal needed no repair. */
  backupPath: string | undefined;
  /** Byte offset of the first record that could not be replayed (where the journal was cut, unless salvaging); undefined when it needed no repair. */
  cutAt: number | undefined;
  /** What was wrong at `cutAt`. */
  reason: string | undefined;
  /** Bytes removed from the journal. */
  removedBytes: number;
  /** Pets the journal still holds. */
  pets: number;
  /** The id now reserved by a reservation record, so no later pet gets it or any below it; undefined when none was needed. */
  reservedId: number | undefined;
  /** Salvage: pets kept from after the first damage; 0 when cutting. */
  salvagedPets: number;
  /** Salvage: the side file that holds the bytes dropped, one stretch after another; undefined when cutting or when nothing needed repair. */
  droppedPath: string | undefined;
}

function repairError(path: string, doing: string, cause: unknown): PetstoreError {
  return new PetstoreError('unavailable', `Cannot repair data file ${path}: ${doing} failed: ${errorMessageOf(cause)}`, { cause });
}

/**
 * Repairs a journal that refuses to open: copies it aside as a backup (synced), then cuts it at the
 * first record that cannot be replayed. Pets in intact records beyond the cut are lost from the
 * journal (they stay in the backup), but their ids are reserved, so no id is ever handed out twice.
 * With `salvage`, every intact record after the damage stays instead, with its id. Takes the
 * single-writer lock, so it refuses to run while a server has the file open.
 */
export async function repairFile(path: string, options: RepairOptions = {}): Promise<RepairReport> {
  const fileSystem = options.fileSystem ?? nodeFileSystem;
  const log = options.log ?? ((line: string) => process.emitWarning(line, { code: 'PETSTORE_FILE_STORAGE' }));
  const journalPath = await journalPathOf(fileSystem, path);
  const lock = await acquireLock(`${journalPath}${LOCK_SUFFIX}`, journalPath, fileSystem, log);
  try {
    const { file, size } = await openJournal(fileSystem, journalPath, false);
    try {
      return await (options.salvage === true ? salvageOpenJournal : repairOpenJournal)(fileSystem, journalPath, file, size);
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
    if (damage === undefined) return healthyReport(path, scan.pets);
    // The highest id of an intact record anywhere, after the damage too: salvage's walk meets every one whose id could be higher.
    let beyond = 0;
    await salvageJournal(file, size, async (piece) => {
      if (piece.kind === 'record') beyond = Math.max(beyond, piece.id);
    });
    const backupPath = sideFilePath(path, 'bak');
    step = `copying it to ${backupPath}`;
    await backUp(fileSystem, path, backupPath);
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
    return {
      path, backupPath, cutAt: damage.offset, reason: damage.reason, removedBytes: size - damage.offset, pets: scan.pets, reservedId, salvagedPets: 0, droppedPath: undefined,
    };
  } catch (error) {
    throw error instanceof PetstoreError ? error : repairError(path, step, error);
  }
}

/** The report on a journal with nothing to repair. */
function healthyReport(path: string, pets: number): RepairReport {
  return { path, backupPath: undefined, cutAt: undefined, reason: undefined, removedBytes: 0, pets, reservedId: undefined, salvagedPets: 0, droppedPath: undefined };
}

/** Copies the journal, byte for byte, to `backupPath` (never over an existing file) and syncs the copy and the directory. */
async function backUp(fileSystem: StorageFileSystem, path: string, backupPath: string): Promise<void> {
  await fileSystem.copyNewFile(path, backupPath);
  const backup = await fileSystem.open(backupPath, 'r');
  try {
    await backup.sync();
  } finally {
    await backup.close();
  }
  await syncDirectory(fileSystem, dirname(path));
}

/** What salvage found. */
interface Salvage {
  /** Pets kept, in all and from after the first damage. */
  pets: number;
  salvagedPets: number;
  /** Highest id of a kept pet or reservation. */
  highestId: number;
  firstDamage: { offset: number; reason: string };
  droppedBytes: number;
  /** The id no later pet may get because of what was dropped (see salvageOpenJournal), or 0. */
  droppedId: number;
}

/**
 * Copies the header and every record that can stay from `file` to `kept`, and every stretch that
 * cannot to `dropped`, in file order; runs of kept records are copied as runs.
 */
async function copyIntact(file: StorageFile, size: number, kept: Appender, dropped: Appender): Promise<Salvage> {
  const salvage: Salvage = { pets: 0, salvagedPets: 0, highestId: 0, firstDamage: { offset: size, reason: '' }, droppedBytes: 0, droppedId: 0 };
  let runStart = 0;
  let runEnd = HEADER_SIZE;
  let isDamageSeen = false;
  let trailing: DamagedTail | undefined;
  await salvageJournal(file, size, async (piece) => {
    if (piece.kind === 'record') {
      if (piece.offset !== runEnd) {
        await copyRange(file, { range: { position: runStart, length: runEnd - runStart }, to: kept });
        runStart = piece.offset;
      }
      runEnd = piece.offset + piece.size;
      if (piece.isPet) {
        salvage.pets++;
        if (isDamageSeen) salvage.salvagedPets++;
      }
      salvage.highestId = Math.max(salvage.highestId, piece.id);
      trailing = undefined;
      return;
    }
    if (!isDamageSeen) salvage.firstDamage = { offset: piece.offset, reason: piece.reason };
    isDamageSeen = true;
    await copyRange(file, { range: { position: piece.offset, length: piece.size }, to: dropped });
    salvage.droppedBytes += piece.size;
    // Ids only increase along the file, so only an id above every record kept before it can be one no kept record covers.
    const judged = judgeTail(await readBytes(file, { position: piece.offset, length: Math.min(piece.size, MAX_FRAME_SIZE) }), salvage.highestId);
    if (judged.isIdRead) salvage.droppedId = Math.max(salvage.droppedId, judged.reservedId ?? 0);
    trailing = piece.isDamaged ? judged : undefined;
  });
  await copyRange(file, { range: { position: runStart, length: runEnd - runStart }, to: kept });
  // A whole damaged record at the very end whose id cannot be read: a margin, as opening does.
  if (trailing?.reservedId !== undefined) salvage.droppedId = Math.max(salvage.droppedId, trailing.reservedId);
  return salvage;
}

/**
 * Salvages a damaged journal: backs it up, writes a new journal beside it with every intact record
 * that can stay (its original bytes, so each pet keeps its id) and the dropped stretches to a side
 * file, then renames the new journal into place. An id read from a dropped whole record that is
 * above the records kept before it stays reserved, and so does a margin after a damaged final record
 * whose id cannot be read: no id a dropped pet may have had is handed out again.
 */
async function salvageOpenJournal(fileSystem: StorageFileSystem, path: string, file: StorageFile, size: number): Promise<RepairReport> {
  let step = 'reading it';
  try {
    const scan = await scanJournal(file, size, () => undefined);
    if (scan.damage === undefined) return healthyReport(path, scan.pets);
    const backupPath = sideFilePath(path, 'bak');
    step = `copying it to ${backupPath}`;
    await backUp(fileSystem, path, backupPath);
    const droppedPath = sideFilePath(path, 'dropped');
    const draftPath = `${path}.salvaging`;
    step = `writing the salvaged journal to ${draftPath} and what it drops to ${droppedPath}`;
    const draft = await fileSystem.open(draftPath, 'w');
    let salvage: Salvage;
    let reservedId: number | undefined;
    try {
      const dropped = await fileSystem.open(droppedPath, 'wx');
      try {
        const kept = new Appender(draft);
        salvage = await copyIntact(file, size, kept, new Appender(dropped));
        reservedId = salvage.droppedId > salvage.highestId ? salvage.droppedId : undefined;
        if (reservedId !== undefined) {
          step = `reserving id ${reservedId}`;
          await kept.append(encodeReserveRecord(reservedId));
        }
        step = `syncing ${draftPath} and ${droppedPath}`;
        await Promise.all([draft.datasync(), dropped.sync()]);
      } finally {
        await dropped.close().catch(() => undefined);
      }
    } finally {
      await draft.close().catch(() => undefined);
    }
    step = `renaming ${draftPath} to ${path}`;
    await fileSystem.rename(draftPath, path);
    await syncDirectory(fileSystem, dirname(path));
    return {
      path, backupPath, cutAt: salvage.firstDamage.offset, reason: salvage.firstDamage.reason, removedBytes: salvage.droppedBytes,
      pets: salvage.pets, reservedId, salvagedPets: salvage.salvagedPets, droppedPath,
    };
  } catch (error) {
    throw error instanceof PetstoreError ? error : repairError(path, step, error);
  }
}
