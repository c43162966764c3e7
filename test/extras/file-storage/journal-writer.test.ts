import assert from 'node:assert/strict';
import { unlinkSync } from 'node:fs';
import { appendFile, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { Pet, PetStorage } from '../../../lib/index.js';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import type { Durability } from '../../../extras/file-storage/index.js';
import { nodeFileSystem } from '../../../extras/file-storage/file-system.js';
import type { StorageFileSystem } from '../../../extras/file-storage/file-system.js';
import { encodePetRecord, HEADER_SIZE } from '../../../extras/file-storage/journal-format.js';
import { PROBE_BYTE, PROBE_SIZE } from '../../../extras/file-storage/journal-writer.js';
import { fsError, fullDisk, hookedFileSystem, journalPath, literally, logLines, rejection, samplePet, withoutFileLock } from './fixtures.js';

async function allPets(storage: PetStorage): Promise<Pet[]> {
  return (await storage.list({ status: undefined, after: 0, limit: 1_000_000 })).map((pet) => ({ ...pet }));
}

/** The journal's size with exactly these pets in it. */
function journalSize(pets: readonly Pet[]): number {
  return pets.reduce((size, pet) => size + encodePetRecord(pet).length, HEADER_SIZE);
}

function assertIncreasing(pets: readonly Pet[]): void {
  for (let index = 1; index < pets.length; index++) {
    assert.ok((pets[index] as Pet).id > (pets[index - 1] as Pet).id, `id ${(pets[index] as Pet).id} follows ${(pets[index - 1] as Pet).id}`);
  }
}

/** Reopens the journal and checks it holds exactly `pets`, with nothing to cut. */
async function assertReopensWith(path: string, pets: readonly Pet[]): Promise<void> {
  const reopened = await createFileStorage(path, { log: (line) => assert.fail(`nothing to report on reopen, got: ${line}`) });
  assert.deepEqual(await allPets(reopened), pets.map((pet) => ({ ...pet })));
  await reopened.close();
}

describe('FileStorage after a failed write', () => {
  for (const durability of ['fsync', 'write'] as const satisfies readonly Durability[]) {
    test(`insert() and checkReady() on a full disk (${durability} mode) answer 503 while it is full, and recover by themselves once space is freed`, async () => {
      const path = await journalPath();
      const disk = fullDisk(path);
      const { lines, log } = logLines();
      const storage = await createFileStorage(path, { durability, log, fileSystem: disk.fileSystem });
      const acknowledged = [await storage.insert(samplePet(1)), await storage.insert(samplePet(2))];
      disk.room = 30;
      const error = await rejection(() => storage.insert(samplePet(3)), 'unavailable', /refused the write \(ENOSPC\), so the pet was not stored/, /resumes by itself/);
      assert.equal(error.status, 503);
      assert.doesNotMatch(error.message, literally(path), 'the client is not told server paths');
      for (let index = 4; index < 8; index++) await rejection(() => storage.insert(samplePet(index)), 'unavailable', /ENOSPC/);
      const reason = await rejection(() => storage.checkReady(), 'unavailable', literally(`Data file ${path} refuses writes`), /ENOSPC/, /Free space/, /resumes by itself, without a restart/);
      assert.equal(reason.status, 503);
      assert.equal(lines.length, 1, `one log line for the whole episode, got: ${lines.join('\n')}`);
      assert.match(lines[0] as string, literally(`writing ${path} at byte ${journalSize(acknowledged)} failed (ENOSPC)`));
      assert.deepEqual(await allPets(storage), acknowledged.map((pet) => ({ ...pet })), 'no failed pet is readable');

      disk.room = Infinity;
      await storage.checkReady();
      assert.equal((await stat(path)).size, journalSize(acknowledged), 'the partial record and the test write are cut');
      const after = await storage.insert(samplePet(8));
      assert.equal(after.id, 4, 'id 3 went to the failed create and is skipped; refused creates took no id');
      acknowledged.push(after);
      assert.equal(lines.length, 2);
      assert.match(lines[1] as string, literally(`${path} accepts writes again`));
      assert.match(lines[1] as string, literally('The id 3 given to the failed create stays unused'));
      await storage.checkReady();
      await storage.close();
      assertIncreasing(acknowledged);
      await assertReopensWith(path, acknowledged);
    });
  }

  test('insert() that fails again right after a recovery stays in the same episode: one line for the failure, one for the end', async () => {
    const path = await journalPath();
    const disk = fullDisk(path);
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log, fileSystem: disk.fileSystem });
    const acknowledged = [await storage.insert(samplePet(1))];
    disk.room = 0;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', /ENOSPC/);
    disk.room = PROBE_SIZE + 10;
    await rejection(() => storage.insert(samplePet(3)), 'unavailable', /ENOSPC/, /not stored/);
    await rejection(() => storage.checkReady(), 'unavailable', /ENOSPC/);
    assert.equal(lines.length, 1, lines.join('\n'));
    disk.room = Infinity;
    acknowledged.push(await storage.insert(samplePet(4)));
    assert.equal(acknowledged[1]?.id, 4);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[1] as string, literally('The ids 2 to 3 given to the failed creates stay unused'));
    await storage.close();
    await assertReopensWith(path, acknowledged);
  });

  test('insert() itself recovers once space is freed, without a checkReady() in between', async () => {
    const path = await journalPath();
    const disk = fullDisk(path);
    const storage = await createFileStorage(path, { log: () => undefined, fileSystem: disk.fileSystem });
    const acknowledged = [await storage.insert(samplePet(1))];
    disk.room = 0;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', /ENOSPC/);
    await rejection(() => storage.insert(samplePet(3)), 'unavailable', /ENOSPC/);
    disk.room = Infinity;
    acknowledged.push(await storage.insert(samplePet(4)), await storage.insert(samplePet(5)));
    assert.deepEqual(acknowledged.map((pet) => pet.id), [1, 3, 4]);
    assert.deepEqual(await allPets(storage), acknowledged.map((pet) => ({ ...pet })));
    await storage.close();
    await assertReopensWith(path, acknowledged);
  });

  test('insert() after a failure whose own cut failed cuts the partial record before appending again', async () => {
    const path = await journalPath();
    const disk = fullDisk(path);
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log, fileSystem: disk.fileSystem });
    const acknowledged = [await storage.insert(samplePet(1))];
    disk.room = 25;
    disk.isCutFailing = true;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', /ENOSPC/);
    assert.equal((await stat(path)).size, journalSize(acknowledged) + 25, 'the partial record is still in the file');
    assert.match(lines.join('\n'), /records of the failed batch may reappear if it is reopened before a recovery cuts them/);
    disk.room = Infinity;
    await rejection(() => storage.checkReady(), 'unavailable', /EIO/, /Check the disk/);
    disk.isCutFailing = false;
    acknowledged.push(await storage.insert(samplePet(3)));
    await storage.close();
    assertIncreasing(acknowledged);
    await assertReopensWith(path, acknowledged);
  });

  test('insert() calls waiting for a recovery share one attempt and get unique, increasing ids', async () => {
    const path = await journalPath();
    const disk = fullDisk(path);
    const storage = await createFileStorage(path, { log: () => undefined, fileSystem: disk.fileSystem });
    const first = await storage.insert(samplePet(1));
    disk.room = 0;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable');
    disk.room = Infinity;
    disk.writes.length = 0;
    const waiting = await Promise.all(Array.from({ length: 20 }, (_, index) => storage.insert(samplePet(index + 3))));
    const probes = disk.writes.filter((data) => data.length === PROBE_SIZE && data.every((byte) => byte === PROBE_BYTE));
    assert.equal(probes.length, 1, 'one test write for all twenty waiting creates');
    assert.equal(new Set(waiting.map((pet) => pet.id)).size, 20);
    for (const pet of waiting) assert.ok(pet.id > first.id + 1, `id ${pet.id} is above the skipped id ${first.id + 1}`);
    await storage.close();
    await assertReopensWith(path, [first, ...[...waiting].sort((left, right) => left.id - right.id)]);
  });

  test('checkReady() stays unready while the test write\'s sync fails (EIO), and recovers once it succeeds', async () => {
    const path = await journalPath();
    let isSyncFailing = false;
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target) => {
        if (isSyncFailing && operation === 'datasync' && target === path) throw fsError('EIO');
      }),
    });
    const kept = await storage.insert(samplePet(1));
    isSyncFailing = true;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', /\(EIO\)/);
    for (let attempt = 0; attempt < 3; attempt++) {
      await rejection(() => storage.checkReady(), 'unavailable', literally(`Data file ${path} refuses writes`), /EIO/, /Check the disk and the kernel log/);
    }
    assert.equal((await stat(path)).size, journalSize([kept]), 'failed test writes are cut too');
    isSyncFailing = false;
    await storage.checkReady();
    const next = await storage.insert(samplePet(3));
    assert.equal(next.id, 3);
    await storage.close();
    await assertReopensWith(path, [kept, next]);
  });

  test('createFileStorage() cuts the test write of a recovery that a crash interrupted, keeping every pet', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    const pets = [await storage.insert(samplePet(1)), await storage.insert(samplePet(2))];
    await storage.close();
    for (const length of [PROBE_SIZE, 9, 3]) {
      await appendFile(path, Buffer.alloc(length, PROBE_BYTE));
      const { lines, log } = logLines();
      const reopened = await createFileStorage(path, { log });
      assert.match(lines.join('\n'), literally(`cut off a torn final record at byte offset ${journalSize(pets)}`));
      assert.deepEqual(await allPets(reopened), pets.map((pet) => ({ ...pet })));
      await reopened.close();
    }
  });
});

