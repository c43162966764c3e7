import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { CLIENTS, DELAY, drainUnderLoad } from '../../support/drain-under-load.js';

describe('close({ delay }) under load over the file storage', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-drain-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test(`close({ delay: ${DELAY} }) with ${CLIENTS} clients creating and listing: /readyz fails at once, requests keep succeeding during the delay, none is lost, and every acknowledged create is stored`, async () => {
    const dataFile = join(directory, 'pets.journal');
    await drainUnderLoad(await createFileStorage(dataFile, { durability: 'write' }), () => createFileStorage(dataFile));
  });
});
