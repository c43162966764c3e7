import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { MAX_SAFE_ID } from '../../../lib/limits.js';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import type { FileStorage, FileStorageOptions } from '../../../extras/file-storage/index.js';
import { crc32 } from 'node:zlib';
import { encodeHeader, encodeKeyedPetRecord, encodePetRecord, encodeReserveRecord, FRAME_HEADER_SIZE, HEADER_SIZE, MAX_NAME_BYTES } from '../../../extras/file-storage/journal-format.js';
import { fingerprintNewPet } from '../../../lib/idempotency.js';
import { freezePet } from '../../../lib/validate.js';
import type { IdempotencyRecord, InsertOnceResult, NewPet, Pet, PetStorage } from '../../../lib/index.js';
import { runStorageContract } from '../../../server/testing/index.js';
import { fsError, hookedFileSystem, journalPath, literally, logLines, rejection, samplePet, temporaryDirectory } from './fixtures.js';

/** Paths of the storages the contract suite opened, so `reopen` can find a storage's file. */
function contractOptions(options: FileStorageOptions): Parameters<typeof runStorageContract>[1] {
  return {
    makeStorage: async () => createFileStorage(await journalPath(), options),
    reopen: async (storage: PetStorage) => {
      const { path } = storage as FileStorage;
      await storage.close?.();
      return createFileStorage(path, options);
    },
  };
}

runStorageContract('file (fsync)', contractOptions({ durability: 'fsync', log: () => undefined }));
runStorageContract('file (write)', contractOptions({ durability: 'write', log: () => undefined }));

/** A journal file with these records after a valid header. */
async function writeJournal(path: string, records: readonly Buffer[]): Promise<void> {
  await writeFile(path, Buffer.concat([encodeHeader(), ...records]));
}

function petRecord(id: number): Buffer {
  return encodePetRecord(freezePet(id, samplePet(id)));
}

/** Opens the journal, inserts `count` sample pets, closes it, and returns the pets with each record's byte offset. */
async function journalWith(path: string, count: number): Promise<{ pets: Pet[]; offsets: number[] }> {
  const storage = await createFileStorage(path, { log: () => undefined });
  const pets: Pet[] = [];
  for (let index = 1; index <= count; index++) pets.push(await storage.insert(samplePet(index)));
  await storage.close();
  const offsets: number[] = [];
  let offset = HEADER_SIZE;
  for (const pet of pets) {
    offsets.push(offset);
    offset += encodePetRecord(pet).length;
  }
  return { pets, offsets };
}

async function allPets(storage: PetStorage): Promise<Pet[]> {
  return (await storage.list({ status: undefined, after: 0, limit: 1_000_000 })).map((pet) => ({ ...pet }));
}

/** The one side file of this kind next to the journal. */
async function sideFile(path: string, kind: string): Promise<string> {
  const names = (await readdir(dirname(path))).filter((name) => name.startsWith(`${basename(path)}.`) && name.endsWith(`.${kind}`));
  assert.equal(names.length, 1, names.join(', '));
  assert.match(names[0] as string, /^pets\.journal\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\./);
  return join(dirname(path), names[0] as string);
}

async function flipByte(path: string, offset: number): Promise<void> {
  const bytes = await readFile(path);
  bytes[offset] = (bytes[offset] as number) ^ 0x5a;
  await writeFile(path, bytes);
}

