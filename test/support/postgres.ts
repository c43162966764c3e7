import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after } from 'node:test';
import pg from 'pg';
import { findPgBouncer, findPostgresBinaries, startPgBouncer, startPostgresCluster } from '../../scripts/postgres-cluster.js';
import type { PgBouncer, PostgresCluster, PostgresClusterOptions } from '../../scripts/postgres-cluster.js';
import type { Pet, PetStorage } from '../../lib/index.js';
import type { StorageContractOptions } from '../../server/testing/index.js';
import { ROOT } from './process.js';

/** A throwaway cluster for one test file, or why its PostgreSQL tests are skipped. */
export type TestPostgres = { cluster: PostgresCluster; skip: false } | { cluster: undefined; skip: string };

const MISSING =
  'PostgreSQL server binaries not found (looked at `pg_config --bindir`, /usr/lib/postgresql/*/bin and PATH); install the Debian package `postgresql` to run these tests';

/**
 * Starts a throwaway cluster that is stopped and deleted after the file's tests. Without binaries
 * the tests are skipped with the reason, except in CI (CI=true), where that is a failure: CI must
 * exercise the PostgreSQL storage, and `.ci/run` installs it.
 */
export async function startTestPostgres(options: PostgresClusterOptions = {}): Promise<TestPostgres> {
  const binaries = await findPostgresBinaries();
  if (binaries === undefined) {
    if (process.env['CI'] === 'true') throw new Error(`${MISSING}. In CI this is a failure, not a skip.`);
    return { cluster: undefined, skip: MISSING };
  }
  const cluster = await startPostgresCluster(binaries, options);
  after(() => cluster.stop());
  return { cluster, skip: false };
}

let tableCount = 0;

/** A table name no other test in this process uses. */
export function freshTable(prefix = 'pets'): string {
  tableCount++;
  return `${prefix}_${process.pid}_${tableCount}`;
}

/** A pg Pool on `url` that ignores errors of idle clients (a terminated backend) instead of crashing the test process. */
export function makePool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

/** A PgBouncer for one test file, or why its tests are skipped. */
export type TestPgBouncer = { bouncer: PgBouncer; skip: false } | { bouncer: undefined; skip: string };

const MISSING_PGBOUNCER = 'PgBouncer not found (looked at /usr/sbin/pgbouncer and PATH); install the Debian package `pgbouncer` to run these tests';

/**
 * Starts PgBouncer in front of `cluster` with the `[pgbouncer]` settings given, stopped after the
 * file's tests; skipped without the binary, except in CI (CI=true), where that is a failure.
 */
export async function startTestPgBouncer(cluster: PostgresCluster, settings: Readonly<Record<string, string>>, users?: readonly string[]): Promise<TestPgBouncer> {
  const binary = findPgBouncer();
  if (binary === undefined) {
    if (process.env['CI'] === 'true') throw new Error(`${MISSING_PGBOUNCER}. In CI this is a failure, not a skip.`);
    return { bouncer: undefined, skip: MISSING_PGBOUNCER };
  }
  const bouncer = await startPgBouncer(binary, cluster, users === undefined ? { settings } : { settings, users });
  after(() => bouncer.stop());
  return { bouncer, skip: false };
}

/** The fenced blocks of `language` in the section of docs/postgres.md under `heading` (up to the next heading of any level). */
export async function postgresDocBlocks(heading: string, language: string): Promise<string[]> {
  const markdown = await readFile(join(ROOT, 'docs', 'postgres.md'), 'utf8');
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/postgres.md has no heading ${JSON.stringify(heading)}`);
  const rest = markdown.slice(start + heading.length + 2);
  const section = rest.slice(0, rest.search(/\n#{1,6} /) === -1 ? undefined : rest.search(/\n#{1,6} /));
  return [...section.matchAll(new RegExp(`\n\`\`\`${language}\n([\\s\\S]*?)\n\`\`\``, 'g'))].map((match) => match[1] ?? '');
}

/** The `key = value` lines of one section of an ini file, comments (`;`, `#`) and blank lines left out. */
export function iniSection(text: string, section: string): Record<string, string> {
  const settings: Record<string, string> = {};
  let current = '';
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header !== null) current = header[1] ?? '';
    const pair = /^([A-Za-z_]+)\s*=\s*(.*)$/.exec(line);
    if (header === null && pair !== null && current === section) settings[pair[1] ?? ''] = pair[2] ?? '';
  }
  return settings;
}

/** What the storage contract suite needs of a PostgreSQL storage opened by `open`: each storage on a fresh table, and reopened on its own. */
export function tableContract(open: (table: string) => Promise<PetStorage>): Pick<StorageContractOptions, 'makeStorage' | 'reopen'> {
  const tables = new WeakMap<PetStorage, string>();
  return {
    async makeStorage() {
      const table = freshTable();
      const storage = await open(table);
      tables.set(storage, table);
      return storage;
    },
    async reopen(storage) {
      const table = tables.get(storage);
      assert.ok(table !== undefined);
      await storage.close?.();
      const reopened = await open(table);
      tables.set(reopened, table);
      return reopened;
    },
  };
}

/**
 * Writers on one table create `lanes` × `perWriter` pets each (`lanes` creates at a time) while a
 * reader pages through them from id 0; the reader must see every pet once, in id order.
 */
export async function assertExactCursor(writers: readonly PetStorage[], reader: PetStorage, perWriter: number, lanes = 4): Promise<void> {
  const created: Pet[] = [];
  let isWriting = true;
  const writing = Promise.all(
    writers.flatMap((writer, writerIndex) =>
      Array.from({ length: lanes }, async (_, lane) => {
        for (let index = 0; index < perWriter; index++) created.push(await writer.insert({ name: `w${writerIndex} l${lane} #${index}`, categoryId: index, status: 'available' }));
      }),
    ),
  ).finally(() => {
    isWriting = false;
  });
  const seen: number[] = [];
  let after = 0;
  for (;;) {
    const wasWriting = isWriting;
    const page = await reader.list({ status: undefined, after, limit: 7 });
    seen.push(...page.map((pet) => pet.id));
    after = page.at(-1)?.id ?? after;
    if (page.length === 0 && !wasWriting) break;
  }
  await writing;
  assert.equal(created.length, writers.length * lanes * perWriter);
  assert.deepEqual(seen, created.map((pet) => pet.id).sort((left, right) => left - right), 'the cursor saw every pet exactly once, in id order');
}
