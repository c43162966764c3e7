import { PET_STATUSES } from '../../lib/index.js';
import type { IdempotencyRecord, NewPet, Pet, PetStatus } from '../../lib/index.js';
import { crc32 } from 'node:zlib';

/** The first eight bytes of every journal: ASCII `PETSTORE`. */
export const MAGIC = Buffer.from('PETSTORE', 'latin1');

/**
 * The journal layout this build writes: version 2 added the keyed pet record. A version 1 journal is
 * read as it is and raised to version 2 just before its first keyed record, so a build that reads
 * only version 1 refuses it by its header rather than by an unknown record.
 */
export const FORMAT_VERSION = 2;

/** The layouts this build reads: version 1 holds no keyed pet records, and is otherwise the same. */
const READABLE_VERSIONS: readonly number[] = [1, 2];

/** Header: magic (8), format version (u32 LE), CRC-32 of the first 12 bytes (u32 LE). */
export const HEADER_SIZE = 16;

/** Record frame: CRC-32 (u32 LE) of the length field and payload, then payload length (u32 LE). */
export const FRAME_HEADER_SIZE = 8;

/** Payload type: a created pet. */
export const PET_RECORD = 1;

/** Payload type: ids up to this one are taken (written by repair for pets it had to drop). */
export const RESERVE_RECORD = 2;

/** Pet payload without the name: type (u8), status (u8), id (f64 LE), categoryId (f64 LE). */
const PET_FIXED_SIZE = 18;

/**
 * Payload type (format version 2): a created pet with the idempotency key and fingerprint of its
 * create, in the same record, so a pet is never stored without its key nor a key without its pet.
 */
export const KEYED_PET_RECORD = 3;

/**
 * Keyed pet payload before its texts: the pet fields as in a pet record, then the name's length
 * (u16 LE) and the key's length (u8), all in bytes; the UTF-8 name, the ASCII key and the UTF-8
 * fingerprint follow, the fingerprint taking the rest of the payload.
 */
const KEYED_PET_FIXED_SIZE = PET_FIXED_SIZE + 3;

/** Longest key a keyed record can hold, in bytes (its length is one byte). */
const MAX_KEY_BYTES = 255;

/** Reservation payload: type (u8), zero (u8), id (f64 LE). */
const RESERVE_SIZE = 10;

/** Smallest valid payload: a reservation. */
export const MIN_PAYLOAD_SIZE = RESERVE_SIZE;

/** Largest valid payload (a format limit): a garbage length field cannot make recovery read far. */
export const MAX_PAYLOAD_SIZE = 4096;

/** Longest name a record can hold, in UTF-8 bytes (the validator's 256 code points need at most 1024). */
export const MAX_NAME_BYTES = MAX_PAYLOAD_SIZE - PET_FIXED_SIZE;

/** Status byte 0 is "no status"; 1.. are PET_STATUSES in order. */
const STATUS_CODES: ReadonlyMap<PetStatus, number> = new Map(PET_STATUSES.map((status, index) => [status, index + 1]));

/** The 16 header bytes of a new journal, or of one raised to `version`. */
export function encodeHeader(version: number = FORMAT_VERSION): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(version, 8);
  header.writeUInt32LE(crc32(header.subarray(0, 12)), 12);
  return header;
}

/** Why `header` (the file's first bytes, possibly fewer than 16) is not a readable journal header, or undefined. */
export function headerProblem(header: Buffer): string | undefined {
  if (header.length < HEADER_SIZE) return `the file is ${header.length} bytes long, shorter than the ${HEADER_SIZE}-byte journal header`;
  if (!header.subarray(0, MAGIC.length).equals(MAGIC)) return 'it does not start with the journal magic bytes `PETSTORE`: this is not a petstore data file';
  if (header.readUInt32LE(12) !== crc32(header.subarray(0, 12))) return 'the journal header fails its checksum';
  const version = header.readUInt32LE(8);
  if (!READABLE_VERSIONS.includes(version)) return `the journal has format version ${version}, and this build reads only versions ${READABLE_VERSIONS.join(' and ')}`;
  return undefined;
}

/** The format version of a header that passed headerProblem. */
export function headerVersion(header: Buffer): number {
  return header.readUInt32LE(8);
}

/** Frames a payload whose first FRAME_HEADER_SIZE bytes are left free for the frame header. */
function seal(frame: Buffer): Buffer {
  frame.writeUInt32LE(frame.length - FRAME_HEADER_SIZE, 4);
  frame.writeUInt32LE(crc32(frame.subarray(4)), 0);
  return frame;
}

/**
 * Why this pet cannot be written as a record, or undefined; the validator already rules all of these out for API input.
 * A UTF-16 surrogate without its partner (`\p{Surrogate}` in a well-formed string) is what UTF-8 cannot hold.
 */