describe('createFileStorage() recovery', () => {
  test('createFileStorage() cuts a torn final record at every cut point, reports it once, and appends cleanly after it', async () => {
    const directory = await temporaryDirectory();
    const original = join(directory, 'original.journal');
    const { pets, offsets } = await journalWith(original, 3);
    const lastOffset = offsets[2] as number;
    const fullSize = (await stat(original)).size;
    for (let cut = lastOffset + 1; cut < fullSize; cut++) {
      const path = join(directory, `cut-${cut}.journal`);
      await writeFile(path, (await readFile(original)).subarray(0, cut));
      const { lines, log } = logLines();
      const storage = await createFileStorage(path, { log });
      assert.equal(lines.length, 1, `one report for the cut at ${cut}`);
      assert.match(lines[0] as string, literally(`${path}: cut off a torn final record at byte offset ${lastOffset} (${cut - lastOffset} bytes`));
      assert.equal((await stat(path)).size, lastOffset, 'cut before any append');
      assert.deepEqual(await allPets(storage), pets.slice(0, 2).map((pet) => ({ ...pet })));
      const next = await storage.insert({ name: 'After the tear', categoryId: 9, status: 'sold' });
      assert.equal(next.id, 3, 'the torn pet was never acknowledged, so its id is free');
      await storage.close();
      const again = logLines();
      const reopened = await createFileStorage(path, { log: again.log });
      assert.deepEqual(again.lines, [], 'reported once only');
      assert.deepEqual({ ...(await reopened.get(3)) }, { id: 3, name: 'After the tear', categoryId: 9, status: 'sold' });
      assert.equal((await allPets(reopened)).length, 3);
      await reopened.close();
    }
  });

  test('createFileStorage() cuts a final record with a flipped byte anywhere in it', async () => {
    const directory = await temporaryDirectory();
    const original = join(directory, 'original.journal');
    const { pets, offsets } = await journalWith(original, 4);
    const lastOffset = offsets[3] as number;
    const fullSize = (await stat(original)).size;
    for (let position = lastOffset; position < fullSize; position++) {
      const path = join(directory, `flip-${position}.journal`);
      await writeFile(path, await readFile(original));
      await flipByte(path, position);
      const { lines, log } = logLines();
      const storage = await createFileStorage(path, { log });
      assert.equal(lines.length, 1, `flip at ${position}`);
      assert.match(lines[0] as string, literally(`at byte offset ${lastOffset}`));
      assert.deepEqual(await allPets(storage), pets.slice(0, 3).map((pet) => ({ ...pet })));
      const next = await storage.insert(samplePet(9));
      await storage.close();
      const reopened = await createFileStorage(path, { log: () => undefined });
      assert.deepEqual({ ...(await reopened.get(next.id)) }, { ...next });
      await reopened.close();
    }
  });

  test('createFileStorage() keeps a whole final record that fails its checksum in a side file, says it may have been acknowledged, and never hands out its id again', async () => {
    const path = await journalPath();
    const { pets, offsets } = await journalWith(path, 3);
    const lastOffset = offsets[2] as number;
    // A byte of the name: the id still reads as 3.
    await flipByte(path, lastOffset + FRAME_HEADER_SIZE + 20);
    const damaged = (await readFile(path)).subarray(lastOffset);
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log });
    assert.equal(lines.length, 1);
    const side = await sideFile(path, 'damaged-tail');
    assert.equal(lines[0], `petstore: ${path}: cut off a damaged final record at byte offset ${lastOffset} (${damaged.length} bytes: record checksum mismatch). `
      + 'It is a whole record, so it may have been acknowledged (a pet damaged on disk since, or a write torn by a power loss). '
      + `Its bytes are kept in ${side}; its id, 3, is reserved and never handed out again. 2 pets recovered.`);
    assert.deepEqual(await readFile(side), damaged, 'the side file holds the cut bytes as they were');
    assert.deepEqual(await allPets(storage), pets.slice(0, 2).map((pet) => ({ ...pet })));
    const next = await storage.insert(samplePet(4));
    assert.equal(next.id, 4, 'id 3 may belong to an acknowledged pet');
    await storage.close();
    const reopened = await createFileStorage(path, { log: (line) => assert.fail(`nothing to cut on reopen, got: ${line}`) });
    assert.deepEqual((await allPets(reopened)).map((pet) => pet.id), [1, 2, 4]);
    assert.equal((await reopened.insert(samplePet(5))).id, 5);
    await reopened.close();
  });

  test('createFileStorage() reserves a margin of ids after a whole damaged final record whose id cannot be read', async () => {
    const path = await journalPath();
    const { offsets } = await journalWith(path, 2);
    const bytes = await readFile(path);
    // The id field now reads 2.5: damaged, and no longer an id.
    bytes.writeDoubleLE(2.5, (offsets[1] as number) + FRAME_HEADER_SIZE + 2);
    await writeFile(path, bytes);
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log });
    assert.match(lines[0] as string, /may have been acknowledged .*its id cannot be read, so every id up to 1000001 is reserved and never handed out again\. 1 pets recovered\.$/);
    assert.equal((await storage.insert(samplePet(3))).id, 1_000_002);
    await storage.close();
  });

  test('createFileStorage() keeps the bytes of a torn final record in a side file too', async () => {
    const path = await journalPath();
    await journalWith(path, 1);
    const size = (await stat(path)).size;
    await appendFile(path, Buffer.from([1, 2, 3]));
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log });
    const side = await sideFile(path, 'damaged-tail');
    assert.deepEqual(lines, [`petstore: ${path}: cut off a torn final record at byte offset ${size} (3 bytes: the record needs 8 bytes, but the file ends after 3); `
      + `it was never acknowledged. Its bytes are kept in ${side}. 1 pets recovered.`]);
    assert.deepEqual([...await readFile(side)], [1, 2, 3]);
    assert.equal((await storage.insert(samplePet(2))).id, 2, 'a torn write was never acknowledged, so its id is free');
    await storage.close();
  });

  test('createFileStorage() cuts a zero-filled tail, as a power loss can leave', async () => {
    const path = await journalPath();
    const { pets, offsets } = await journalWith(path, 2);
    await appendFile(path, Buffer.alloc(700));
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log });
    assert.match(lines.join('\n'), /record length 0 is outside/);
    assert.equal((await stat(path)).size, (offsets[1] as number) + encodePetRecord(pets[1] as Pet).length);
    assert.equal((await allPets(storage)).length, 2);
    await storage.close();
  });

  test('createFileStorage() refuses a journal with a flipped byte in a middle record, naming the file and the offset', async () => {
    const directory = await temporaryDirectory();
    const original = join(directory, 'original.journal');
    const { offsets } = await journalWith(original, 5);
    const middle = offsets[2] as number;
    const next = offsets[3] as number;
    for (let position = middle; position < next; position++) {
      const path = join(directory, `middle-${position}.journal`);
      await writeFile(path, await readFile(original));
      await flipByte(path, position);
      const before = await readFile(path);
      await rejection(
        () => createFileStorage(path, { log: () => assert.fail('nothing to report') }),
        'unavailable',
        literally(`Data file ${path} is corrupt at byte offset ${middle}: `),
        literally(`an intact record follows at byte offset ${next}`),
        literally(`With the server stopped, \`petstore-reference repair --data ${path} --salvage\` copies it aside, then keeps every intact record and drops only the damaged bytes (into a side file); `
          + `without \`--salvage\`, repair cuts it at byte offset ${middle} and drops every record after that too.`),
      );
      assert.deepEqual(await readFile(path), before, 'a refused file is left untouched');
      await assert.rejects(stat(`${path}.lock`), /ENOENT/, 'the lock is released');
    }
  });

  test('createFileStorage() refuses an intact record with impossible content even at the end', async () => {
    const path = await journalPath();
    const badStatus = petRecord(2);
    badStatus[FRAME_HEADER_SIZE + 1] = 7;
    badStatus.writeUInt32LE(crc32(badStatus.subarray(4)), 0);
    await writeJournal(path, [petRecord(1), badStatus]);
    await rejection(() => createFileStorage(path), 'unavailable', literally(`corrupt at byte offset ${HEADER_SIZE + petRecord(1).length}: unknown status byte 7`), /checksum holds/);
  });

  test('createFileStorage() refuses ids that do not increase', async () => {
    const path = await journalPath();
    await writeJournal(path, [petRecord(5), petRecord(5), petRecord(6)]);
    await rejection(() => createFileStorage(path), 'unavailable', /pet id 5 is not above the highest earlier id 5/, /intact record follows/);
  });

  test('createFileStorage() finds a corrupt record across chunk boundaries of a large journal', async () => {
    const path = await journalPath();
    const records = Array.from({ length: 60_000 }, (_, index) => petRecord(index + 1));
    await writeJournal(path, records);
    // A record straddling the first 1 MiB chunk boundary.
    let offset = HEADER_SIZE;
    let index = 0;
    while (offset + (records[index] as Buffer).length <= 1 << 20) offset += (records[index++] as Buffer).length;
    await flipByte(path, offset + FRAME_HEADER_SIZE + 5);
    await rejection(() => createFileStorage(path), 'unavailable', literally(`corrupt at byte offset ${offset}: record checksum mismatch`));
  });

  test('createFileStorage() replays a journal of 200,000 pets into memory and continues ids above them', async () => {
    const path = await journalPath();
    const count = 200_000;
    await writeJournal(path, Array.from({ length: count }, (_, index) => petRecord(index + 1)));
    const storage = await createFileStorage(path, { log: () => assert.fail('nothing to report') });
    for (const id of [1, 2, 99_999, count]) assert.deepEqual({ ...(await storage.get(id)) }, { ...freezePet(id, samplePet(id)) });
    assert.equal((await storage.list({ status: 'sold', after: count - 10, limit: 100 })).length, 2);
    assert.equal((await storage.insert(samplePet(0))).id, count + 1);
    await storage.close();
  });

  test('createFileStorage() continues ids above a reservation record', async () => {
    const path = await journalPath();
    await writeJournal(path, [petRecord(1), encodeReserveRecord(1000), encodeReserveRecord(20)]);
    const storage = await createFileStorage(path);
    assert.equal((await storage.insert(samplePet(2))).id, 1001);
    await storage.close();
  });

  test('createFileStorage() refuses a bad header clearly and leaves the file alone', async () => {
    const directory = await temporaryDirectory();
    const otherVersion = encodeHeader();
    otherVersion.writeUInt32LE(9, 8);
    otherVersion.writeUInt32LE(crc32(otherVersion.subarray(0, 12)), 12);
    const cases: [string, Buffer, RegExp][] = [
      ['text', Buffer.from('name,categoryId\nRex,1\n'), /not a petstore data file/],
      ['short', Buffer.from('PETS'), /4 bytes long, shorter than the 16-byte journal header/],
      ['version', Buffer.concat([otherVersion, petRecord(1)]), /format version 9, and this build reads only versions 1 and 2/],
    ];
    for (const [name, content, pattern] of cases) {
      const path = join(directory, name);
      await writeFile(path, content);
      await rejection(() => createFileStorage(path), 'unavailable', literally(`Cannot open data file ${path}: `), pattern, /\(byte offset 0\)/);
      assert.deepEqual(await readFile(path), content);
    }
  });

  test('createFileStorage() creates a missing journal with a header and syncs its directory', async () => {
    const path = await journalPath();
    const operations: string[] = [];
    const storage = await createFileStorage(path, { fileSystem: hookedFileSystem((operation, target) => void operations.push(`${operation} ${target}`)) });
    await storage.close();
    assert.deepEqual(await readFile(path), encodeHeader());
    const rename = operations.indexOf(`rename ${path}`);
    const directory = path.slice(0, path.lastIndexOf('/'));
    assert.ok(rename > 0, 'created by renaming a synced draft into place');
    assert.ok(operations.indexOf(`datasync ${path}.creating`) < rename);
    assert.ok(operations.indexOf(`sync ${directory}`) > rename, 'the directory is synced after the rename');
  });

  test('createFileStorage() turns an existing empty file into an empty journal', async () => {
    const path = await journalPath();
    await writeFile(path, '');
    const storage = await createFileStorage(path);
    assert.equal((await storage.insert(samplePet(1))).id, 1);
    await storage.close();
    assert.equal((await readFile(path)).subarray(0, HEADER_SIZE).equals(encodeHeader()), true);
  });

  test('createFileStorage() reports a directory that does not exist', async () => {
    const path = join(await temporaryDirectory(), 'missing', 'pets.journal');
    await rejection(() => createFileStorage(path), 'unavailable', literally(`Cannot open data file ${path}: its lock file ${path}.lock cannot be created in ${dirname(path)} (ENOENT: it does not exist). `
      + `The lock keeps a second server off the data file, so ${dirname(path)} must exist and let this user create files in it, even when the data file is already there: `
      + 'make it so, or keep the data file in a directory that does.'));
  });

  test('createFileStorage() logs through process.emitWarning by default', async () => {
    const path = await journalPath();
    await journalWith(path, 1);
    await appendFile(path, Buffer.from([1, 2, 3]));
    const warnings: Error[] = [];
    const listener = (warning: Error): void => void warnings.push(warning);
    process.on('warning', listener);
    try {
      const storage = await createFileStorage(path);
      await storage.close();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]?.message ?? '', /cut off a torn final record/);
  });
});