describe('FileStorage checkReady()', () => {
  test('checkReady() resolves on a healthy storage with a stat of the journal\'s path and no call on the journal itself', async () => {
    const path = await journalPath();
    const operations: string[] = [];
    const storage = await createFileStorage(path, {
      fileSystem: hookedFileSystem((operation, target) => {
        if (target === path) operations.push(operation);
      }),
    });
    await storage.insert(samplePet(1));
    operations.length = 0;
    await storage.checkReady();
    assert.deepEqual(operations, ['stat']);
    await storage.close();
  });

  test('checkReady() rejects once the storage is closed', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    await storage.close();
    await rejection(() => storage.checkReady(), 'unavailable', literally(`Data file ${path} is not ready: the storage is closed`));
  });

  test('checkReady() rejects when the lock file was removed, naming it', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    await unlink(`${path}.lock`);
    await rejection(() => storage.checkReady(), 'unavailable', literally(`The single-writer lock ${path}.lock of data file ${path} was removed`), /restart this one/);
    await storage.close();
  });

  test('checkReady() rejects when another process took the lock, naming its pid', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    await writeFile(`${path}.lock`, `4242\n${'0'.repeat(32)}\n`);
    await rejection(() => storage.checkReady(), 'unavailable', literally(`${path}.lock of data file ${path} now belongs to pid 4242`));
    await storage.close();
    const other = await journalPath();
    const edited = await createFileStorage(other);
    await writeFile(`${other}.lock`, 'edited by hand\n');
    await rejection(() => edited.checkReady(), 'unavailable', /no longer holds this process's pid and token/);
    await edited.close();
  });
});

