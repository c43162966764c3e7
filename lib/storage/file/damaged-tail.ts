import { dirname } from 'node:path';
import { PetstoreError } from '../../errors.js';
import { MAX_SAFE_ID } from '../../limits.js';
import { describeError, syncDirectory } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';
import { damagedRecordId, encodeReserveRecord, FRAME_HEADER_SIZE, MAX_PAYLOAD_SIZE, MIN_PAYLOAD_SIZE } from './journal-format.js';

/**
 * Ids skipped after a damaged final record whose id cannot be read. That record's id was above every
 * intact one; ids between are only those of creates that failed in its process, so a million covers
 * far more than any plausible outage, and costs nothing: ids go up to 2^53 - 1.
 */
export const UNREADABLE_ID_MARGIN = 1_000_000;

/** What the bytes cut off the end of a journal were, and what they still say. */
export interface DamagedTail {
  /** Whether they start with a whole frame (its length field in range, all its bytes present) that fails its checksum: possibly an acknowledged pet damaged since. */
  isWholeRecord: boolean;
  /** For a whole record: the id no later pet may get (the record's own, or a margin above every intact id when it cannot be read); else undefined. */
  reservedId: number | undefined;
  /** Whether `reservedId` was read from the record, not guessed. */
  isIdRead: boolean;
}

/** Reads `length` bytes at `position`. */
export async function readBytes(file: StorageFile, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const count = await file.read(buffer, filled, length - filled, position + filled);
    if (count === 0) throw new Error(`the file ended at byte ${position + filled}, before its expected end at byte ${position + length}`);
    filled += count;
  }
  return buffer;
}

/** What a cut tail is: a torn write, or a whole record that may have been acknowledged; `highestId` is the highest id of the intact records before it. */
export function judgeTail(tail: Buffer, highestId: number): DamagedTail {
  const length = tail.length >= FRAME_HEADER_SIZE ? tail.readUInt32LE(4) : 0;
  const isWholeRecord = length >= MIN_PAYLOAD_SIZE && length <= MAX_PAYLOAD_SIZE && FRAME_HEADER_SIZE + length <= tail.length;
  if (!isWholeRecord) return { isWholeRecord, reservedId: undefined, isIdRead: false };
  // Records are written in id order, so a damaged final record's id was above every intact one.
  const id = damagedRecordId(tail);
  if (id !== undefined && id > highestId) return { isWholeRecord, reservedId: id, isIdRead: true };
  return { isWholeRecord, reservedId: Math.min(highestId + UNREADABLE_ID_MARGIN, MAX_SAFE_ID), isIdRead: false };
}

/** A side file name next to `path` that sorts by time and says what it holds. */
export function sideFilePath(path: string, what: string): string {
  return `${path}.${new Date().toISOString().replaceAll(':', '-')}.${what}`;
}

/** Writes `bytes` to the new file `path` (never over an existing one) and syncs it and its directory, so the copy is durable before the original is cut. */
export async function keepBytes(fileSystem: StorageFileSystem, path: string, bytes: Buffer): Promise<void> {
  const file = await fileSystem.open(path, 'wx');
  try {
    let written = 0;
    while (written < bytes.length) {
      const count = await file.write(bytes, written, bytes.length - written, written);
      if (count <= 0) throw new Error(`write(2) made no progress at byte ${written}`);
      written += count;
    }
    await file.sync();
  } finally {
    await file.close();
  }
  await syncDirectory(fileSystem, dirname(path));
}

/** Where replay stands after a cut: the end to append at and the highest id in use. */
export interface TailCut {
  end: number;
  highestId: number;
}

/**
 * Cuts the damage off the end of a journal that replay stopped at `end` (no intact record after it),
 * keeping the cut bytes in a side file first. A whole record that fails its checksum may be an
 * acknowledged pet damaged since, so its id is reserved with a reservation record: no later pet gets
 * it. Anything shorter is a write torn by a crash, never acknowledged. Logs what was done, once.
 */
export async function cutDamagedTail(
  fileSystem: StorageFileSystem, file: StorageFile, scan: { end: number; highestId: number; pets: number; reason: string; size: number; path: string },
  log: (line: string) => void,
): Promise<TailCut> {
  const { end, path } = scan;
  let step = `reading the damaged final record at byte offset ${end}`;
  try {
    const tail = await readBytes(file, end, scan.size - end);
    const judged = judgeTail(tail, scan.highestId);
    const side = sideFilePath(path, 'damaged-tail');
    step = `keeping the bytes of the damaged final record in ${side}`;
    await keepBytes(fileSystem, side, tail);
    // Cut before any append, so a new record is never glued to the damaged one.
    step = `cutting off the damaged final record at byte offset ${end}`;
    await file.truncate(end);
    await file.sync();
    const head = `petstore: ${path}: cut off a`;
    const what = `at byte offset ${end} (${tail.length} bytes: ${scan.reason})`;
    if (judged.reservedId === undefined) {
      log(`${head} torn final record ${what}; it was never acknowledged. Its bytes are kept in ${side}. ${scan.pets} pets recovered.`);
      return { end, highestId: scan.highestId };
    }
    step = `reserving id ${judged.reservedId} after the damaged final record`;
    const record = encodeReserveRecord(judged.reservedId);
    if ((await file.write(record, 0, record.length, end)) !== record.length) throw new Error('short write');
    await file.datasync();
    const ids = judged.isIdRead ? `its id, ${judged.reservedId}, is reserved` : `its id cannot be read, so every id up to ${judged.reservedId} is reserved`;
    log(`${head} damaged final record ${what}. It is a whole record, so it may have been acknowledged (a pet damaged on disk since, or a write torn by a power loss). `
      + `Its bytes are kept in ${side}; ${ids} and never handed out again. ${scan.pets} pets recovered.`);
    return { end: end + record.length, highestId: judged.reservedId };
  } catch (error) {
    throw new PetstoreError('unavailable', `Cannot open data file ${path}: ${step} failed: ${describeError(error)}`, { cause: error });
  }
}