describe('createFileStorage() file-system failures', () => {
  const cases: [string, (operation: string, path: string) => boolean, RegExp][] = [
    ['opening the journal', (operation, path) => operation === 'open' && !path.endsWith('.creating') && !path.endsWith('journal-dir'), /opening it failed: EACCES/],
    ['creating the journal', (operation) => operation === 'rename', /creating it failed: EACCES/],
    ['reading its size', (operation) => operation === 'size', /reading its header failed: EACCES/],
    ['reading the header', (operation) => operation === 'read', /reading its header failed: EACCES/],
  ];
  for (const [name, when, pattern] of cases) {
    test(`createFileStorage() reports a failure ${name} and releases the lock`, async () => {
      const path = await journalPath();
      await rejection(() => createFileStorage(path, {
        fileSystem: hookedFileSystem((operation, target) => {
          if (target.startsWith(path) && !target.includes('.lock') && when(operation, target)) throw fsError('EACCES');
        }),
      }), 'unavailable', pattern);
      await assert.rejects(stat(`${path}.lock`), /ENOENT/);
    });
  }

  test('createFileStorage() reports a short read of the header', async () => {
    const path = await journalPath();
    await journalWith(path, 1);
    const fileSystem = hookedFileSystem(() => undefined);
    const open = fileSystem.open;
    fileSystem.open = async (target, flags) => {
      const file = await open(target, flags);
      return target === path ? { ...file, read: async () => 3 } : file;
    };
    await rejection(() => createFileStorage(path, { fileSystem }), 'unavailable', /short read of the journal header/);
  });

  test('createFileStorage() reports a short write of a new journal\'s header', async () => {
    const path = await journalPath();
    const fileSystem = hookedFileSystem(() => undefined);
    const open = fileSystem.open;
    fileSystem.open = async (target, flags) => {
      const file = await open(target, flags);
      return target.endsWith('.creating') ? { ...file, write: async () => 5 } : file;
    };
    await rejection(() => createFileStorage(path, { fileSystem }), 'unavailable', /creating it failed: short write of the journal header/);
  });

  test('createFileStorage() reports a journal that ends before its size while being read', async () => {
    const path = await journalPath();
    await journalWith(path, 3);
    let reads = 0;
    const fileSystem = hookedFileSystem(() => undefined);
    const open = fileSystem.open;
    fileSystem.open = async (target, flags) => {
      const file = await open(target, flags);
      return { ...file, read: async (...args) => (reads++ === 0 ? file.read(...args) : 0) };
    };
    await rejection(() => createFileStorage(path, { fileSystem }), 'unavailable', /reading it failed: the file ended at byte 16/);
  });

  test('createFileStorage() refuses to open when cutting the torn tail fails', async () => {
    const path = await journalPath();
    await journalWith(path, 1);
    await appendFile(path, Buffer.from([1, 2, 3]));
    const fileSystem = hookedFileSystem((operation) => {
      if (operation === 'truncate') throw fsError('EROFS');
    });
    await rejection(() => createFileStorage(path, { fileSystem }), 'unavailable', /cutting off the damaged final record at byte offset \d+ failed: EROFS/);
  });

  test('createFileStorage() rejects an unknown durability mode', async () => {
    const path = await journalPath();
    await rejection(() => createFileStorage(path, { durability: 'never' as 'write' }), 'internal_error', /`durability` must be `fsync` or `write`, not "never"/);
  });
});

