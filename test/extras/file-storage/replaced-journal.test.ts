import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { assertError, call } from '../../support/http.js';
import { spawnServer, startRefused, stopServer } from '../../support/process.js';
import type { ServerProcess } from '../../support/process.js';
import { literally, temporaryDirectory } from './fixtures.js';

const KEY = 'replaced-journal-key-5c1e7a';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** What a create answers once the journal was replaced under the server. */
const REPLACED_CREATE = /^Cannot create pet: the server's data file was replaced, moved or removed on disk while the server had it open, so the pet was not stored\./;

async function create(server: ServerProcess, name: string): Promise<number> {
  const reply = await call(server, 'POST', '/v1/pets', { headers: HEADERS, body: JSON.stringify({ name, categoryId: 1 }) });
  assert.equal(reply.status, 201, reply.text);
  const body = reply.json as { id: number };
  return body.id;
}

/** A file's device and inode as the storage names them. */
async function identityOf(path: string): Promise<string> {
  const stats = await stat(path, { bigint: true });
  return `${stats.dev}:${stats.ino}`;
}

/** The pets a server lists, as id and name. */
async function listed(server: ServerProcess): Promise<[number, string][]> {
  const reply = await call(server, 'GET', '/v1/pets?limit=100', { headers: HEADERS });
  assert.equal(reply.status, 200, reply.text);
  return (reply.json as { id: number; name: string }[]).map((pet) => [pet.id, pet.name]);
}

/** What is done to a live journal, given its path and a copy of it taken after the first two pets. */
interface Attack {
  name: string;
  durability: 'fsync' | 'write';
  run: (dataFile: string, backup: string) => Promise<void>;
  /** Whether the path names another file afterwards (else it names none). */
  isReplaced: boolean;
}

const ATTACKS: readonly Attack[] = [
  {
    name: 'an rsync-style replace (a fresh copy renamed over it)',
    durability: 'fsync',
    isReplaced: true,
    run: async (dataFile) => {
      const copy = join(join(dataFile, '..'), `.${basename(dataFile)}.rsync-tmp`);
      await copyFile(dataFile, copy);
      await rename(copy, dataFile);
    },
  },
  {
    name: 'a restore over the live file (an older copy renamed over it), in write mode',
    durability: 'write',
    isReplaced: true,
    run: async (dataFile, backup) => rename(backup, dataFile),
  },
  { name: 'rm', durability: 'fsync', isReplaced: false, run: async (dataFile) => unlink(dataFile) },
  {
    name: 'mv to another directory',
    durability: 'write',
    isReplaced: false,
    run: async (dataFile) => {
      await mkdir(join(dataFile, '..', 'elsewhere'));
      await rename(dataFile, join(dataFile, '..', 'elsewhere', 'moved.journal'));
    },
  },
];

