import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { describe, test } from 'node:test';
import { createFileStorage, repairFile } from '../../../extras/file-storage/index.js';
import { encodeHeader, encodePetRecord, encodeReserveRecord, FRAME_HEADER_SIZE, HEADER_SIZE } from '../../../extras/file-storage/journal-format.js';
import { freezePet } from '../../../lib/validate.js';
import type { Pet, PetStorage } from '../../../lib/index.js';
import { fsError, hookedFileSystem, journalPath, literally, rejection, samplePet } from './fixtures.js';

/** A closed journal with `count` pets, and each record's byte offset. */
async function journalWith(path: string, count: number): Promise<{ pets: Pet[]; offsets: number[] }> {
  const storage = await createFileStorage(path);
  const pets: Pet[] = [];
  const offsets: number[] = [];
  let offset = HEADER_SIZE;
  for (let index = 1; index <= count; index++) {
    const pet = await storage.insert(samplePet(index));
    pets.push(pet);
    offsets.push(offset);
    offset += encodePetRecord(pet).length;
  }
  await storage.close();
  return { pets, offsets };
}

async function allPets(storage: PetStorage): Promise<Pet[]> {
  return (await storage.list({ status: undefined, after: 0, limit: 1000 })).map((pet) => ({ ...pet }));
}

async function flipByte(path: string, offset: number): Promise<void> {
  const bytes = await readFile(path);
  bytes[offset] = (bytes[offset] as number) ^ 0x5a;
  await writeFile(path, bytes);
}