describe('FileStorage inserts and writes', () => {
  test('insert() rejects a pet a record cannot hold, without using up an id', async () => {
    const storage = await createFileStorage(await journalPath());
    await rejection(() => storage.insert({ name: 'bad \ud800', categoryId: 1 }), 'validation_failed', /`name` must be a well-formed Unicode string/);
    await rejection(() => storage.insert({ name: 'Rex', categoryId: 0.5 }), 'validation_failed', /`categoryId` must be a safe integer/);
    assert.equal((await storage.insert(samplePet(1))).id, 1);
    await storage.close();
  });

  test('insert() refuses once every safe id is used', async () => {
    const path = await journalPath();
    await writeJournal(path, [encodeReserveRecord(MAX_SAFE_ID - 1)]);
    const storage = await createFileStorage(path);
    assert.equal((await storage.insert(samplePet(1))).id, MAX_SAFE_ID);
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', /every id up to 2\^53 - 1 has been used/);
    await storage.close();
  });

  test('insert() after a failed fdatasync (EIO) rejects every waiting insert and cuts their bytes off', async () => {
    const path = await journalPath();
    let isFailing = false;
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target) => {
        if (isFailing && operation === 'datasync' && target === path) throw fsError('EIO');
      }),
    });
    const kept = await storage.insert(samplePet(1));
    const sizeBefore = (await stat(path)).size;
    isFailing = true;
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => storage.insert(samplePet(index + 2))));
    assert.ok(results.every((result) => result.status === 'rejected' && result.reason instanceof Error && /not stored/.test(result.reason.message)));
    assert.equal((await stat(path)).size, sizeBefore, 'the unacknowledged records were cut off');
    assert.deepEqual(await allPets(storage), [{ ...kept }]);
    await storage.close();
    const reopened = await createFileStorage(path);
    assert.deepEqual(await allPets(reopened), [{ ...kept }]);
    await reopened.close();
  });

  test('insert() rejects the records queued behind a failing batch too', async () => {
    const path = await journalPath();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem(async (operation, target) => {
        if (operation === 'datasync' && target === path) {
          await gate;
          throw fsError('EIO');
        }
      }),
    });
    const first = storage.insert(samplePet(1));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const queued = storage.insert(samplePet(2));
    release();
    await rejection(() => first, 'unavailable');
    await rejection(() => queued, 'unavailable');
    await storage.close();
  });

  test('insert() still rejects every waiting insert when the log function throws', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path, {
      log: () => { throw new Error('log is broken'); },
      fileSystem: hookedFileSystem((operation, target) => {
        if (operation === 'write' && target === path) throw fsError('EIO');
      }),
    });
    await rejection(() => storage.insert(samplePet(1)), 'unavailable', /the pet was not stored/);
    await storage.close();
  });

  test('insert() logs that failed records may reappear when even the cut after a failure fails', async () => {
    const path = await journalPath();
    let isFailing = false;
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, {
      log,
      fileSystem: hookedFileSystem((operation, target) => {
        if (isFailing && target === path && (operation === 'datasync' || operation === 'truncate')) throw fsError('EIO');
      }),
    });
    isFailing = true;
    await rejection(() => storage.insert(samplePet(1)), 'unavailable');
    assert.match(lines.join('\n'), /cutting .* back to byte 16 also failed \(EIO: simulated failure\); records of the failed batch may reappear/);
    await storage.close();
  });

  test('insert() completes short writes and fails a write that makes no progress', async () => {
    const path = await journalPath();
    let mode: 'halves' | 'stuck' = 'halves';
    const fileSystem = hookedFileSystem(() => undefined);
    const open = fileSystem.open;
    fileSystem.open = async (target, flags) => {
      const file = await open(target, flags);
      if (target !== path) return file;
      return {
        ...file,
        write: async (buffer, offset, length, position) => {
          if (mode === 'stuck') return 0;
          return file.write(buffer, offset, Math.ceil(length / 2), position);
        },
      };
    };
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { fileSystem, log });
    const pets = await Promise.all([1, 2, 3].map((index) => storage.insert(samplePet(index))));
    mode = 'stuck';
    await rejection(() => storage.insert(samplePet(4)), 'unavailable');
    assert.match(lines.join('\n'), /write\(2\) made no progress/);
    await storage.close();
    const reopened = await createFileStorage(path);
    assert.deepEqual(await allPets(reopened), pets.map((pet) => ({ ...pet })));
    await reopened.close();
  });

  test('insert() group-commits: inserts arriving during a sync share the next write and sync, and each resolves only after its sync', async () => {
    const path = await journalPath();
    const events: string[] = [];
    let holdSync: Promise<void> | undefined;
    let releaseSync: () => void = () => undefined;
    const storage = await createFileStorage(path, {
      fileSystem: hookedFileSystem(async (operation, target, data) => {
        if (target !== path) return;
        if (operation === 'write' && data !== undefined) {
          const ids: number[] = [];
          for (let offset = 0; offset < data.length; offset += FRAME_HEADER_SIZE + data.readUInt32LE(offset + 4)) ids.push(data.readDoubleLE(offset + FRAME_HEADER_SIZE + 2));
          events.push(`write ${ids.join(',')}`);
        }
        if (operation === 'datasync') {
          events.push('datasync');
          if (holdSync !== undefined) await holdSync;
        }
      }),
    });
    holdSync = new Promise<void>((resolve) => { releaseSync = resolve; });
    const record = (pet: Pet): Pet => (events.push(`resolved ${pet.id}`), pet);
    const firstWave = Array.from({ length: 50 }, (_, index) => storage.insert(samplePet(index)).then(record));
    while (!events.includes('datasync')) await new Promise((resolve) => setImmediate(resolve));
    const secondWave = Array.from({ length: 150 }, (_, index) => storage.insert(samplePet(index)).then(record));
    holdSync = undefined;
    releaseSync();
    const pets = [...await Promise.all(firstWave), ...await Promise.all(secondWave)];
    assert.deepEqual(pets.map((pet) => pet.id), Array.from({ length: 200 }, (_, index) => index + 1));
    assert.deepEqual(storage.stats(), { records: 200, writes: 2, syncs: 2 });
    const writes = events.filter((event) => event.startsWith('write'));
    assert.deepEqual(writes, [
      `write ${Array.from({ length: 50 }, (_, index) => index + 1).join(',')}`,
      `write ${Array.from({ length: 150 }, (_, index) => index + 51).join(',')}`,
    ]);
    // Replay the event order: an id may resolve only after a datasync that followed the write carrying it.
    const written = new Set<number>();
    const synced = new Set<number>();
    for (const event of events) {
      const [kind, list] = event.split(' ');
      if (kind === 'write') for (const id of (list as string).split(',')) written.add(Number(id));
      if (kind === 'datasync') for (const id of written) synced.add(id);
      if (kind === 'resolved') assert.ok(synced.has(Number(list)), `pet ${list} resolved before its sync`);
    }
    await storage.close();
  });

  test('insert() under many concurrent callers makes fewer syncs than records', async () => {
    const storage = await createFileStorage(await journalPath());
    for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 100 }, (_, index) => storage.insert(samplePet(index))));
    const stats = storage.stats();
    assert.equal(stats.records, 500);
    assert.ok(stats.syncs < stats.records / 10, `${stats.syncs} syncs for ${stats.records} records`);
    await storage.close();
  });

  test('insert() in write mode makes no sync per batch, and close() syncs once', async () => {
    const path = await journalPath();
    const operations: string[] = [];
    const storage = await createFileStorage(path, {
      durability: 'write',
      fileSystem: hookedFileSystem((operation, target) => {
        if (target === path) operations.push(operation);
      }),
    });
    operations.length = 0;
    for (let index = 0; index < 5; index++) await storage.insert(samplePet(index));
    // Each batch, before the write and after it: does the path still name this file, and is the file still where this writer left it?
    assert.deepEqual(operations, Array.from({ length: 5 }, () => ['stat', 'size', 'write', 'stat', 'size']).flat());
    assert.deepEqual(storage.stats(), { records: 5, writes: 5, syncs: 0 });
    await storage.close();
    assert.deepEqual(operations.slice(25), ['stat', 'datasync', 'close']);
  });
});