describe('a journal replaced under a running server', () => {
  for (const attack of ATTACKS) {
    test(`the server after ${attack.name} answers creates 503 with Retry-After, names the cause in /readyz and one log event, keeps what it wrote beside the journal, and a restart hands out no acknowledged id again`, async () => {
      const directory = await temporaryDirectory();
      const dataFile = join(directory, 'pets.journal');
      const env = { PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile, PETSTORE_DURABILITY: attack.durability };
      const server = spawnServer(env);
      await server.ready;
      const names = ['Coco', 'Bella', 'Max', 'Luna'];
      const acknowledged: [number, string][] = [];
      const backup = join(directory, 'backup.journal');
      let held = '';
      try {
        for (const name of names.slice(0, 2)) acknowledged.push([await create(server, name), name]);
        await copyFile(dataFile, backup);
        for (const name of names.slice(2)) acknowledged.push([await create(server, name), name]);
        held = await identityOf(dataFile);
        await attack.run(dataFile, backup);
        const now = attack.isReplaced ? await identityOf(dataFile) : undefined;

        const refused = await call(server, 'POST', '/v1/pets', { headers: HEADERS, body: '{"name":"Lost","categoryId":1}' });
        assertError(refused, 503, 'unavailable', REPLACED_CREATE);
        assert.ok(Number(refused.headers['retry-after']) > 0, 'a 503 carries Retry-After');
        assert.doesNotMatch(refused.text, literally(directory), 'a client is not told server paths');
        const cause = attack.isReplaced
          ? literally(`Data file ${dataFile} was replaced while this server had it open: the path now names file ${now} (device:inode), not file ${held} that this server writes`)
          : literally(`Data file ${dataFile} was removed or moved away while this server had it open: the path names no file now, and this server writes file ${held} (device:inode)`);
        assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', cause);
        assertError(await call(server, 'POST', '/v1/pets', { headers: HEADERS, body: '{"name":"Lost too","categoryId":1}' }), 503, 'unavailable', REPLACED_CREATE);
        assert.deepEqual(await listed(server), acknowledged, 'reads still answer');
      } finally {
        await stopServer(server);
      }
      const events = server.stderr().split('\n').filter((line) => line.includes(`file ${held}`));
      assert.equal(events.length, 1, server.stderr());

      const orphan = `${dataFile}.orphaned-${held.slice(held.indexOf(':') + 1)}`;
      assert.deepEqual((await readdir(directory)).filter((name) => name.includes('.orphaned-')), [basename(orphan)], 'the copy is named by the inode the server held');
      const refusedStart = await startRefused(env);
      assert.equal(refusedStart.code, 2, refusedStart.stderr);
      assert.match(refusedStart.stderr, literally(`Cannot open data file ${dataFile}: ${orphan} holds what a server wrote to this data file after it was replaced, removed or moved`));
      assert.match(refusedStart.stderr, literally(`\`mv ${orphan} ${dataFile}\``));

      await rename(orphan, dataFile);
      const restarted = spawnServer(env);
      await restarted.ready;
      try {
        assert.deepEqual(await listed(restarted), acknowledged, 'every acknowledged pet, once, with its name');
        assert.equal(await create(restarted, 'Nala'), acknowledged.length + 1, 'no acknowledged id is handed out again');
      } finally {
        await stopServer(restarted);
      }
    });
  }

  test('a second server on the journal moved to another directory is refused while the first holds it, and starts with every pet once the first stops', async () => {
    const directory = await temporaryDirectory();
    const dataFile = join(directory, 'pets.journal');
    const moved = join(directory, 'other', 'pets.journal');
    await mkdir(join(directory, 'other'));
    const first = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile });
    await first.ready;
    const acknowledged: [number, string][] = [];
    try {
      for (const name of ['Coco', 'Bella']) acknowledged.push([await create(first, name), name]);
      await rename(dataFile, moved);
      const second = await startRefused({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: moved });
      assert.equal(second.code, 2, second.stderr);
      assert.match(second.stderr, literally(`Data file ${moved} is in use: another process holds the file itself open and locked`));
      assertError(await call(first, 'POST', '/v1/pets', { headers: HEADERS, body: '{"name":"Lost","categoryId":1}' }), 503, 'unavailable', REPLACED_CREATE);
    } finally {
      await stopServer(first);
    }
    const second = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: moved });
    await second.ready;
    try {
      assert.deepEqual(await listed(second), acknowledged);
      assert.equal(await create(second, 'Max'), 3);
    } finally {
      await stopServer(second);
    }
  });

  const isRoot = process.getuid?.() === 0;
  test('a second server on a bind mount of the journal file (a Docker file mount, a Kubernetes subPath) is refused, and the first keeps serving', { skip: isRoot ? false : 'mount --bind needs root' }, async () => {
    const directory = await temporaryDirectory();
    const dataFile = join(directory, 'pets.journal');
    const mounted = join(directory, 'container', 'pets.journal');
    const first = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile });
    await first.ready;
    try {
      assert.equal(await create(first, 'Coco'), 1);
      await mkdir(join(directory, 'container'));
      await writeFile(mounted, '');
      execFileSync('mount', ['--bind', dataFile, mounted]);
      try {
        assert.equal(await identityOf(mounted), await identityOf(dataFile), 'the mount shows the same file');
        const second = await startRefused({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: mounted });
        assert.equal(second.code, 2, second.stderr);
        assert.match(second.stderr, literally(`Data file ${mounted} is in use: another process holds the file itself open and locked`));
      } finally {
        execFileSync('umount', [mounted]);
      }
      assert.equal((await call(first, 'GET', '/readyz')).status, 200);
      assert.equal(await create(first, 'Bella'), 2);
    } finally {
      await stopServer(first);
    }
  });
});
