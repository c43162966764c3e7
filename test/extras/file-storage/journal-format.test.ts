import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_SAFE_ID } from '../../../lib/limits.js';
import { crc32 } from 'node:zlib';
import {
  decodeFrame, encodeHeader, encodeKeyedPetRecord, encodePetRecord, encodeReserveRecord, FORMAT_VERSION, FRAME_HEADER_SIZE, HEADER_SIZE, headerProblem,
  headerVersion, keyedPetRecordProblem, KEYED_PET_RECORD, MAX_NAME_BYTES, MAX_PAYLOAD_SIZE, petRecordProblem, readPetFrame,
} from '../../../extras/file-storage/journal-format.js';
import type { Frame } from '../../../extras/file-storage/journal-format.js';
import { fingerprintNewPet } from '../../../lib/idempotency.js';
import { freezePet } from '../../../lib/validate.js';
import type { NewPet, Pet, PetStatus } from '../../../lib/index.js';

/** A frame around an arbitrary payload, with a correct checksum. */
function frameOf(payload: Buffer): Buffer {
  const frame = Buffer.alloc(FRAME_HEADER_SIZE + payload.length);
  frame.writeUInt32LE(payload.length, 4);
  payload.copy(frame, FRAME_HEADER_SIZE);
  frame.writeUInt32LE(crc32(frame.subarray(4)), 0);
  return frame;
}

/** A pet payload with the given raw fields. */
function petPayload(status: number, id: number, categoryId: number, name = 'x'): Buffer {
  const payload = Buffer.alloc(18 + Buffer.byteLength(name));
  payload[0] = 1;
  payload[1] = status;
  payload.writeDoubleLE(id, 2);
  payload.writeDoubleLE(categoryId, 10);
  payload.write(name, 18);
  return payload;
}

function expectKind<K extends Frame['kind']>(frame: Frame, kind: K): Extract<Frame, { kind: K }> {
  assert.equal(frame.kind, kind, JSON.stringify(frame));
  return frame as Extract<Frame, { kind: K }>;
}

describe('journal header', () => {
  test('encodeHeader() writes the magic, the format version and a checksum that headerProblem() accepts', () => {
    const header = encodeHeader();
    assert.equal(header.length, HEADER_SIZE);
    assert.equal(header.subarray(0, 8).toString('latin1'), 'PETSTORE');
    assert.equal(header.readUInt32LE(8), FORMAT_VERSION);
    assert.equal(headerProblem(header), undefined);
  });

  test('headerProblem() explains each way a header can be wrong', () => {
    const otherVersion = encodeHeader();
    otherVersion.writeUInt32LE(3, 8);
    otherVersion.writeUInt32LE(crc32(otherVersion.subarray(0, 12)), 12);
    const flipped = encodeHeader();
    flipped[9] = (flipped[9] as number) ^ 1;
    const cases: [Buffer, RegExp][] = [
      [Buffer.alloc(0), /0 bytes long, shorter than the 16-byte journal header/],
      [encodeHeader().subarray(0, 9), /9 bytes long/],
      [Buffer.from('{"id":1,"name":"not a journal"}'), /magic bytes `PETSTORE`: this is not a petstore data file/],
      [flipped, /fails its checksum/],
      [otherVersion, /format version 3, and this build reads only versions 1 and 2/],
    ];
    for (const [header, pattern] of cases) assert.match(headerProblem(header) ?? 'accepted', pattern);
  });

  test('headerProblem() accepts a version 1 header, which headerVersion() reports, and a new header is version 2', () => {
    const old = encodeHeader(1);
    assert.equal(headerProblem(old), undefined);
    assert.equal(headerVersion(old), 1);
    assert.equal(FORMAT_VERSION, 2);
    assert.equal(headerVersion(encodeHeader()), 2);
  });
});