describe('FileStorage close()', () => {
  test('close() waits for queued inserts, releases the lock, and later inserts are refused while reads still answer', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    const pending = Array.from({ length: 20 }, (_, index) => storage.insert(samplePet(index)));
    await storage.close();
    assert.equal((await Promise.all(pending)).length, 20);
    await assert.rejects(stat(`${path}.lock`), /ENOENT/);
    await rejection(() => storage.insert(samplePet(1)), 'unavailable', /the storage is closed/);
    assert.equal((await storage.get(20))?.id, 20);
    await storage.close();
    const reopened = await createFileStorage(path);
    assert.equal((await allPets(reopened)).length, 20);
    await reopened.close();
  });

  test('close() reports a failed final sync in write mode and still releases the lock', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path, {
      durability: 'write',
      fileSystem: hookedFileSystem((operation, target) => {
        if (operation === 'datasync' && target === path) throw fsError('EIO');
      }),
    });
    await storage.insert(samplePet(1));
    await rejection(() => storage.close(), 'unavailable', literally(`Closing data file ${path}: the final sync failed: EIO`));
    await assert.rejects(stat(`${path}.lock`), /ENOENT/);
  });

  test('close() after a write failure closes without another sync', async () => {
    const path = await journalPath();
    let isFailing = false;
    const operations: string[] = [];
    const storage = await createFileStorage(path, {
      durability: 'write',
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target) => {
        if (target === path) operations.push(operation);
        if (isFailing && operation === 'write' && target === path) throw fsError('EIO');
      }),
    });
    await storage.insert(samplePet(1));
    isFailing = true;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable');
    operations.length = 0;
    await storage.close();
    assert.deepEqual(operations, ['stat', 'close'], 'only the check that the path still names the file');
  });
});

