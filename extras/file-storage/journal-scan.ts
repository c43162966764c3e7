import type { IdempotencyRecord, Pet } from '../../lib/index.js';
import type { StorageFile } from './file-system.js';
import { decodeFrame, FRAME_HEADER_SIZE, HEADER_SIZE, MAX_PAYLOAD_SIZE, MIN_PAYLOAD_SIZE, readPetFrame } from './journal-format.js';
import type { Frame } from './journal-format.js';

/** Bytes read per call while scanning; far above one frame, small enough to keep memory flat for any journal size. */
const CHUNK_SIZE = 1 << 20;

/** The first record that could not be replayed. */
export interface Damage {
  /** Byte offset of the record in the file. */
  offset: number;
  /** What is wrong with it. */
  reason: string;
  /** Offset of the next intact record after it, when there is one. */
  nextIntact: number | undefined;
  /**
   * Whether this is the torn tail of a crash mid-write: the record is short or fails its checksum,
   * and no intact record follows, so truncating here cannot drop an acknowledged pet.
   */
  isTornTail: boolean;
}

/** What a replay of the journal found. */
export interface ScanResult {
  /** Offset just past the last intact record: where the next record goes. */
  end: number;
  /** Pets replayed. */
  pets: number;
  /** Highest id in use: of a replayed pet or a reservation; 0 when none. */
  highestId: number;
  /** The first record that could not be replayed, if any. */
  damage: Damage | undefined;
}

/** A sliding window over a file, for reading frames that may cross chunk boundaries. */
class ChunkReader {
  readonly #file: StorageFile;
  readonly size: number;
  buffer = Buffer.alloc(0);
  /** File offset of buffer[0]. */
  start = 0;

  constructor(file: StorageFile, size: number) {
    this.#file = file;
    this.size = size;
  }

  /** The frame at file offset `offset`, reading more of the file when the frame crosses the buffer's end. */
  async frameAt(offset: number): Promise<Frame> {
    if (offset < this.start || offset > this.start + this.buffer.length) await this.#load(offset);
    const frame = decodeFrame(this.buffer, offset - this.start);
    // A short frame in a buffer that reaches the end of the file is the file's own end.
    if (frame.kind !== 'short' || this.start + this.buffer.length >= this.size) return frame;
    await this.#load(offset);
    return decodeFrame(this.buffer, 0);
  }

  async #load(offset: number): Promise<void> {
    const length = Math.min(CHUNK_SIZE, this.size - offset);
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const count = await this.#file.read(buffer, filled, length - filled, offset + filled);
      if (count === 0) throw new Error(`the file ended at byte ${offset + filled}, before its size of ${this.size} bytes`);
      filled += count;
    }
    this.buffer = buffer;
    this.start = offset;
  }
}

/** Offset of the first intact frame (checksum holds) starting at or after `from`, or undefined. */
async function findIntactFrame(reader: ChunkReader, from: number): Promise<number | undefined> {
  for (let offset = from; offset + FRAME_HEADER_SIZE + MIN_PAYLOAD_SIZE <= reader.size; offset++) {
    // Most offsets fail the length check alone; only plausible lengths cost a checksum.
    const local = offset - reader.start;
    if (local >= 0 && local + FRAME_HEADER_SIZE <= reader.buffer.length) {
      const length = reader.buffer.readUInt32LE(local + 4);
      if (length < MIN_PAYLOAD_SIZE || length > MAX_PAYLOAD_SIZE) continue;
    }
    const frame = await reader.frameAt(offset);
    if (frame.kind === 'pet' || frame.kind === 'reserve' || frame.kind === 'invalid') return offset;
  }
  return undefined;
}

/**
 * Replays the journal after its header, handing each pet (with its idempotency key and fingerprint,
 * when its record holds them, and the file offset just past its record) to `onPet` in file order, and stops at the
 * first record that cannot be replayed. The caller decides what the damage means.
 */