describe('repairFile()', () => {
  test('repairFile() backs up a journal corrupt in the middle, cuts it at the bad record, and reserves the dropped ids', async () => {
    const path = await journalPath();
    const { pets, offsets } = await journalWith(path, 6);
    const bad = offsets[2] as number;
    await flipByte(path, bad + 12);
    const damaged = await readFile(path);
    await rejection(() => createFileStorage(path), 'unavailable', literally(`corrupt at byte offset ${bad}`));

    const report = await repairFile(path);
    assert.equal(report.path, path);
    assert.equal(report.cutAt, bad);
    assert.equal(report.reason, 'record checksum mismatch');
    assert.equal(report.removedBytes, damaged.length - bad);
    assert.equal(report.pets, 2);
    assert.equal(report.reservedId, 6);
    assert.ok(report.backupPath !== undefined);
    assert.equal(dirname(report.backupPath), dirname(path));
    assert.match(basename(report.backupPath), /^pets\.journal\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.bak$/);
    assert.deepEqual(await readFile(report.backupPath), damaged, 'the backup is the file as it was');

    const storage = await createFileStorage(path, { log: () => assert.fail('nothing to report after a repair') });
    assert.deepEqual(
      (await storage.list({ status: undefined, after: 0, limit: 100 })).map((pet) => ({ ...pet })),
      pets.slice(0, 2).map((pet) => ({ ...pet })),
    );
    assert.equal((await storage.insert(samplePet(7))).id, 7, 'ids of dropped pets are never handed out again');
    await storage.close();
    assert.equal((await repairFile(path)).cutAt, undefined, 'the repaired journal is healthy');
  });

  test('repairFile() leaves a healthy journal alone and makes no backup', async () => {
    const path = await journalPath();
    await journalWith(path, 3);
    const before = await readFile(path);
    const healthy = {
      path, backupPath: undefined, cutAt: undefined, reason: undefined, removedBytes: 0, pets: 3, reservedId: undefined, salvagedPets: 0, droppedPath: undefined,
    };
    assert.deepEqual(await repairFile(path), healthy);
    assert.deepEqual(await repairFile(path, { salvage: true }), healthy);
    assert.deepEqual(await readFile(path), before);
    assert.deepEqual((await readdir(dirname(path))).sort(), ['pets.journal']);
  });

  test('repairFile() cuts a torn tail without reserving ids, since no intact record is dropped', async () => {
    const path = await journalPath();
    await journalWith(path, 2);
    const size = (await stat(path)).size;
    await appendFile(path, Buffer.from([0x20, 0, 0, 0, 9]));
    const report = await repairFile(path);
    assert.equal(report.cutAt, size);
    assert.equal(report.reservedId, undefined);
    assert.equal((await stat(path)).size, size);
    const storage = await createFileStorage(path, { log: () => assert.fail('nothing left to cut') });
    assert.equal((await storage.insert(samplePet(3))).id, 3);
    await storage.close();
  });

  test('repairFile() refuses a file that is not a journal, a missing file, and a journal held open', async () => {
    const path = await journalPath();
    await writeFile(path, 'not a journal at all');
    await rejection(() => repairFile(path), 'unavailable', /not a petstore data file/);
    await rejection(() => repairFile(`${path}.missing`), 'unavailable', /opening it failed: ENOENT/);
    const other = await journalPath();
    const storage = await createFileStorage(other);
    await rejection(() => repairFile(other), 'unavailable', /is in use/);
    await storage.close();
  });

  test('repairFile() reports a failed backup and leaves the journal as it was', async () => {
    const path = await journalPath();
    const { offsets } = await journalWith(path, 3);
    await flipByte(path, (offsets[1] as number) + 10);
    const before = await readFile(path);
    const fileSystem = hookedFileSystem((operation) => {
      if (operation === 'copyNewFile') throw fsError('ENOSPC');
    });
    await rejection(() => repairFile(path, { fileSystem }), 'unavailable', literally(`Cannot repair data file ${path}: copying it to ${path}.`), /ENOSPC/);
    assert.deepEqual(await readFile(path), before);
  });

  test('repairFile() reports a failed reservation write', async () => {
    const path = await journalPath();
    const { offsets } = await journalWith(path, 3);
    await flipByte(path, (offsets[0] as number) + 10);
    const fileSystem = hookedFileSystem(() => undefined);
    const open = fileSystem.open;
    fileSystem.open = async (target, flags) => {
      const file = await open(target, flags);
      return target === path ? { ...file, write: async () => 1 } : file;
    };
    await rejection(() => repairFile(path, { fileSystem, log: () => undefined }), 'unavailable', /reserving id 3 failed: short write/);
  });

  test('repairFile() with salvage keeps every intact record after a damaged middle record, with its id, and writes what it dropped to a side file', async () => {
    const path = await journalPath();
    const { pets, offsets } = await journalWith(path, 6);
    const bad = offsets[2] as number;
    const badEnd = offsets[3] as number;
    await flipByte(path, bad + FRAME_HEADER_SIZE + 20);
    const damaged = await readFile(path);

    const report = await repairFile(path, { salvage: true });
    assert.ok(report.backupPath !== undefined && report.droppedPath !== undefined);
    assert.deepEqual(report, {
      path, backupPath: report.backupPath, cutAt: bad, reason: 'record checksum mismatch', removedBytes: badEnd - bad, pets: 5, reservedId: undefined,
      salvagedPets: 3, droppedPath: report.droppedPath,
    });
    assert.match(basename(report.droppedPath), /^pets\.journal\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.dropped$/);
    assert.deepEqual(await readFile(report.droppedPath), damaged.subarray(bad, badEnd), 'the side file holds the dropped bytes');
    assert.deepEqual(await readFile(report.backupPath), damaged, 'the backup is the file as it was');
    assert.deepEqual((await readdir(dirname(path))).filter((name) => name.endsWith('.salvaging')), [], 'no draft is left behind');

    const storage = await createFileStorage(path, { log: () => assert.fail('nothing to report after a salvage') });
    assert.deepEqual(await allPets(storage), [pets[0], pets[1], pets[3], pets[4], pets[5]].map((pet) => ({ ...pet })));
    assert.equal((await storage.insert(samplePet(7))).id, 7);
    await storage.close();
  });

  test('repairFile() with salvage drops damage in several places and a pet whose id does not increase, and reserves the id of a damaged final record', async () => {
    const path = await journalPath();
    const record = (id: number): Buffer => encodePetRecord(freezePet(id, samplePet(id)));
    const garbage = Buffer.from([9, 9, 9, 9, 9]);
    const duplicate = record(2);
    const lastDamaged = record(7);
    lastDamaged[FRAME_HEADER_SIZE + 20] = (lastDamaged[FRAME_HEADER_SIZE + 20] as number) ^ 0x5a;
    const reservation = encodeReserveRecord(3);
    await writeFile(path, Buffer.concat([encodeHeader(), record(1), record(2), garbage, reservation, record(4), duplicate, record(6), lastDamaged]));
    await rejection(() => createFileStorage(path), 'unavailable', /corrupt at byte offset/);

    const report = await repairFile(path, { salvage: true });
    assert.equal(report.pets, 4);
    assert.equal(report.salvagedPets, 2);
    assert.equal(report.cutAt, HEADER_SIZE + record(1).length + record(2).length);
    assert.equal(report.removedBytes, garbage.length + duplicate.length + lastDamaged.length);
    assert.equal(report.reservedId, 7, 'the damaged final record may be an acknowledged pet 7');
    assert.deepEqual(await readFile(report.droppedPath ?? ''), Buffer.concat([garbage, duplicate, lastDamaged]));

    const storage = await createFileStorage(path, { log: () => assert.fail('nothing to report after a salvage') });
    assert.deepEqual((await allPets(storage)).map((pet) => pet.id), [1, 2, 4, 6]);
    assert.deepEqual({ ...(await storage.get(6)) }, { ...freezePet(6, samplePet(6)) });
    assert.equal((await storage.insert(samplePet(8))).id, 8);
    await storage.close();
  });

  test('repairFile() with salvage reserves a margin after a damaged final record whose id cannot be read', async () => {
    const path = await journalPath();
    const record = (id: number): Buffer => encodePetRecord(freezePet(id, samplePet(id)));
    const unreadable = record(3);
    unreadable.writeDoubleLE(2.5, FRAME_HEADER_SIZE + 2);
    const damagedMiddle = record(2);
    damagedMiddle[FRAME_HEADER_SIZE + 20] = (damagedMiddle[FRAME_HEADER_SIZE + 20] as number) ^ 0x5a;
    await writeFile(path, Buffer.concat([encodeHeader(), record(1), damagedMiddle, record(4), unreadable]));
    const report = await repairFile(path, { salvage: true });
    assert.equal(report.reservedId, 1_000_004);
    assert.equal(report.pets, 2);
  });

  test('repairFile() with salvage reports a failure writing the salvaged journal and leaves the journal as it was', async () => {
    const path = await journalPath();
    const { offsets } = await journalWith(path, 3);
    await flipByte(path, (offsets[1] as number) + 10);
    const before = await readFile(path);
    const fileSystem = hookedFileSystem((operation, target) => {
      if (operation === 'write' && target.endsWith('.salvaging')) throw fsError('ENOSPC');
    });
    await rejection(() => repairFile(path, { fileSystem, salvage: true }), 'unavailable', literally(`Cannot repair data file ${path}: writing the salvaged journal to ${path}.salvaging`), /ENOSPC/);
    assert.deepEqual(await readFile(path), before);
  });
});