/** The storage's insertOnce, which a file storage always has. */
function insertOnceOf(storage: FileStorage): (pet: NewPet, idempotency: IdempotencyRecord) => Promise<InsertOnceResult> {
  assert.ok(storage.insertOnce !== undefined, 'a file storage has insertOnce()');
  return storage.insertOnce.bind(storage);
}

function keyed(pet: NewPet, key: string): IdempotencyRecord {
  return { key, fingerprint: fingerprintNewPet(pet) };
}

async function versionOf(path: string): Promise<number> {
  return (await readFile(path)).readUInt32LE(8);
}

describe('FileStorage idempotency keys', () => {
  test('createFileStorage() reads a format version 1 journal and keeps its header until the first keyed record, which raises it to version 2 once', async () => {
    const path = await journalPath();
    await writeFile(path, Buffer.concat([encodeHeader(1), petRecord(1), petRecord(2)]));
    const headerWrites: number[] = [];
    const fileSystem = hookedFileSystem((operation, target, data) => {
      if (operation === 'write' && target === path && data?.subarray(0, 8).toString('latin1') === 'PETSTORE') headerWrites.push(data.readUInt32LE(8));
    });
    const storage = await createFileStorage(path, { fileSystem, log: () => undefined });
    assert.deepEqual(await allPets(storage), [{ ...freezePet(1, samplePet(1)) }, { ...freezePet(2, samplePet(2)) }]);
    await storage.insert(samplePet(3));
    assert.equal(await versionOf(path), 1, 'a create without a key leaves a version 1 journal readable by the build before');
    const insertOnce = insertOnceOf(storage);
    const pet = samplePet(4);
    const results = await Promise.all([insertOnce(pet, keyed(pet, 'k1')), insertOnce(pet, keyed(pet, 'k2')), insertOnce(pet, keyed(pet, 'k1'))]);
    assert.deepEqual(results.map((result) => [result.pet.id, result.isReplay]), [[4, false], [5, false], [4, true]]);
    assert.deepEqual(headerWrites, [2], 'one header write, shared by the concurrent creates');
    assert.equal(await versionOf(path), 2);
    await storage.close();
    const reopened = await createFileStorage(path, { log: () => undefined });
    assert.deepEqual((await allPets(reopened)).map((stored) => stored.id), [1, 2, 3, 4, 5]);
    assert.deepEqual({ ...(await insertOnceOf(reopened)(pet, keyed(pet, 'k2'))).pet }, { ...results[1]?.pet });
    await reopened.close();
  });

  test('createFileStorage() replays a journal of plain, keyed and reservation records in order', async () => {
    const path = await journalPath();
    const pet = samplePet(2);
    await writeJournal(path, [petRecord(1), encodeKeyedPetRecord(freezePet(2, pet), keyed(pet, 'k')), encodeReserveRecord(9), petRecord(10)]);
    const storage = await createFileStorage(path, { log: () => undefined });
    assert.deepEqual((await allPets(storage)).map((stored) => stored.id), [1, 2, 10]);
    const replay = await insertOnceOf(storage)(pet, keyed(pet, 'k'));
    assert.deepEqual({ id: replay.pet.id, isReplay: replay.isReplay, fingerprint: replay.fingerprint }, { id: 2, isReplay: true, fingerprint: fingerprintNewPet(pet) });
    assert.equal((await insertOnceOf(storage)(pet, keyed(pet, 'other'))).pet.id, 11);
    await storage.close();
  });

  test('insertOnce() answers `unavailable` when raising the header fails, and the next keyed create raises it', async () => {
    const path = await journalPath();
    await writeFile(path, Buffer.concat([encodeHeader(1), petRecord(1)]));
    let isFailing = true;
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target, data) => {
        if (isFailing && operation === 'write' && target === path && data?.length === HEADER_SIZE) throw fsError('EIO');
      }),
    });
    const pet = samplePet(2);
    await rejection(() => insertOnceOf(storage)(pet, keyed(pet, 'k')), 'unavailable', /raising data file .* to format version 2 failed: EIO/);
    assert.equal(await versionOf(path), 1);
    isFailing = false;
    assert.deepEqual((await insertOnceOf(storage)(pet, keyed(pet, 'k'))).isReplay, false);
    assert.equal(await versionOf(path), 2);
    await storage.close();
  });

  test('insertOnce() lets a create waiting on a failed create of the same key try on its own', async () => {
    const path = await journalPath();
    let failures = 1;
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target, data) => {
        if (failures > 0 && operation === 'write' && target === path && data !== undefined && data.length > HEADER_SIZE && data.length < 1000) {
          failures--;
          throw fsError('EIO');
        }
      }),
    });
    const pet = samplePet(1);
    const [first, second] = await Promise.allSettled([insertOnceOf(storage)(pet, keyed(pet, 'k')), insertOnceOf(storage)(pet, keyed(pet, 'k'))]);
    assert.equal(first.status, 'rejected');
    assert.equal(second.status === 'fulfilled' && second.value.isReplay, false);
    assert.equal((await allPets(storage)).length, 1);
    await storage.close();
  });

  test('insertOnce() refuses a pet whose record with the key would not fit, without using up an id, and refuses once closed', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path, { log: () => undefined });
    const pet: NewPet = { name: 'x'.repeat(MAX_NAME_BYTES - 100), categoryId: 1 };
    await rejection(() => insertOnceOf(storage)(pet, keyed(pet, 'k')), 'validation_failed', /needs \d+ bytes, more than a record's 4096/);
    assert.equal((await insertOnceOf(storage)(samplePet(1), keyed(samplePet(1), 'k'))).pet.id, 1);
    await storage.close();
    await rejection(() => insertOnceOf(storage)(samplePet(2), keyed(samplePet(2), 'k2')), 'unavailable', /the storage is closed/);
  });
});