export async function scanJournal(file: StorageFile, size: number, onPet: (pet: Pet, idempotency: IdempotencyRecord | undefined, end: number) => void): Promise<ScanResult> {
  const reader = new ChunkReader(file, size);
  let offset = HEADER_SIZE;
  let pets = 0;
  let highestId = 0;
  while (offset < size) {
    // The reader only moves forward, so `offset` is never before the buffer's start.
    const buffer = reader.buffer;
    let local = offset - reader.start;
    for (let pet = readPetFrame(buffer, local); pet !== undefined && pet.id > highestId; pet = readPetFrame(buffer, local)) {
      local += FRAME_HEADER_SIZE + buffer.readUInt32LE(local + 4);
      onPet(pet, undefined, reader.start + local);
      highestId = pet.id;
      pets++;
    }
    offset = reader.start + local;
    if (offset >= size) break;
    // Whatever the fast path stopped at: a frame crossing the chunk's end, a keyed pet, a reservation, or damage.
    const frame = await reader.frameAt(offset);
    if (frame.kind === 'pet' && frame.pet.id > highestId) {
      onPet(frame.pet, frame.idempotency, offset + frame.size);
      highestId = frame.pet.id;
      pets++;
    } else if (frame.kind === 'reserve') {
      highestId = Math.max(highestId, frame.id);
    } else {
      const reason = frame.kind === 'pet' ? `pet id ${frame.pet.id} is not above the highest earlier id ${highestId}`
        : frame.kind === 'short' ? `the record needs ${frame.size} bytes, but the file ends after ${size - offset}`
        : frame.reason;
      const nextIntact = await findIntactFrame(reader, offset + 1);
      const isTornTail = nextIntact === undefined && (frame.kind === 'short' || frame.kind === 'damaged');
      return { end: offset, pets, highestId, damage: { offset, reason, nextIntact, isTornTail } };
    }
    offset += frame.size;
  }
  return { end: offset, pets, highestId, damage: undefined };
}

/** A stretch of a journal as salvage sees it: a record to keep as it is, or bytes to drop. */
export type SalvagePiece =
  /** `id`: the pet's, or the reserved one. */
  | { kind: 'record'; offset: number; size: number; id: number; isPet: boolean }
  /** `isDamaged`: the bytes fail their checksum or end too soon, so what they say cannot be trusted. */
  | { kind: 'dropped'; offset: number; size: number; reason: string; isDamaged: boolean };

/**
 * Walks the whole journal after its header and hands `onPiece` every stretch in file order: each
 * intact record that can stay (a pet whose id is above every kept one, or a reservation), and each
 * stretch that cannot (damaged bytes up to the next intact record, an impossible record, a pet whose
 * id does not increase). Unlike scanJournal, it goes on after damage.
 */
export async function salvageJournal(file: StorageFile, size: number, onPiece: (piece: SalvagePiece) => Promise<void>): Promise<void> {
  const reader = new ChunkReader(file, size);
  let offset = HEADER_SIZE;
  let highestId = 0;
  while (offset < size) {
    const frame = await reader.frameAt(offset);
    if (frame.kind === 'reserve' || (frame.kind === 'pet' && frame.pet.id > highestId)) {
      const id = frame.kind === 'reserve' ? frame.id : frame.pet.id;
      highestId = Math.max(highestId, id);
      await onPiece({ kind: 'record', offset, size: frame.size, id, isPet: frame.kind === 'pet' });
      offset += frame.size;
    } else if (frame.kind === 'pet' || frame.kind === 'invalid') {
      const reason = frame.kind === 'pet' ? `pet id ${frame.pet.id} is not above the highest earlier id ${highestId}` : frame.reason;
      await onPiece({ kind: 'dropped', offset, size: frame.size, reason, isDamaged: false });
      offset += frame.size;
    } else {
      const reason = frame.kind === 'short' ? `the record needs ${frame.size} bytes, but the file ends after ${size - offset}` : frame.reason;
      const next = (await findIntactFrame(reader, offset + 1)) ?? size;
      await onPiece({ kind: 'dropped', offset, size: next - offset, reason, isDamaged: true });
      offset = next;
    }
  }
}
