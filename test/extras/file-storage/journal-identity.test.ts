import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { copyFile, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { describe, test } from 'node:test';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { lockDescriptor } from '../../../extras/file-storage/descriptor-lock.js';
import { nodeFileSystem } from '../../../extras/file-storage/file-system.js';
import type { StorageFileSystem } from '../../../extras/file-storage/file-system.js';
import { fsError, hookedFileSystem, journalPath, literally, logLines, rejection, samplePet } from './fixtures.js';

const REPLACED = /^Cannot create pet: the server's data file was replaced, moved or removed on disk while the server had it open, so the pet was not stored\. Creates stay refused until an operator restarts the server/;

async function identityOf(path: string): Promise<string> {
  const stats = await stat(path, { bigint: true });
  return `${stats.dev}:${stats.ino}`;
}

describe('lockDescriptor()', () => {
  test('lockDescriptor() takes the lock on an open file, and a second open description of the same file finds it busy until the first is closed', async () => {
    const path = await journalPath();
    const first = openSync(path, 'w');
    const second = openSync(path, 'r');
    try {
      assert.deepEqual(await lockDescriptor(first), { state: 'taken' });
      assert.deepEqual(await lockDescriptor(second), { state: 'busy' });
      closeSync(first);
      assert.deepEqual(await lockDescriptor(second), { state: 'taken' });
    } finally {
      closeSync(second);
    }
  });

  test('lockDescriptor() answers unsupported, saying why only where that is unexpected: another platform, no flock program, a program that cannot run or fails', async () => {
    const path = await journalPath();
    const fd = openSync(path, 'w');
    try {
      assert.deepEqual(await lockDescriptor(fd, { platform: 'darwin' }), { state: 'unsupported', reason: '' });
      assert.deepEqual(await lockDescriptor(fd, { program: 'petstore-no-such-flock' }), { state: 'unsupported', reason: '' });
      const directory = dirname(path);
      const notRunnable = await lockDescriptor(fd, { program: directory });
      assert.equal(notRunnable.state, 'unsupported');
      assert.match(notRunnable.state === 'unsupported' ? notRunnable.reason : '', literally(`${directory} could not run: `));
      assert.deepEqual(await lockDescriptor(fd, { program: 'false' }), { state: 'unsupported', reason: 'false failed (exit status 1)' });
      assert.deepEqual(await lockDescriptor(2 ** 20, {}), { state: 'unsupported', reason: 'flock could not run: spawn EBADF' }, 'a descriptor that is not open is refused before flock runs');
    } finally {
      closeSync(fd);
    }
  });

  test('createFileStorage() says when the file itself cannot be locked for an unexpected reason, and runs on its lock file', async () => {
    const path = await journalPath();
    const { lines, log } = logLines();
    const fileSystem: StorageFileSystem = {
      ...nodeFileSystem,
      open: async (target, flags) => ({ ...await nodeFileSystem.open(target, flags), lock: async () => ({ state: 'unsupported', reason: 'flock failed (exit status 1: flock: 3: Operation not supported)' }) }),
    };
    const storage = await createFileStorage(path, { log, fileSystem });
    assert.deepEqual(lines, [`petstore: cannot lock data file ${path} itself (flock failed (exit status 1: flock: 3: Operation not supported)); its lock file alone keeps a second server off it`]);
    assert.equal((await storage.insert(samplePet(1))).id, 1);
    await storage.close();
  });
});

describe('FileStorage whose journal is replaced under it', () => {
  test('insert() after a copy is renamed over the journal answers 503, logs once with both identities, keeps what it wrote beside the journal, and the next open refuses until the copy is moved back', async () => {
    const path = await journalPath();
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log });
    const kept = [await storage.insert(samplePet(1)), await storage.insert(samplePet(2))];
    const held = await identityOf(path);
    await copyFile(path, `${path}.copy`);
    await rename(`${path}.copy`, path);
    const now = await identityOf(path);
    await rejection(() => storage.insert(samplePet(3)), 'unavailable', REPLACED);
    await rejection(() => storage.checkReady(), 'unavailable', literally(`Data file ${path} was replaced while this server had it open: the path now names file ${now} (device:inode), not file ${held} that this server writes`));
    await rejection(() => storage.insert(samplePet(4)), 'unavailable', REPLACED);
    await storage.close();
    const orphan = `${path}.orphaned-${held.slice(held.indexOf(':') + 1)}`;
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0] as string, literally(`file ${now} (device:inode), not file ${held}`));
    assert.match(lines[0] as string, literally(`is kept in ${orphan};`));
    assert.match(lines[0] as string, /Creates answer 503 from now on; reads still answer\.$/);
    await rejection(() => createFileStorage(path, { log: () => undefined }), 'unavailable', literally(`Cannot open data file ${path}: ${orphan} holds what a server wrote`), literally(`\`mv ${orphan} ${path}\``));
    assert.equal(await readFile(`${path}.lock`).catch(() => 'released'), 'released', 'a refused open releases its lock file');
    await rename(orphan, path);
    const reopened = await createFileStorage(path, { log: () => undefined });
    assert.deepEqual(await reopened.list({ limit: 10, status: undefined, after: 0 }), kept);
    assert.equal((await reopened.insert(samplePet(5))).id, 3);
    await reopened.close();
  });

  test('close() finds a journal removed since the last create, keeps what was written, and logs it once', async () => {
    const path = await journalPath();
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log, durability: 'write' });
    await storage.insert(samplePet(1));
    const held = await identityOf(path);
    const content = await readFile(path);
    await unlink(path);
    await storage.close();
    assert.equal(lines.length, 1);
    assert.match(lines[0] as string, literally(`Data file ${path} was removed or moved away while this server had it open: the path names no file now, and this server writes file ${held} (device:inode)`));
    assert.deepEqual(await readFile(`${path}.orphaned-${held.slice(held.indexOf(':') + 1)}`), content);
  });

  test('insert() after the journal is replaced says where the written records are when keeping a copy of them fails', async () => {
    const path = await journalPath();
    const { lines, log } = logLines();
    const fileSystem: StorageFileSystem = {
      ...nodeFileSystem,
      open: async (target, flags) => {
        if (target.includes('.orphaned-')) throw fsError('ENOSPC');
        return nodeFileSystem.open(target, flags);
      },
    };
    const storage = await createFileStorage(path, { log, fileSystem });
    await storage.insert(samplePet(1));
    await unlink(path);
    await rejection(() => storage.insert(samplePet(2)), 'unavailable', REPLACED);
    assert.equal(lines.length, 1);
    assert.match(lines[0] as string, /Keeping a copy of what this server wrote in .*\.orphaned-\d+ failed \(ENOSPC: simulated failure\): the pets it acknowledged are only in the file it holds open/);
    assert.match(lines[0] as string, literally(`/proc/${process.pid}/fd`));
    await storage.close();
    assert.deepEqual((await readdir(dirname(path))).filter((name) => name.includes('.orphaned-')), []);
  });

  test('insert() goes on when the journal\'s path cannot be checked for a reason other than ENOENT, which proves nothing', async () => {
    const path = await journalPath();
    let isFailing = false;
    const storage = await createFileStorage(path, {
      log: () => undefined,
      fileSystem: hookedFileSystem((operation, target) => {
        if (isFailing && operation === 'stat' && target === path) throw fsError('EIO');
      }),
    });
    isFailing = true;
    assert.equal((await storage.insert(samplePet(1))).id, 1);
    await storage.checkReady();
    await storage.close();
  });

  test('createFileStorage() opens when the directory cannot be listed for copies of a replaced journal, and does not look without listDirectory', async () => {
    const path = await journalPath();
    await (await createFileStorage(path, { log: () => undefined })).close();
    await copyFile(path, `${path}.orphaned-1`);
    const unlisted: StorageFileSystem = { ...nodeFileSystem, listDirectory: async () => Promise.reject(fsError('EACCES')) };
    await (await createFileStorage(path, { log: () => undefined, fileSystem: unlisted })).close();
    const { listDirectory: _unused, ...withoutListing } = nodeFileSystem;
    await (await createFileStorage(path, { log: () => undefined, fileSystem: withoutListing })).close();
    await rejection(() => createFileStorage(path, { log: () => undefined }), 'unavailable', literally(`${basename(path)}.orphaned-1 holds what a server wrote`));
  });
});