/** What a displaced writer answers a create with: 503, saying why and what to do, without server paths. */
const DISPLACED = /^Cannot create pet: this server can no longer prove that it alone writes its data file \(its single-writer lock was removed or taken by another process\), so the pet was not stored\. Creates stay refused until the server is restarted/;

describe('FileStorage once its lock is no longer its own', () => {
  test('createFileStorage() refuses a second writer on a journal whose lock file was removed, since the first holds the file itself locked', async () => {
    const path = await journalPath();
    const first = await createFileStorage(path, { log: () => undefined });
    await unlink(`${path}.lock`);
    await rejection(() => createFileStorage(path, { log: () => undefined }), 'unavailable', literally(`Data file ${path} is in use: another process holds the file itself open and locked`));
    await rejection(() => first.insert(samplePet(1)), 'unavailable', DISPLACED);
    await first.close();
    const reopened = await createFileStorage(path, { log: () => undefined });
    await reopened.close();
  });

  test('insert() where the file itself cannot be locked answers 503 once the lock file is removed under a running writer, never overwrites what a second writer then stores, and nothing acknowledged is lost', async () => {
    const path = await journalPath();
    const { lines, log } = logLines();
    const fileSystem = withoutFileLock();
    const first = await createFileStorage(path, { log, fileSystem });
    const acknowledged = [await first.insert(samplePet(1)), await first.insert(samplePet(2))];
    await unlink(`${path}.lock`);
    await rejection(() => first.insert(samplePet(3)), 'unavailable', DISPLACED);
    assert.equal(lines.length, 1);
    assert.match(lines[0] as string, literally(`petstore: The single-writer lock ${path}.lock of data file ${path} was removed`));
    assert.match(lines[0] as string, /Creates answer 503 from now on; reads still answer\.$/);
    const second = await createFileStorage(path, { log: () => undefined, fileSystem });
    acknowledged.push(await second.insert(samplePet(4)), await second.insert(samplePet(5)));
    await rejection(() => first.insert(samplePet(6)), 'unavailable', DISPLACED);
    await rejection(() => first.checkReady(), 'unavailable', literally(`The single-writer lock ${path}.lock of data file ${path} was removed`), /restart this one/);
    assert.deepEqual({ ...(await first.get(2)) }, { ...acknowledged[1] }, 'reads still answer');
    await first.close();
    await second.close();
    assert.deepEqual(acknowledged.map((pet) => pet.id), [1, 2, 3, 4], 'the refused create wrote nothing, so its id is free');
    await assertReopensWith(path, acknowledged);
  });

  test('insert() does not acknowledge a batch whose lock was removed while it was being synced', async () => {
    const path = await journalPath();
    let isArmed = false;
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target) => {
        if (isArmed && operation === 'datasync' && target === path) {
          isArmed = false;
          // At once, before the check beside the sync begins: an asynchronous unlink would race it on the thread pool.
          unlinkSync(`${path}.lock`);
        }
      }),
    });
    const kept = await storage.insert(samplePet(1));
    isArmed = true;
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', DISPLACED);
    assert.equal(await storage.get(2), undefined, 'the refused pet is not served');
    await rejection(() => storage.insert(samplePet(3)), 'unavailable', DISPLACED);
    await rejection(() => storage.checkReady(), 'unavailable', /was removed/);
    await storage.close();
    const reopened = await createFileStorage(path, { log: () => undefined });
    assert.deepEqual({ ...(await reopened.get(1)) }, { ...kept });
    await reopened.close();
  });

  test('insert() answers 503 when the journal is not where this writer left it (another process appended to it), and writes nothing over those bytes', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path, { log: () => undefined });
    await storage.insert(samplePet(1));
    const before = (await stat(path)).size;
    const foreign = encodePetRecord({ id: 2, name: 'written elsewhere', categoryId: 1 });
    await appendFile(path, foreign);
    await rejection(() => storage.insert(samplePet(3)), 'unavailable', DISPLACED);
    await rejection(() => storage.checkReady(), 'unavailable', literally(`Data file ${path} is ${before + foreign.length} bytes long, but this server wrote it up to byte ${before}: another process has written to it or cut it.`));
    await storage.close();
    const reopened = await createFileStorage(path, { log: () => undefined });
    assert.deepEqual({ ...(await reopened.get(2)) }, { id: 2, name: 'written elsewhere', categoryId: 1 });
    await reopened.close();
  });

  test('insert() answers 503 once another process has put its own lock file in the place of this writer\'s, and writes nothing', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path, { log: () => undefined });
    await storage.insert(samplePet(1));
    const size = (await stat(path)).size;
    const content = await readFile(`${path}.lock`, 'utf8');
    await unlink(`${path}.lock`);
    await writeFile(`${path}.lock`, content);
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', DISPLACED);
    await rejection(() => storage.checkReady(), 'unavailable', /was replaced by another file/);
    assert.equal((await stat(path)).size, size, 'nothing written');
    await storage.close();
  });

  test('insert() writes through the calls of a file given as a copy with another write, never around them', async () => {
    const path = await journalPath();
    let writes = 0;
    const fileSystem: StorageFileSystem = {
      ...nodeFileSystem,
      open: async (target, flags) => {
        const file = await nodeFileSystem.open(target, flags);
        return target === path ? { ...file, write: (...args) => (writes++, file.write(...args)) } : file;
      },
    };
    const storage = await createFileStorage(path, { log: () => undefined, fileSystem });
    const before = writes;
    await storage.insert(samplePet(1));
    await storage.close();
    assert.equal(writes, before + 1);
  });

  test('checkReady() that finds the lock gone makes later creates answer 503 too', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path, { log: () => undefined });
    await unlink(`${path}.lock`);
    await rejection(() => storage.checkReady(), 'unavailable', /was removed/);
    await rejection(() => storage.insert(samplePet(1)), 'unavailable', DISPLACED);
    await storage.close();
  });
});
