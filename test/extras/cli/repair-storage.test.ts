import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { openStorage } from '../../../extras/cli/open-storage.js';
import { repairStorage } from '../../../extras/cli/repair-storage.js';

const directory = await mkdtemp(join(tmpdir(), 'petstore-repair-storage-'));
after(() => rm(directory, { recursive: true, force: true }));

test('openStorage() opens the durable file storage when PETSTORE_DATA is set', async () => {
  const dataFile = join(directory, 'open.journal');
  const storage = await openStorage({ dataFile, log: () => undefined });
  const pet = await storage.insert({ name: 'Kept', categoryId: 1 });
  await storage.close?.();
  const reopened = await openStorage({ dataFile, log: () => undefined });
  assert.deepEqual({ ...(await reopened.get(pet.id)) }, { id: 1, name: 'Kept', categoryId: 1 });
  await reopened.close?.();
});

test('repairStorage() says when the data file needs no repair', async () => {
  const dataFile = join(directory, 'healthy.journal');
  const storage = await createFileStorage(dataFile);
  await storage.insert({ name: 'Fine', categoryId: 1 });
  await storage.close();
  assert.equal(await repairStorage({ dataFile, log: () => undefined }), `${dataFile}: no damage found, nothing changed (1 pets)`);
  await stat(dataFile);
});

test('repairStorage() reports a cut without reserved ids for a torn tail', async () => {
  const dataFile = join(directory, 'torn.journal');
  const storage = await createFileStorage(dataFile);
  await storage.insert({ name: 'Whole', categoryId: 1 });
  await storage.close();
  const size = (await stat(dataFile)).size;
  await appendFile(dataFile, Buffer.from([1, 2, 3]));
  const line = await repairStorage({ dataFile, log: () => undefined });
  assert.match(line, new RegExp(`: cut at byte offset ${size} \\(the record needs 8 bytes, but the file ends after 3\\), removing 3 bytes; 1 pets kept; the file as it was is in .*\\.bak$`));
});

test('repairStorage() with salvage says how many pets it kept after the damage and where the dropped bytes went', async () => {
  const dataFile = join(directory, 'salvage.journal');
  const storage = await createFileStorage(dataFile);
  for (const name of ['One', 'Two', 'Three']) await storage.insert({ name, categoryId: 1 });
  await storage.close();
  const bytes = await readFile(dataFile);
  const second = 16 + 8 + 18 + 'One'.length;
  bytes[second + 20] = (bytes[second + 20] ?? 0) ^ 0x5a;
  await writeFile(dataFile, bytes);
  const line = await repairStorage({ dataFile, salvage: true, log: () => undefined });
  assert.match(line, new RegExp(`^${dataFile.replace(/[.*+?^$\\{}()|[\]\\]/g, '\\$&')}: salvaged from the first damage at byte offset ${second} \\(record checksum mismatch\\): `
    + '2 pets kept, 1 of them after the damage; 29 bytes dropped, kept in .*\\.dropped; the file as it was is in .*\\.bak$'));
  const reopened = await createFileStorage(dataFile, { log: () => undefined });
  assert.equal((await reopened.get(3))?.name, 'Three');
  await reopened.close();
});