export function petRecordProblem(pet: NewPet): string | undefined {
  if (typeof pet.name !== 'string' || /\p{Surrogate}/u.test(pet.name)) return '`name` must be a well-formed Unicode string';
  if (Buffer.byteLength(pet.name, 'utf8') > MAX_NAME_BYTES) return `\`name\` must be at most ${MAX_NAME_BYTES} bytes long in UTF-8`;
  if (!Number.isSafeInteger(pet.categoryId)) return '`categoryId` must be a safe integer';
  if (pet.status !== undefined && !STATUS_CODES.has(pet.status)) return '`status` must be one of the PetStatus values';
  return undefined;
}

/** The framed record of a created pet; the pet must have passed petRecordProblem. */
export function encodePetRecord(pet: Pet): Buffer {
  const nameSize = Buffer.byteLength(pet.name, 'utf8');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_SIZE + PET_FIXED_SIZE + nameSize);
  const at = FRAME_HEADER_SIZE;
  frame[at] = PET_RECORD;
  frame[at + 1] = pet.status === undefined ? 0 : (STATUS_CODES.get(pet.status) as number);
  frame.writeDoubleLE(pet.id, at + 2);
  frame.writeDoubleLE(pet.categoryId, at + 10);
  frame.write(pet.name, at + PET_FIXED_SIZE, 'utf8');
  return seal(frame);
}

/** Why this key and fingerprint cannot be written beside this pet, or undefined; the pet must have passed petRecordProblem. */
export function keyedPetRecordProblem(pet: NewPet, idempotency: IdempotencyRecord): string | undefined {
  const { key, fingerprint } = idempotency;
  if (typeof key !== 'string' || key.length === 0 || Buffer.byteLength(key, 'latin1') > MAX_KEY_BYTES || !/^[\x20-\x7e]*$/.test(key)) {
    return `the idempotency key must be 1 to ${MAX_KEY_BYTES} printable ASCII characters`;
  }
  if (typeof fingerprint !== 'string' || /\p{Surrogate}/u.test(fingerprint)) return 'the fingerprint must be a well-formed Unicode string';
  const size = KEYED_PET_FIXED_SIZE + Buffer.byteLength(pet.name, 'utf8') + key.length + Buffer.byteLength(fingerprint, 'utf8');
  if (size > MAX_PAYLOAD_SIZE) return `the pet with its idempotency key and fingerprint needs ${size} bytes, more than a record's ${MAX_PAYLOAD_SIZE}`;
  return undefined;
}

/** The framed keyed record of a created pet with its idempotency key and fingerprint; both must have passed keyedPetRecordProblem. */
export function encodeKeyedPetRecord(pet: Pet, idempotency: IdempotencyRecord): Buffer {
  const nameSize = Buffer.byteLength(pet.name, 'utf8');
  const keySize = idempotency.key.length;
  const fingerprintSize = Buffer.byteLength(idempotency.fingerprint, 'utf8');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_SIZE + KEYED_PET_FIXED_SIZE + nameSize + keySize + fingerprintSize);
  const at = FRAME_HEADER_SIZE;
  frame[at] = KEYED_PET_RECORD;
  frame[at + 1] = pet.status === undefined ? 0 : (STATUS_CODES.get(pet.status) as number);
  frame.writeDoubleLE(pet.id, at + 2);
  frame.writeDoubleLE(pet.categoryId, at + 10);
  frame.writeUInt16LE(nameSize, at + PET_FIXED_SIZE);
  frame[at + PET_FIXED_SIZE + 2] = keySize;
  let offset = at + KEYED_PET_FIXED_SIZE;
  offset += frame.write(pet.name, offset, 'utf8');
  offset += frame.write(idempotency.key, offset, 'latin1');
  frame.write(idempotency.fingerprint, offset, 'utf8');
  return seal(frame);
}

/** The framed record saying that every id up to `id` is taken. */
export function encodeReserveRecord(id: number): Buffer {
  const frame = Buffer.alloc(FRAME_HEADER_SIZE + RESERVE_SIZE);
  frame[FRAME_HEADER_SIZE] = RESERVE_RECORD;
  frame.writeDoubleLE(id, FRAME_HEADER_SIZE + 2);
  return seal(frame);
}

/** What decodeFrame found at an offset. */
export type Frame =
  /** A pet record, or a keyed pet record with its `idempotency`. */
  | { kind: 'pet'; size: number; pet: Pet; idempotency?: IdempotencyRecord }
  | { kind: 'reserve'; size: number; id: number }
  /** The buffer ends before the frame does. */
  | { kind: 'short'; size: number }
  /** Bytes that are not a frame this build wrote: a garbage length or a checksum mismatch. */
  | { kind: 'damaged'; size: number; reason: string }
  /** A frame whose checksum holds but whose content is impossible: never a torn write. */
  | { kind: 'invalid'; size: number; reason: string };

function isPositiveSafeInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/**
 * The frozen pet of the pet payload at `at`, in freezePet's field order, its name bytes `nameStart`
 * to `nameEnd`; or why its fields are impossible.
 */
