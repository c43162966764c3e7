import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { freezePet } from '../../../lib/validate.js';
import { encodeHeader, encodePetRecord } from '../../../extras/file-storage/journal-format.js';
import { call } from '../../support/http.js';
import { jsonLines, runMain, spawnServer } from '../../support/process.js';

const KEY = 'output-rule-key-0123456789';
const ENV = { PETSTORE_API_KEYS: KEY };

const directory = await mkdtemp(join(tmpdir(), 'petstore-output-rule-'));
after(() => rm(directory, { recursive: true, force: true }));

/** What a finished run of the command left. */
interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * Asserts the rule for a server that cannot start: status 2, nothing on stdout, and on stderr only
 * human-readable lines (the last one matching `message`), no JSON line and no stack.
 */
function assertSetupMistake(run: Run, message: RegExp): void {
  assert.equal(run.code, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.ok(run.stderr.endsWith('\n'), run.stderr);
  const lines = run.stderr.slice(0, -1).split('\n');
  for (const line of lines) assert.ok(line.startsWith('petstore-reference: ') && !line.includes('{"'), `a human-readable line, not JSON: ${run.stderr}`);
  assert.match(lines.at(-1) ?? '', message);
  assert.ok(!run.stderr.includes('    at '), `no stack trace: ${run.stderr}`);
}

/** Asserts that every line of a running (or stopped) server's stderr is a JSON event. */
function assertJsonOnly(stderr: string): void {
  const lines = stderr.split('\n').filter((line) => line !== '');
  assert.ok(lines.length > 0);
  assert.equal(jsonLines(stderr).length, lines.length, `every line of stderr is a JSON event: ${stderr}`);
}

describe('the command line\'s output rule: human-readable lines and status 2 before the server listens, JSON lines on stderr after', () => {
  test('serve with a usage mistake (an unknown flag, a bad port, a bad key) writes one human-readable line and exits 2', async () => {
    assertSetupMistake(await runMain(ENV, ['--prot', '80']), /^petstore-reference: unknown argument "--prot"/);
    assertSetupMistake(await runMain(ENV, ['--port', '99999']), /^petstore-reference: --port must be an integer from 0 to 65535, not "99999"$/);
    assertSetupMistake(await runMain({ PETSTORE_API_KEYS: 'short' }), /^petstore-reference: PETSTORE_API_KEYS, key 1 holds a key of fewer than 16 characters/);
    assertSetupMistake(await runMain({}, ['--api-keys-file', join(directory, 'no-such-keys')]), /^petstore-reference: --api-keys-file: cannot read .*no-such-keys \(ENOENT\)$/);
  });

  test('serve with a seed file it cannot read writes only the human-readable line, after the keys were loaded, and exits 2', async () => {
    assertSetupMistake(await runMain(ENV, ['--seed', join(directory, 'no-such-seed.json')]), /^petstore-reference: --seed: cannot read .*no-such-seed\.json \(ENOENT\)$/);
  });

  test('serve with a data file in a directory that does not exist writes one human-readable line naming the lock file, and exits 2', async () => {
    const dataFile = join(directory, 'missing', 'pets.journal');
    assertSetupMistake(await runMain(ENV, ['--data', dataFile]), new RegExp(`^petstore-reference: Cannot open data file ${escape(dataFile)}: its lock file ${escape(dataFile)}\\.lock cannot be created`));
  });

  test('serve with --data naming a directory says it names a directory and to give a file path, and exits 2', async () => {
    const folder = join(directory, 'a-folder');
    await mkdir(folder);
    const run = await runMain(ENV, ['--data', folder]);
    assertSetupMistake(run, new RegExp(`^petstore-reference: Cannot open data file ${escape(folder)}: it names a directory; give the path of a file instead \\(such as ${escape(join(folder, 'pets.journal'))}\\)$`));
    assert.ok(!run.stderr.includes('EISDIR'), run.stderr);
  });

  test('serve on a port in use writes only the human-readable line, after the storage was opened, and exits 2', async () => {
    const occupier = createServer();
    await new Promise<void>((listening) => occupier.listen(0, '127.0.0.1', listening));
    const { port } = occupier.address() as AddressInfo;
    try {
      assertSetupMistake(await runMain(ENV, ['--port', String(port), '--host', '127.0.0.1']), new RegExp(`^petstore-reference: cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is in use`));
    } finally {
      occupier.close();
    }
  });

  test('serve on a data file another server holds, and repair of it, write one human-readable line and exit 2; the running server writes JSON lines only', async () => {
    const dataFile = join(directory, 'held.journal');
    const first = spawnServer(ENV, ['--data', dataFile]);
    try {
      await first.ready;
      assertSetupMistake(await runMain(ENV, ['--data', dataFile]), /^petstore-reference: Data file .*held\.journal is in use: .*held\.journal\.lock is held by running process \d+/);
      assertSetupMistake(await runMain({}, ['repair', '--data', dataFile]), /^petstore-reference: Data file .*held\.journal is in use/);
    } finally {
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
    }
    assertJsonOnly(first.stderr());
  });

  test('repair of a data file that does not exist writes one human-readable line and exits 2', async () => {
    assertSetupMistake(await runMain({}, ['repair', '--data', join(directory, 'no-such.journal')]), /^petstore-reference: Cannot open data file .*no-such\.journal: opening it failed: ENOENT/);
  });

  test('serve with PostgreSQL unreachable at start writes one human-readable line and exits 2', async () => {
    // Port 1 on the loopback: nothing listens there, and nothing leaves the machine.
    const run = await runMain(ENV, ['--database-url', 'postgresql://petstore@127.0.0.1:1/petstore']);
    assertSetupMistake(run, /^petstore-reference: (Cannot prepare the pets table: PostgreSQL is unavailable|PETSTORE_DATABASE_URL is set, but the PostgreSQL driver is not installed)/);
  });

  test('serve with a journal that does not fit in memory writes only the human-readable line, at the default log level, and exits 2', { timeout: 120_000 }, async () => {
    const dataFile = join(directory, 'large.journal');
    const records = Array.from({ length: 4_000 }, (_, index) => encodePetRecord(freezePet(index + 1, { name: '🐶'.repeat(256), categoryId: 1 })));
    await writeFile(dataFile, Buffer.concat([encodeHeader(), ...records]));
    const run = await runMain({ ...ENV, NODE_OPTIONS: '--max-old-space-size=48' }, ['--data', dataFile]);
    assertSetupMistake(run, /^petstore-reference: Cannot open data file .*large\.journal: its pets need about [0-9.]+ MiB of memory.*--max-old-space-size=\d+ or more/);
  });

  test('serve without keys writes JSON lines only on stderr, and the development key with the other human-readable lines on stdout', async () => {
    const server = spawnServer({}, ['--metrics']);
    let key: string | undefined;
    try {
      await server.ready;
      key = /^No PETSTORE_API_KEYS or --api-keys-file set: development key for this run only: (\S+)$/m.exec(server.stdout())?.[1];
      assert.ok(key !== undefined, server.stdout());
      assert.equal((await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status, 200);
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
    assertJsonOnly(server.stderr());
    assert.ok(!server.stderr().includes(key), 'the key is not on stderr');
    assert.ok(jsonLines(server.stderr()).some((line) => line['msg'] === 'API keys generated for this run'), 'the events of the start are written once the server listens');
  });
});

/** A path as a literal part of a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
