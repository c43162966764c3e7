import { dirname } from 'node:path';
import { MAX_SAFE_ID, PetstoreError } from '../../lib/index.js';
import { errorMessageOf, syncDirectory } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';
import type { ScanResult } from './journal-scan.js';
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

/** The largest record frame: enough of a damaged stretch to judge the record it starts with. */
export const MAX_FRAME_SIZE = FRAME_HEADER_SIZE + MAX_PAYLOAD_SIZE;

/** A stretch of a file: `length` bytes from byte `position`. */
export interface ByteRange {
  position: number;
  length: number;
}

/** Reads the bytes of `range`. */
export async function readBytes(file: StorageFile, range: ByteRange): Promise<Buffer> {
  const { position, length } = range;
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const count = await file.read(buffer, filled, length - filled, position + filled);
    if (count === 0) throw new Error(`the file ended at byte ${position + filled}, before its expected end at byte ${position + length}`);
    filled += count;
  }
  return buffer;
}

/**
 * What the damaged bytes `tail` (at least their first MAX_FRAME_SIZE) start with: a torn write, or a
 * whole record that may have been acknowledged; `highestId` is the highest id of the intact records before it.
 */
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

/** Copies `range` of `from` to the new file `path` (never over an existing one) and syncs it and its directory, so the copy is durable before the original is cut. */
export async function keepRange(path: string, options: { fileSystem: StorageFileSystem; from: StorageFile; range: ByteRange }): Promise<void> {
  const file = await options.fileSystem.open(path, 'wx');
  try {
    await copyRange(options.from, { range: options.range, to: new Appender(file) });
    await file.sync();
  } finally {
    await file.close();
  }
  await syncDirectory(options.fileSystem, dirname(path));
}

/** Bytes copied per read: a long stretch is copied in pieces of this size, so memory stays flat. */
const COPY_CHUNK_SIZE = 1 << 20;

/** A file written from the start, in order. */
export class Appender {
  readonly #file: StorageFile;
  /** Bytes written so far: where the next append goes. */
  size = 0;

  constructor(file: StorageFile) {
    this.#file = file;
  }

  /** Writes `bytes` after everything written so far. */
  async append(bytes: Buffer): Promise<void> {
    let written = 0;
    while (written < bytes.length) {
      const count = await this.#file.write(bytes, written, bytes.length - written, this.size + written);
      if (count <= 0) throw new Error(`write(2) made no progress at byte ${this.size + written}`);
      written += count;
    }
    this.size += bytes.length;
  }
}

/** Copies `range` of `from` to the end of `to`, a chunk at a time. */
export async function copyRange(from: StorageFile, options: { range: ByteRange; to: Appender }): Promise<void> {
  const end = options.range.position + options.range.length;
  for (let position = options.range.position; position < end; position += COPY_CHUNK_SIZE) {
    await options.to.append(await readBytes(from, { position, length: Math.min(COPY_CHUNK_SIZE, end - position) }));
  }
}

/** Where replay stands after a cut: the end to append at and the highest id in use. */
export type TailCut = Pick<ScanResult, 'end' | 'highestId'>;

/** What cutDamagedTail needs besides the open journal: where replay stopped (`end`, the pets before it and their highest id), and where notes go. */
export interface TailCutOptions extends TailCut, Pick<ScanResult, 'pets'> {
  fileSystem: StorageFileSystem;
  /** The journal's path, for the side file's name and the messages. */
  path: string;
  /** The file's size: the damage runs from `end` to here. */
  size: number;
  /** What is wrong at `end`. */
  reason: string;
  log: (line: string) => void;
}

/**
 * Cuts the damage off the end of a journal that replay stopped at `end` (no intact record after it),
 * keeping the cut bytes in a side file first. A whole record that fails its checksum may be an
 * acknowledged pet damaged since, so its id is reserved with a reservation record: no later pet gets
 * it. Anything shorter is a write torn by a crash, never acknowledged. Logs what was done, once.
 */
export async function cutDamagedTail(file: StorageFile, options: TailCutOptions): Promise<TailCut> {
  const { end, path, size } = options;
  let step = `reading the damaged final record at byte offset ${end}`;
  try {
    const judged = judgeTail(await readBytes(file, { position: end, length: Math.min(size - end, MAX_FRAME_SIZE) }), options.highestId);
    const side = sideFilePath(path, 'damaged-tail');
    step = `keeping the bytes of the damaged final record in ${side}`;
    await keepRange(side, { fileSystem: options.fileSystem, from: file, range: { position: end, length: size - end } });
    // Cut before any append, so a new record is never glued to the damaged one.
    step = `cutting off the damaged final record at byte offset ${end}`;
    await file.truncate(end);
    await file.sync();
    const head = `petstore: ${path}: cut off a`;
    const what = `at byte offset ${end} (${size - end} bytes: ${options.reason})`;
    if (judged.reservedId === undefined) {
      options.log(`${head} torn final record ${what}; it was never acknowledged. Its bytes are kept in ${side}. ${options.pets} pets recovered.`);
      return { end, highestId: options.highestId };
    }
    step = `reserving id ${judged.reservedId} after the damaged final record`;
    const record = encodeReserveRecord(judged.reservedId);
    if ((await file.write(record, 0, record.length, end)) !== record.length) throw new Error('short write');
    await file.datasync();
    const ids = judged.isIdRead ? `its id, ${judged.reservedId}, is reserved` : `its id cannot be read, so every id up to ${judged.reservedId} is reserved`;
    options.log(`${head} damaged final record ${what}. It is a whole record, so it may have been acknowledged (a pet damaged on disk since, or a write torn by a power loss). `
      + `Its bytes are kept in ${side}; ${ids} and never handed out again. ${options.pets} pets recovered.`);
    return { end: end + record.length, highestId: judged.reservedId };
  } catch (error) {
    throw new PetstoreError('unavailable', `Cannot open data file ${path}: ${step} failed: ${errorMessageOf(error)}`, { cause: error });
  }
}