function readPet(buffer: Buffer, at: number, nameStart: number, nameEnd: number): Pet | string {
  const statusCode = buffer[at + 1] as number;
  const id = buffer.readDoubleLE(at + 2);
  const categoryId = buffer.readDoubleLE(at + 10);
  if (statusCode > PET_STATUSES.length) return `unknown status byte ${statusCode}`;
  if (!isPositiveSafeInteger(id)) return `id ${id} is not a positive safe integer`;
  if (!Number.isSafeInteger(categoryId)) return `categoryId ${categoryId} is not a safe integer`;
  const name = buffer.toString('utf8', nameStart, nameEnd);
  return Object.freeze(statusCode === 0 ? { id, name, categoryId } : { id, name, categoryId, status: PET_STATUSES[statusCode - 1] as PetStatus });
}

/** The payload of an intact keyed pet record, checked field by field. */
function decodeKeyedPet(buffer: Buffer, at: number, length: number, size: number): Frame {
  const nameSize = buffer.readUInt16LE(at + PET_FIXED_SIZE);
  const keySize = buffer[at + PET_FIXED_SIZE + 2] as number;
  const nameStart = at + KEYED_PET_FIXED_SIZE;
  const keyStart = nameStart + nameSize;
  const fingerprintStart = keyStart + keySize;
  const pet = readPet(buffer, at, nameStart, keyStart);
  if (typeof pet === 'string') return { kind: 'invalid', size, reason: pet };
  if (keySize === 0 || fingerprintStart > at + length) {
    return { kind: 'invalid', size, reason: `name and key lengths ${nameSize} and ${keySize} do not fit a ${length}-byte payload` };
  }
  const idempotency = { key: buffer.toString('latin1', keyStart, fingerprintStart), fingerprint: buffer.toString('utf8', fingerprintStart, at + length) };
  return { kind: 'pet', size, pet, idempotency };
}

/** The payload of an intact frame, checked field by field. */
function decodePayload(buffer: Buffer, at: number, length: number, size: number): Frame {
  const type = buffer[at] as number;
  if (type === PET_RECORD && length >= PET_FIXED_SIZE) {
    const pet = readPet(buffer, at, at + PET_FIXED_SIZE, at + length);
    return typeof pet === 'string' ? { kind: 'invalid', size, reason: pet } : { kind: 'pet', size, pet };
  }
  if (type === KEYED_PET_RECORD && length >= KEYED_PET_FIXED_SIZE) return decodeKeyedPet(buffer, at, length, size);
  if (type === RESERVE_RECORD && length === RESERVE_SIZE) {
    const id = buffer.readDoubleLE(at + 2);
    if (!isPositiveSafeInteger(id)) return { kind: 'invalid', size, reason: `reserved id ${id} is not a positive safe integer` };
    return { kind: 'reserve', size, id };
  }
  return { kind: 'invalid', size, reason: `unknown record type ${type} with a ${length}-byte payload` };
}

/**
 * The pet of the frame at `start` when it is a whole, intact, valid pet record; undefined for
 * anything else, which decodeFrame then explains. Replay's fast path: a million records allocate no
 * Frame objects.
 */
export function readPetFrame(buffer: Buffer, start: number): Pet | undefined {
  if (buffer.length - start < FRAME_HEADER_SIZE) return undefined;
  const length = buffer.readUInt32LE(start + 4);
  const at = start + FRAME_HEADER_SIZE;
  if (length < PET_FIXED_SIZE || length > MAX_PAYLOAD_SIZE || at + length > buffer.length || buffer[at] !== PET_RECORD) return undefined;
  if (buffer.readUInt32LE(start) !== crc32(buffer.subarray(start + 4, at + length))) return undefined;
  const pet = readPet(buffer, at, at + PET_FIXED_SIZE, at + length);
  return typeof pet === 'string' ? undefined : pet;
}

/** Reads the frame starting at `start` in `buffer` (whose end may be the end of the file or just of a chunk). */
export function decodeFrame(buffer: Buffer, start: number): Frame {
  if (buffer.length - start < FRAME_HEADER_SIZE) return { kind: 'short', size: FRAME_HEADER_SIZE };
  const length = buffer.readUInt32LE(start + 4);
  if (length < MIN_PAYLOAD_SIZE || length > MAX_PAYLOAD_SIZE) {
    return { kind: 'damaged', size: FRAME_HEADER_SIZE, reason: `record length ${length} is outside ${MIN_PAYLOAD_SIZE}..${MAX_PAYLOAD_SIZE}` };
  }
  const size = FRAME_HEADER_SIZE + length;
  if (buffer.length - start < size) return { kind: 'short', size };
  if (buffer.readUInt32LE(start) !== crc32(buffer.subarray(start + 4, start + size))) {
    return { kind: 'damaged', size, reason: 'record checksum mismatch' };
  }
  return decodePayload(buffer, start + FRAME_HEADER_SIZE, length, size);
}

/**
 * The id field of a frame that fails its checksum, when it still reads as a positive safe integer:
 * every record type keeps its id as binary64 at payload offset 2. Damaged bytes may have changed it.
 */
export function damagedRecordId(frame: Buffer): number | undefined {
  if (frame.length < FRAME_HEADER_SIZE + RESERVE_SIZE) return undefined;
  const id = frame.readDoubleLE(FRAME_HEADER_SIZE + 2);
  return isPositiveSafeInteger(id) ? id : undefined;
}
