/**
 * docs/operations.md's table of what stops a start, held against the command: each row's failure is
 * brought about, the command run, and its stderr and exit status compared with the row.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { startTestPostgres, makePool } from '../../support/postgres.js';
import { ROOT, runMain, spawnServer } from '../../support/process.js';

const KEY = 'start-failures-key-0123456789';
const ENV = { PETSTORE_API_KEYS: KEY };

const directory = await mkdtemp(join(tmpdir(), 'petstore-start-failures-'));
after(() => rm(directory, { recursive: true, force: true }));

const postgres = await startTestPostgres();

/** A row of the table: the failure, the start of what stderr says (`…` for a part left out), the exit status. */
interface Row {
  failure: string;
  stderr: string;
  status: number;
}

/** The rows of the table under "What stops a start". */
async function documentedRows(): Promise<Row[]> {
  const text = await readFile(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const section = text.split('### What stops a start')[1]?.split('\n### ')[0] ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| failure |'));
  return lines.map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    assert.equal(cells.length, 3, line);
    const [failure = '', stderr = '', status = ''] = cells;
    return { failure, stderr: stderr.replace(/^``? ?|`? ?`$/g, ''), status: Number(status) };
  });
}

/** What a run of the command left. */
interface Outcome {
  code: number | string;
  stderr: string;
}

/** The command run through tsx without the test tools' hook, so that `import('pg')` finds no driver, as in a fresh clone. */
async function runWithoutDriver(env: Record<string, string>): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'extras', 'cli', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', NODE_V8_COVERAGE: process.env['NODE_V8_COVERAGE'] ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
  const code = await new Promise<number | string>((done) => child.once('close', (status, signal) => done(status ?? signal ?? -1)));
  return { code, stderr };
}

/** A port something else listens on, closed after the run. */
async function withPortInUse(use: (port: number) => Promise<Outcome>): Promise<Outcome> {
  const holder = createServer();
  await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
  try {
    return await use((holder.address() as AddressInfo).port);
  } finally {
    await new Promise<void>((closed) => holder.close(() => closed()));
  }
}

/** A loopback port nothing listens on: one just freed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((listening) => probe.listen(0, '127.0.0.1', listening));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((closed) => probe.close(() => closed()));
  return port;
}

/** A role that must give a password over TCP (scram-sha-256), ahead of the cluster's trust rule. */
async function roleNeedingPassword(): Promise<string> {
  assert.ok(postgres.cluster !== undefined);
  const pool = makePool(postgres.cluster.url, 1);
  try {
    await pool.query("CREATE ROLE needs_password LOGIN PASSWORD 'a-password-0123'");
    const hba = join(postgres.cluster.dataDirectory, 'pg_hba.conf');
    await writeFile(hba, `host all needs_password 127.0.0.1/32 scram-sha-256\n${await readFile(hba, 'utf8')}`);
    await pool.query('SELECT pg_reload_conf()');
  } finally {
    await pool.end();
  }
  return `postgresql://needs_password@127.0.0.1:${postgres.cluster.port}/postgres`;
}