describe('pet records', () => {
  test('encodePetRecord() and decodeFrame() round-trip every kind of pet exactly', () => {
    const pets: NewPet[] = [
      { name: 'Rex', categoryId: 0 },
      { name: 'Zoë 🐕 "quoted" \\ back\nline', categoryId: -MAX_SAFE_ID, status: 'available' },
      { name: ' padded ', categoryId: MAX_SAFE_ID, status: 'pending' },
      { name: '字'.repeat(256), categoryId: 42, status: 'sold' },
    ];
    for (const [index, input] of pets.entries()) {
      const pet = freezePet(index === 0 ? MAX_SAFE_ID : index + 1, input);
      const frame = encodePetRecord(pet);
      const decoded = expectKind(decodeFrame(frame, 0), 'pet');
      assert.equal(decoded.size, frame.length);
      assert.deepEqual({ ...decoded.pet }, { ...pet });
      assert.deepEqual(Object.keys(decoded.pet), Object.keys(pet));
      assert.ok(Object.isFrozen(decoded.pet));
    }
  });

  test('decodeFrame() reads a frame in the middle of a buffer', () => {
    const first = encodePetRecord(freezePet(1, { name: 'One', categoryId: 1 }));
    const second = encodePetRecord(freezePet(2, { name: 'Two', categoryId: 2, status: 'sold' }));
    const buffer = Buffer.concat([first, second]);
    assert.equal(expectKind(decodeFrame(buffer, first.length), 'pet').pet.name, 'Two');
  });

  test('encodeReserveRecord() round-trips through decodeFrame()', () => {
    const reserve = expectKind(decodeFrame(encodeReserveRecord(123_456), 0), 'reserve');
    assert.deepEqual(reserve, { kind: 'reserve', size: FRAME_HEADER_SIZE + 10, id: 123_456 });
  });

  test('decodeFrame() reports a frame cut short, with the size it needs', () => {
    const frame = encodePetRecord(freezePet(7, { name: 'Cut', categoryId: 1 }));
    for (let length = 0; length < frame.length; length++) {
      const short = expectKind(decodeFrame(frame.subarray(0, length), 0), 'short');
      assert.equal(short.size, length < FRAME_HEADER_SIZE ? FRAME_HEADER_SIZE : frame.length);
    }
  });

  test('decodeFrame() reports a length out of range and a checksum mismatch as damaged', () => {
    const zeros = expectKind(decodeFrame(Buffer.alloc(64), 0), 'damaged');
    assert.match(zeros.reason, /record length 0 is outside 10\.\.4096/);
    const huge = Buffer.alloc(64);
    huge.writeUInt32LE(MAX_PAYLOAD_SIZE + 1, 4);
    assert.match(expectKind(decodeFrame(huge, 0), 'damaged').reason, /record length 4097/);
    const frame = encodePetRecord(freezePet(7, { name: 'Flipped', categoryId: 1 }));
    for (const position of [0, 3, 9, 12, 20, frame.length - 1]) {
      const flipped = Buffer.from(frame);
      flipped[position] = (flipped[position] as number) ^ 0x10;
      assert.match(expectKind(decodeFrame(flipped, 0), 'damaged').reason, /checksum mismatch/, `byte ${position}`);
    }
  });

  test('decodeFrame() reports an intact frame with impossible content as invalid', () => {
    const cases: [Buffer, RegExp][] = [
      [petPayload(4, 1, 1), /unknown status byte 4/],
      [petPayload(0, 0, 1), /id 0 is not a positive safe integer/],
      [petPayload(0, 1.5, 1), /id 1.5 is not/],
      [petPayload(0, MAX_SAFE_ID + 1, 1), /id 9007199254740992 is not/],
      [petPayload(0, 1, 0.5), /categoryId 0.5 is not a safe integer/],
      [petPayload(0, 1, Number.NaN), /categoryId NaN/],
      [Buffer.from([9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /unknown record type 9 with a 11-byte payload/],
      [Buffer.from([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /unknown record type 1 with a 11-byte payload/],
      [Buffer.from([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /unknown record type 2 with a 12-byte payload/],
    ];
    for (const [payload, pattern] of cases) assert.match(expectKind(decodeFrame(frameOf(payload), 0), 'invalid').reason, pattern);
    const reserveZero = Buffer.alloc(10);
    reserveZero[0] = 2;
    assert.match(expectKind(decodeFrame(frameOf(reserveZero), 0), 'invalid').reason, /reserved id 0 is not a positive safe integer/);
  });

  test('petRecordProblem() accepts what the validator accepts and names what a record cannot hold', () => {
    assert.equal(petRecordProblem({ name: 'Rex', categoryId: 1, status: 'sold' }), undefined);
    assert.equal(petRecordProblem({ name: 'x'.repeat(MAX_NAME_BYTES), categoryId: 1 }), undefined);
    const cases: [unknown, RegExp][] = [
      [{ name: 'lone \ud800 surrogate', categoryId: 1 }, /`name` must be a well-formed Unicode string/],
      [{ name: '\udc00', categoryId: 1 }, /`name` must be a well-formed/],
      [{ name: 42, categoryId: 1 }, /`name` must be a well-formed/],
      [{ name: 'x'.repeat(MAX_NAME_BYTES + 1), categoryId: 1 }, /at most 4078 bytes/],
      [{ name: 'Rex', categoryId: 2 ** 53 }, /`categoryId` must be a safe integer/],
      [{ name: 'Rex', categoryId: '1' }, /`categoryId` must be a safe integer/],
      [{ name: 'Rex', categoryId: 1, status: 'lost' }, /`status` must be one of/],
    ];
    for (const [pet, pattern] of cases) assert.match(petRecordProblem(pet as NewPet) ?? 'accepted', pattern);
  });

  test('the status byte follows PET_STATUSES order, 0 meaning no status', () => {
    const statuses: (PetStatus | undefined)[] = [undefined, 'available', 'pending', 'sold'];
    for (const [code, status] of statuses.entries()) {
      const input: NewPet = { name: 'S', categoryId: 1 };
      if (status !== undefined) input.status = status;
      const frame = encodePetRecord(freezePet(1, input) as Pet);
      assert.equal(frame[FRAME_HEADER_SIZE + 1], code);
    }
  });
});

describe('keyed pet records', () => {
  const key = '8e03978e-40d5-43e8-bc93-6894a57f9324';

  test('encodeKeyedPetRecord() and decodeFrame() round-trip the pet with its key and fingerprint exactly', () => {
    const pets: NewPet[] = [
      { name: 'Rex', categoryId: 3, status: 'available' },
      { name: 'Zoë 🐕 "quoted" \\ back\nline', categoryId: -MAX_SAFE_ID },
      { name: '字'.repeat(256), categoryId: MAX_SAFE_ID, status: 'sold' },
    ];
    for (const [index, input] of pets.entries()) {
      const pet = freezePet(index + 1, input);
      const idempotency = { key: index === 1 ? '~'.repeat(255) : key, fingerprint: fingerprintNewPet(input) };
      assert.equal(keyedPetRecordProblem(input, idempotency), undefined);
      const frame = encodeKeyedPetRecord(pet, idempotency);
      assert.equal(frame[FRAME_HEADER_SIZE], KEYED_PET_RECORD);
      const decoded = expectKind(decodeFrame(frame, 0), 'pet');
      assert.equal(decoded.size, frame.length);
      assert.deepEqual({ ...decoded.pet }, { ...pet });
      assert.deepEqual(Object.keys(decoded.pet), Object.keys(pet));
      assert.ok(Object.isFrozen(decoded.pet));
      assert.deepEqual(decoded.idempotency, idempotency);
      assert.equal(readPetFrame(frame, 0), undefined, 'the fast path leaves keyed records to decodeFrame()');
    }
  });

  test('a keyed record costs 21 fixed payload bytes plus the name, the key and the fingerprint', () => {
    const input: NewPet = { name: 'Rex', categoryId: 3, status: 'available' };
    const fingerprint = fingerprintNewPet(input);
    const plain = encodePetRecord(freezePet(1, input)).length;
    const keyed = encodeKeyedPetRecord(freezePet(1, input), { key, fingerprint }).length;
    assert.equal(plain, FRAME_HEADER_SIZE + 18 + 3);
    assert.equal(keyed, FRAME_HEADER_SIZE + 21 + 3 + key.length + fingerprint.length);
    assert.deepEqual([plain, keyed], [29, 118]);
  });

  test('keyedPetRecordProblem() names a key or fingerprint a record cannot hold', () => {
    const pet: NewPet = { name: 'Rex', categoryId: 1 };
    const cases: [unknown, unknown, RegExp][] = [
      ['', 'f', /idempotency key must be 1 to 255 printable ASCII characters/],
      ['x'.repeat(256), 'f', /idempotency key must be/],
      ['ü', 'f', /idempotency key must be/],
      ['tab\t', 'f', /idempotency key must be/],
      [7, 'f', /idempotency key must be/],
      ['k', 'lone \ud800', /fingerprint must be a well-formed Unicode string/],
      ['k', 7, /fingerprint must be a well-formed/],
      ['k', 'x'.repeat(MAX_PAYLOAD_SIZE), /needs 4121 bytes, more than a record's 4096/],
    ];
    for (const [key, fingerprint, pattern] of cases) {
      assert.match(keyedPetRecordProblem(pet, { key, fingerprint } as { key: string; fingerprint: string }) ?? 'accepted', pattern);
    }
  });

  test('decodeFrame() reports a keyed record whose lengths do not fit its payload as invalid', () => {
    const frame = encodeKeyedPetRecord(freezePet(1, { name: 'Rex', categoryId: 1 }), { key: 'k', fingerprint: '' });
    const payload = Buffer.from(frame.subarray(FRAME_HEADER_SIZE));
    const tooLongName = Buffer.from(payload);
    tooLongName.writeUInt16LE(500, 18);
    const noKey = Buffer.from(payload);
    noKey[20] = 0;
    const badId = Buffer.from(payload);
    badId.writeDoubleLE(0, 2);
    const cases: [Buffer, RegExp][] = [
      [tooLongName, /name and key lengths 500 and 1 do not fit a 25-byte payload/],
      [noKey, /name and key lengths 3 and 0 do not fit/],
      [badId, /id 0 is not a positive safe integer/],
    ];
    for (const [bytes, pattern] of cases) assert.match(expectKind(decodeFrame(frameOf(bytes), 0), 'invalid').reason, pattern);
  });
});
