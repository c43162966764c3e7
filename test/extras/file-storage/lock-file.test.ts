import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { link, mkdir, readFile, rename, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { acquireLock, bootId, isProcessAlive, processStartTime } from '../../../extras/file-storage/lock-file.js';
import { nodeFileSystem } from '../../../extras/file-storage/file-system.js';
import type { StorageFileSystem } from '../../../extras/file-storage/file-system.js';
import type { HeldLock } from '../../../extras/file-storage/lock-file.js';
import { fsError, hookedFileSystem, journalPath, literally, logLines, rejection, samplePet } from './fixtures.js';

const HOLDER = join(import.meta.dirname, 'hold-storage.ts');

/** Starts a child process that opens the journal and holds it; resolves once it has the lock. */
async function holdInChild(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.setEncoding('utf8');
  for await (const chunk of child.stdout ?? []) {
    output += String(chunk);
    if (output.includes('ready')) break;
  }
  assert.match(output, /ready/, 'the child opened the storage');
  return child;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  assert.ok(child.pid !== undefined);
  return child.pid;
}

const TOKEN = '0123456789abcdef0123456789abcdef';

/** A lock file as this build writes it. */
function lockContent(pid: number, startTime: string, boot: string): string {
  return `pid ${pid}\nstart ${startTime}\nboot ${boot}\ntoken ${TOKEN}\n`;
}

/** The start time of a live process and this boot's id, as this system reports them. */
async function identityOf(pid: number): Promise<{ startTime: string; boot: string }> {
  const [startTime, boot] = await Promise.all([processStartTime(nodeFileSystem, pid), bootId(nodeFileSystem)]);
  assert.ok(startTime !== undefined && boot !== undefined, 'this system has /proc');
  return { startTime, boot };
}

const OTHER_BOOT = '00000000-0000-4000-8000-000000000000';

describe('single-writer lock', () => {
  test('createFileStorage() refuses a second open in the same process until the first is closed', async () => {
    const path = await journalPath();
    const first = await createFileStorage(path);
    await rejection(() => createFileStorage(path), 'unavailable', literally(`Data file ${path} is in use: ${path}.lock is held by this process`));
    await first.insert(samplePet(1));
    await first.close();
    const second = await createFileStorage(path);
    assert.equal((await second.get(1))?.id, 1);
    await second.close();
  });

  test('createFileStorage() refuses a second open of one journal whatever path reaches it: the same path, a symbolic link to the file, a symbolically linked directory', async () => {
    const path = await journalPath();
    const directory = dirname(path);
    await mkdir(join(directory, 'real'));
    const real = join(directory, 'real', 'pets.journal');
    await symlink(real, join(directory, 'file-link.journal'));
    await symlink(join(directory, 'real'), join(directory, 'directory-link'));
    const names = [real, join(directory, 'file-link.journal'), join(directory, 'directory-link', 'pets.journal')];
    for (const first of names) {
      const storage = await createFileStorage(first);
      for (const second of names) await rejection(() => createFileStorage(second), 'unavailable', /is in use: .*real\/pets\.journal\.lock is held by this process/);
      await storage.insert(samplePet(1));
      await storage.close();
    }
  });

  test('createFileStorage() refuses a journal with a second name made by a hard link, whichever name it is given, and says how to find the other names', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    const other = join(dirname(path), 'other-name.journal');
    await link(path, other);
    await rejection(() => createFileStorage(other), 'unavailable', literally(`Cannot open data file ${other}: it has 2 names (hard links), so a server started on another of them would take another lock and write the same file. Remove the other names (\`find / -xdev -samefile ${other}\` lists them)`));
    await storage.close();
    await rejection(() => createFileStorage(path), 'unavailable', /it has 2 names \(hard links\)/);
  });

  test('createFileStorage() refuses a journal another process holds through a symbolic link', async () => {
    const path = await journalPath();
    const alias = join(dirname(path), 'alias.journal');
    await createFileStorage(path).then((storage) => storage.close());
    await symlink(path, alias);
    const child = await holdInChild(alias);
    try {
      await rejection(() => createFileStorage(path), 'unavailable', literally(`Data file ${path} is in use: ${path}.lock is held by running process ${child.pid}`));
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  test('createFileStorage() refuses a file another process holds, and takes the lock over once that process is killed with SIGKILL', async () => {
    const path = await journalPath();
    const child = await holdInChild(path);
    await rejection(() => createFileStorage(path), 'unavailable', literally(`is held by running process ${child.pid}. Only one writer may open it`));
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    const { lines, log } = logLines();
    const storage = await createFileStorage(path, { log });
    assert.deepEqual(lines, [`petstore: taking over the stale lock ${path}.lock: no process has pid ${child.pid}`]);
    assert.match(await readFile(`${path}.lock`, 'utf8'), new RegExp(`^pid ${process.pid}\\nstart [0-9]+\\nboot [0-9a-f-]+\\ntoken [0-9a-f]{32}\\n$`));
    await storage.close();
  });

  test('createFileStorage() takes over a lock of a dead pid, of an earlier process with our pid, and one without a valid pid', async () => {
    const dead = await deadPid();
    const cases: [string, RegExp][] = [
      [`${dead}\n${TOKEN}\n`, literally(`no process has pid ${dead}`)],
      [`${process.pid}\n${TOKEN}\n`, literally(`pid ${process.pid} is this process, which does not hold it`)],
      ['', /its content is not a pid and token/],
      ['0\n\n', /its content is not a pid and token/],
    ];
    for (const [content, pattern] of cases) {
      const path = await journalPath();
      await writeFile(`${path}.lock`, content);
      const { lines, log } = logLines();
      const storage = await createFileStorage(path, { log });
      assert.equal(lines.length, 1);
      assert.match(lines[0] as string, pattern);
      await storage.close();
      await assert.rejects(stat(`${path}.lock`), /ENOENT/);
    }
  });

  test('createFileStorage() refuses a second open that raced the first over a stale lock, and the first keeps its lock', async () => {
    const path = await journalPath();
    await writeFile(`${path}.lock`, `${await deadPid()}\n${TOKEN}\n`);
    let isPaused = false;
    let resume: () => void = () => undefined;
    let second: Promise<unknown> = Promise.resolve();
    const paused = new Promise<void>((resolve) => {
      // The second opener has read the stale lock and is about to remove it: hold it there while the first takes the lock over.
      const fileSystem = hookedFileSystem(async (operation, target) => {
        const isRemoving = (operation === 'unlink' && target === `${path}.lock`) || (operation === 'rename' && target.endsWith('.stale'));
        if (isRemoving && !isPaused) {
          isPaused = true;
          resolve();
          await new Promise<void>((proceed) => {
            resume = proceed;
          });
        }
      });
      second = createFileStorage(path, { fileSystem, log: () => undefined });
    });
    await paused;
    const first = await createFileStorage(path, { log: () => undefined });
    resume();
    await rejection(() => second, 'unavailable', literally(`Data file ${path} is in use: ${path}.lock is held by this process`));
    await first.checkReady();
    assert.equal((await first.insert(samplePet(1))).id, 1);
    await first.close();
  });

  test('createFileStorage() takes over a lock whose pid now belongs to a live process started later, and one written before a reboot', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 60000)'], { stdio: 'ignore' });
    try {
      assert.ok(child.pid !== undefined);
      const { startTime, boot } = await identityOf(child.pid);
      const own = await identityOf(process.pid);
      const cases: [string, RegExp][] = [
        [lockContent(child.pid, String(Number(startTime) - 1), boot), literally(`pid ${child.pid} now belongs to another process (started at tick ${startTime} after boot; the lock's owner started at tick ${Number(startTime) - 1})`)],
        [lockContent(process.pid, own.startTime, OTHER_BOOT), literally(`it was written before the machine restarted (boot id ${OTHER_BOOT}, now ${boot})`)],
        [lockContent(child.pid, startTime, OTHER_BOOT), literally('it was written before the machine restarted')],
        [lockContent(await deadPid(), startTime, boot), /no process has pid \d+$/],
      ];
      for (const [content, pattern] of cases) {
        const path = await journalPath();
        await writeFile(`${path}.lock`, content);
        const { lines, log } = logLines();
        const storage = await createFileStorage(path, { log });
        assert.equal(lines.length, 1, content);
        assert.match(lines[0] as string, pattern);
        await storage.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('createFileStorage() refuses a lock whose live owner has the recorded start time and boot id, or whose start time it cannot read', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 60000)'], { stdio: 'ignore' });
    try {
      assert.ok(child.pid !== undefined);
      const { startTime, boot } = await identityOf(child.pid);
      const path = await journalPath();
      await writeFile(`${path}.lock`, lockContent(child.pid, startTime, boot));
      await rejection(() => createFileStorage(path), 'unavailable', literally(`is held by running process ${child.pid}`));
      // Where /proc cannot be read, a live pid is taken as the owner: a live owner is never taken for a dead one.
      const withoutProc = hookedFileSystem((operation, target) => {
        if (operation === 'readFile' && target.startsWith('/proc/')) throw fsError('ENOENT');
      });
      await writeFile(`${path}.lock`, lockContent(child.pid, String(Number(startTime) - 1), boot));
      await rejection(() => createFileStorage(path, { fileSystem: withoutProc }), 'unavailable', literally(`is held by running process ${child.pid}`));
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('createFileStorage() refuses a lock that names this very process (its pid, start time and boot id) even without its token, as another copy of the library in this process would write', async () => {
    const path = await journalPath();
    const own = await identityOf(process.pid);
    await writeFile(`${path}.lock`, lockContent(process.pid, own.startTime, own.boot));
    await rejection(() => createFileStorage(path), 'unavailable', literally(`Data file ${path} is in use: ${path}.lock is held by this process`));
  });

  test('acquireLock() records "-" for a start time and boot id it cannot read, and such a lock is judged by its pid alone', async () => {
    const path = await journalPath();
    const withoutProc = hookedFileSystem((operation, target) => {
      if (operation === 'readFile' && target.startsWith('/proc/')) throw fsError('ENOENT');
    });
    const lock = await acquireLock(`${path}.lock`, path, withoutProc, () => undefined);
    assert.match(await readFile(`${path}.lock`, 'utf8'), new RegExp(`^pid ${process.pid}\\nstart -\\nboot -\\ntoken [0-9a-f]{32}\\n$`));
    await rejection(() => acquireLock(`${path}.lock`, path, nodeFileSystem, () => undefined), 'unavailable', /is held by this process/);
    await lock.release();
    await assert.rejects(stat(`${path}.lock`), /ENOENT/);
  });

  test('acquireLock() names the lock file, and says that the data file\'s directory must exist and let this user create files, when the lock cannot be created there', async () => {
    const path = await journalPath();
    for (const [code, why] of [['EACCES', 'this user may not create files in it'], ['EROFS', 'its file system is read-only'], ['EIO', '']] as const) {
      const fileSystem = hookedFileSystem((operation) => {
        if (operation === 'writeNewFile') throw fsError(code);
      });
      const error = await rejection(() => acquireLock(`${path}.lock`, path, fileSystem, () => undefined), 'unavailable',
        literally(`Cannot open data file ${path}: its lock file ${path}.lock cannot be created in ${dirname(path)} (${why === '' ? code : `${code}: ${why}`}). `
          + `The lock keeps a second server off the data file, so ${dirname(path)} must exist and let this user create files in it, even when the data file is already there: `
          + 'make it so, or keep the data file in a directory that does.'));
      assert.doesNotMatch(error.message, /\.lock\./, 'the temporary lock file is not named');
    }
  });

  test('close() leaves alone a lock file that another owner has put in place since', async () => {
    const path = await journalPath();
    const storage = await createFileStorage(path);
    const foreign = `${await deadPid()}\n${TOKEN}\n`;
    await writeFile(`${path}.lock`, foreign);
    await storage.close();
    assert.equal(await readFile(`${path}.lock`, 'utf8'), foreign);
  });

  test('isHeldNow() is true while the lock is this acquisition\'s, and false once it is removed, rewritten or replaced, or the file system has no synchronous calls', async () => {
    const path = await journalPath();
    const lockPath = `${path}.lock`;
    const held = async (fileSystem: StorageFileSystem): Promise<HeldLock> => acquireLock(lockPath, path, fileSystem, () => undefined);
    const lock = await held(nodeFileSystem);
    assert.equal(lock.isHeldNow(), true);
    const content = await readFile(lockPath, 'utf8');
    await writeFile(lockPath, content.replace(/token [0-9a-f]+/, `token ${TOKEN}`));
    assert.equal(lock.isHeldNow(), false, 'rewritten in place');
    await writeFile(lockPath, content);
    assert.equal(lock.isHeldNow(), true, 'its own content again');
    await rename(lockPath, `${lockPath}.moved`);
    assert.equal(lock.isHeldNow(), false, 'removed');
    await writeFile(lockPath, content);
    assert.equal(lock.isHeldNow(), false, 'another file with the same content');
    await unlink(lockPath);
    await rename(`${lockPath}.moved`, lockPath);
    assert.equal(lock.isHeldNow(), true, 'its own file back in place');
    await lock.release();
    assert.equal(lock.isHeldNow(), false, 'released');
    for (const fileSystem of [hookedFileSystem(() => undefined), { ...nodeFileSystem }]) {
      const other = await held(fileSystem);
      assert.equal(other.isHeldNow(), false, 'no synchronous calls of its own: the asynchronous check decides');
      assert.equal(await other.problem(), undefined);
      await other.release();
    }
  });

  test('isProcessAlive() is true for this process and false for an exited one', async () => {
    assert.equal(isProcessAlive(process.pid), true);
    assert.equal(isProcessAlive(await deadPid()), false);
  });

  test('acquireLock() retries when the lock disappears between its link and its read', async () => {
    const path = await journalPath();
    let isFirstRead = true;
    const fileSystem = hookedFileSystem((operation, target) => {
      if (operation === 'open' && target === `${path}.lock` && isFirstRead) {
        isFirstRead = false;
        throw fsError('ENOENT');
      }
    });
    await writeFile(`${path}.lock`, `${process.pid}\n${TOKEN}\n`);
    const lock = await acquireLock(`${path}.lock`, path, fileSystem, () => undefined);
    await lock.release();
  });

  test('acquireLock() gives up when the stale lock keeps coming back', async () => {
    const path = await journalPath();
    const stale = `${await deadPid()}\n${TOKEN}\n`;
    await writeFile(`${path}.lock`, stale);
    const fileSystem = hookedFileSystem(async (operation, target) => {
      // Another process re-creating a stale lock right after each removal.
      if (operation === 'link' && target === `${path}.lock`) await writeFile(target, stale);
    });
    await rejection(() => acquireLock(`${path}.lock`, path, fileSystem, () => undefined), 'unavailable', /another process keeps taking over the stale lock/);
  });

  const failures: [string, (operation: string, path: string) => boolean, RegExp][] = [
    ['linking it', (operation) => operation === 'link', /cannot create .*\.lock: EACCES/],
    ['reopening its draft', (operation, path) => operation === 'open' && /\.lock\.\d+\.[0-9a-f]{8}$/.test(path), /cannot open the lock file it just wrote: EACCES/],
    ['reading a held lock', (operation, path) => operation === 'open' && path.endsWith('.lock'), /cannot read .*\.lock: EACCES/],
    ['moving a stale lock aside', (operation, path) => operation === 'rename' && path.endsWith('.stale'), /cannot remove the stale lock .*: EACCES/],
  ];
  for (const [name, when, pattern] of failures) {
    test(`acquireLock() reports a failure ${name}`, async () => {
      const path = await journalPath();
      await writeFile(`${path}.lock`, `${await deadPid()}\n${TOKEN}\n`);
      const fileSystem = hookedFileSystem((operation, target) => {
        if (when(operation, target)) throw fsError('EACCES');
      });
      await rejection(() => acquireLock(`${path}.lock`, path, fileSystem, () => undefined), 'unavailable', literally(`Cannot lock data file ${path}: `), pattern);
    });
  }

  test('release() ignores a lock file that is already gone and reports other failures', async () => {
    const path = await journalPath();
    const lock = await acquireLock(`${path}.lock`, path, nodeFileSystem, () => undefined);
    await nodeFileSystem.unlink(`${path}.lock`);
    await lock.release();
    let isFailing = false;
    const fileSystem = hookedFileSystem((operation) => {
      if (isFailing && operation === 'unlink') throw fsError('EACCES');
    });
    const failing = await acquireLock(`${path}.lock`, path, fileSystem, () => undefined);
    isFailing = true;
    await rejection(() => failing.release(), 'unavailable', literally(`Cannot release the lock ${path}.lock: EACCES`));
  });
});