/** How each failure of the table is brought about. */
const RUNS: Readonly<Record<string, { needsPostgres?: boolean; run: () => Promise<Outcome> }>> = {
  'an unknown flag (`--prot 9000`)': { run: () => runMain(ENV, ['--prot', '9000']) },
  'a value its setting refuses (`--port abc`)': { run: () => runMain(ENV, ['--port', 'abc']) },
  'contradictory settings (`PETSTORE_API_KEYS` and `--api-keys-file`)': { run: () => runMain(ENV, ['--api-keys-file', join(directory, 'keys')]) },
  'an API key of fewer than 16 characters': { run: () => runMain({ PETSTORE_API_KEYS: 'short-key' }) },
  'a seed file that cannot be read': { run: () => runMain(ENV, ['--seed', join(directory, 'no-such-seed.json')]) },
  'a data file in a directory that does not exist': { run: () => runMain(ENV, ['--data', join(directory, 'no-such-directory', 'pets.journal')]) },
  'a data file that is not the server\'s': {
    async run() {
      const dataFile = join(directory, 'not-a-journal.txt');
      await writeFile(dataFile, 'a text file, not a journal\n');
      return runMain(ENV, ['--data', dataFile]);
    },
  },
  'a data file another server holds': {
    async run() {
      const dataFile = join(directory, 'held.journal');
      const holder = spawnServer(ENV, ['--data', dataFile]);
      try {
        await holder.ready;
        return await runMain(ENV, ['--data', dataFile]);
      } finally {
        holder.child.kill('SIGTERM');
        await holder.exited;
      }
    },
  },
  'a data file another server holds open, its lock file removed (or reached through a bind mount of the file, or after a move)': {
    async run() {
      const dataFile = join(directory, 'locked.journal');
      const holder = spawnServer(ENV, ['--data', dataFile]);
      try {
        await holder.ready;
        await rm(`${dataFile}.lock`);
        return await runMain(ENV, ['--data', dataFile]);
      } finally {
        holder.child.kill('SIGTERM');
        await holder.exited;
      }
    },
  },
  'a data file beside the copy a server kept when the file was replaced under it': {
    async run() {
      const dataFile = join(directory, 'replaced.journal');
      await writeFile(`${dataFile}.orphaned-12345`, '');
      return runMain(ENV, ['--data', dataFile]);
    },
  },
  'a port in use': { run: () => withPortInUse((port) => runMain(ENV, ['--host', '127.0.0.1', '--port', String(port)])) },
  'an address this machine does not have (`--host 192.0.2.1`)': { run: () => runMain(ENV, ['--host', '192.0.2.1']) },
  '`PETSTORE_DATABASE_URL` set, the driver `pg` not installed (in a clone)': {
    run: () => runWithoutDriver({ ...ENV, PETSTORE_DATABASE_URL: 'postgresql://petstore@127.0.0.1:1/petstore' }),
  },
  'PostgreSQL not reachable': {
    run: async () => runMain({ ...ENV, PETSTORE_DATABASE_URL: `postgresql://petstore@127.0.0.1:${await closedPort()}/petstore` }),
  },
  'PostgreSQL asks for a password, and neither the URL nor `PGPASSWORD` gives one': {
    needsPostgres: true,
    run: async () => runMain({ ...ENV, PETSTORE_DATABASE_URL: await roleNeedingPassword(), PGPASSWORD: '' }),
  },
};

/** Whether `text` has a line that starts with the row's words, the parts between `…` in order. */
function isSaid(text: string, expected: string): boolean {
  const [first = '', ...rest] = expected.split('…');
  return text.split('\n').some((line) => {
    if (!line.startsWith(first)) return false;
    let from = first.length;
    for (const part of rest) {
      const at = line.indexOf(part, from);
      if (at === -1) return false;
      from = at + part.length;
    }
    return true;
  });
}

const rows = await documentedRows();

describe('docs/operations.md\'s table of what stops a start', () => {
  test('the table lists every failure this test brings about, and nothing else', () => {
    assert.deepEqual(rows.map((row) => row.failure).sort(), Object.keys(RUNS).sort());
  });

  for (const row of rows) {
    const how = RUNS[row.failure];
    test(`the command, for ${row.failure}, writes what the table says and exits ${row.status}`, { skip: how?.needsPostgres === true && postgres.skip, timeout: 120_000 }, async () => {
      assert.ok(how !== undefined, `no run for the row "${row.failure}"`);
      const outcome = await how.run();
      assert.ok(isSaid(outcome.stderr, row.stderr), `stderr does not start a line with the table's words\n  table:  ${row.stderr}\n  stderr: ${outcome.stderr}`);
      assert.equal(outcome.code, row.status, outcome.stderr);
    });
  }
});
