import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { createFileStorage, nodeFileSystem } from '../../../extras/file-storage/index.js';
import { assertError, call } from '../../support/http.js';
import { jsonLines, runMain, spawnServer } from '../../support/process.js';

const KEY = 'operator-messages-key-0123456789';
const ENV = { PETSTORE_API_KEYS: KEY };

const directory = await mkdtemp(join(tmpdir(), 'petstore-operator-messages-'));
after(() => rm(directory, { recursive: true, force: true }));

/** The pets a data file holds, read by opening it as the server does. */
async function petsIn(dataFile: string): Promise<string[]> {
  const storage = await createFileStorage(dataFile, { log: () => undefined });
  try {
    return (await storage.list({ status: undefined, after: 0, limit: 100 })).map((pet) => pet.name);
  } finally {
    await storage.close();
  }
}

describe('the operator\'s messages', () => {
  test('GET /metrics with metrics off is a 404 not_found that says how to turn them on (--metrics or PETSTORE_METRICS)', async () => {
    const server = spawnServer(ENV);
    try {
      await server.ready;
      const reply = await call(server, 'GET', '/metrics');
      assertError(reply, 404, 'not_found', /--metrics.*PETSTORE_METRICS/);
      assert.doesNotMatch(String((reply.json as { message: string }).message), /lives under/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('the Server listening event logs the port bound, 80 included, which the URL leaves out', async (context) => {
    const run = spawnServer(ENV, ['--port', '80', '--host', '127.0.0.1']);
    run.ready.catch(() => undefined);
    const outcome = await Promise.race([run.ready.then(() => 'listening'), run.exited.then(() => 'exited')]);
    if (outcome === 'exited') return context.skip(`port 80 cannot be bound here: ${run.stderr()}`);
    try {
      await run.waitForStderr(/"msg":"Server listening"/);
      const event = jsonLines(run.stderr()).find((line) => line['msg'] === 'Server listening');
      assert.equal(event?.['url'], 'http://127.0.0.1:80/v1');
      assert.equal(event?.['port'], 80);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });

  test('a data file whose lock file cannot be created is refused naming the lock file and what to do, not "creating a file"', async () => {
    const dataFile = join(directory, 'read-only', 'pets.journal');
    // The directory refuses new files, as a read-only one does for a user who is not root.
    const refusing = {
      ...nodeFileSystem,
      writeNewFile: () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })),
    };
    await assert.rejects(createFileStorage(dataFile, { fileSystem: refusing, log: () => undefined }), (error: unknown) => {
      assert.ok(error instanceof PetstoreError);
      assert.equal(error.code, 'unavailable');
      assert.equal(error.message, `Cannot open data file ${dataFile}: its lock file ${dataFile}.lock cannot be created in ${join(directory, 'read-only')} `
        + '(EACCES: this user may not create files in it). The lock keeps a second server off the data file, so '
        + `${join(directory, 'read-only')} must exist and let this user create files in it, even when the data file is already there: `
        + 'make it so, or keep the data file in a directory that does.');
      return true;
    });
  });

  test('a data file this user may not write is refused saying the server appends to it and to give this user read and write permission', async () => {
    const dataFile = join(directory, 'not-writable.journal');
    const refusing = {
      ...nodeFileSystem,
      open: (path: string, flags: string) => (path === dataFile && flags === 'r+'
        ? Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${dataFile}'`), { code: 'EACCES' }))
        : nodeFileSystem.open(path, flags)),
    };
    await assert.rejects(createFileStorage(dataFile, { fileSystem: refusing, log: () => undefined }), {
      message: `Cannot open data file ${dataFile}: opening it failed: EACCES: permission denied, open '${dataFile}'; `
        + 'the server reads and appends to the file, so give this user read and write permission on it',
    });
  });

  test('a damaged data file\'s startup error suggests, verbatim, a repair that keeps every intact record (10 of 11 pets with 30 damaged bytes)', { timeout: 120_000 }, async () => {
    const dataFile = join(directory, 'damaged.journal');
    const storage = await createFileStorage(dataFile, { log: () => undefined });
    const names = Array.from({ length: 11 }, (_, index) => `Pet ${String(index + 1).padStart(2, '0')}`);
    for (const name of names) await storage.insert({ name, categoryId: 1 });
    await storage.close();
    // Every record here is 8 bytes of frame, 18 of fields and its 6-byte name: damage 30 bytes inside the sixth.
    const recordSize = 8 + 18 + 'Pet 01'.length;
    const sixth = 16 + 5 * recordSize;
    const bytes = await readFile(dataFile);
    for (let offset = sixth + 1; offset <= sixth + 30; offset++) bytes[offset] = (bytes[offset] ?? 0) ^ 0xa5;
    await writeFile(dataFile, bytes);

    const refused = await runMain({ ...ENV, PETSTORE_DATA: dataFile });
    assert.equal(refused.code, 2, refused.stderr);
    const suggested = /`petstore-reference (repair [^`]+)`/.exec(refused.stderr)?.[1];
    assert.ok(suggested !== undefined, refused.stderr);
    const repaired = await runMain({}, suggested.split(' '));
    assert.equal(repaired.code, 0, repaired.stderr);
    assert.deepEqual(await petsIn(dataFile), names.filter((_, index) => index !== 5), repaired.stdout);
  });
});
