import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import type { PetStorage } from '../../../lib/index.js';
import { createPostgresStorage } from '../../../extras/postgres/index.js';
import type { NamedStatement, PostgresPreparedQuery, PostgresQuery } from '../../../extras/postgres/index.js';
import { runStorageContract } from '../../../server/testing/index.js';
import { assertExactCursor, freshTable, makePool, startTestPgBouncer, startTestPostgres, tableContract } from '../../support/postgres.js';
import { rejection } from '../../support/assertions.js';

/** A database error as `pg` raises it: a message and a SQLSTATE. */
function sqlError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** An answer for a scripted statement: the encoding at start-up, an inserted row for an insert, no rows otherwise. */
function answer(text: string, values: unknown[]): { rows: unknown[] } {
  if (text.includes('server_encoding')) return { rows: [{ encoding: 'UTF8' }] };
  if (text.startsWith('WITH')) return { rows: [{ id: '1', name: values[1], category_id: String(values[2]), status: values[3] }] };
  return { rows: [] };
}

/** A query function and a prepared one that answer as `answer` does, recording what each got; `failures` are thrown by the prepared one first. */
function scripted(failures: Error[] = []): { query: PostgresQuery; preparedQuery: PostgresPreparedQuery; unnamed: string[]; named: NamedStatement[] } {
  const unnamed: string[] = [];
  const named: NamedStatement[] = [];
  return {
    unnamed,
    named,
    query: async (text, values) => {
      unnamed.push(text);
      return answer(text, values);
    },
    preparedQuery: async (statement) => {
      named.push(statement);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return answer(statement.text, statement.values);
    },
  };
}

describe('createPostgresStorage() with preparedQuery, without a database', () => {
  test('createPostgresStorage() runs its everyday statements by name through preparedQuery, one name per text, and its start-up through query', async () => {
    const script = scripted();
    const storage = await createPostgresStorage({ query: script.query, preparedQuery: script.preparedQuery, table: 'pets' });
    const startUp = script.unnamed.length;
    assert.deepEqual(await storage.insert({ name: 'Rex', categoryId: 4 }), { id: 1, name: 'Rex', categoryId: 4 });
    await storage.insert({ name: 'Tom', categoryId: 5 });
    await storage.list({ status: 'sold', after: 7, limit: 3 });
    await storage.list({ status: undefined, after: 8, limit: 4 });
    await storage.get(9);
    assert.equal(script.unnamed.length, startUp, 'no everyday statement went unnamed');
    assert.deepEqual(script.named.map((statement) => statement.values), [['"pets"', 'Rex', 4, null, 5_000], ['"pets"', 'Tom', 5, null, 5_000], ['sold', 7, 3], [8, 4], [9]]);
    const namesByText = new Map<string, Set<string>>();
    for (const { name, text } of script.named) namesByText.set(text, (namesByText.get(text) ?? new Set()).add(name));
    assert.equal(namesByText.size, 4, 'insert, two lists and get are four texts');
    for (const names of namesByText.values()) assert.equal(names.size, 1, 'one text, one name');
    const allNames = [...namesByText.values()].flatMap((names) => [...names]);
    assert.equal(new Set(allNames).size, 4, 'four texts, four names');
    for (const name of allNames) assert.match(name, /^petstore_[0-9a-f]{32}$/, 'a name PostgreSQL keeps whole (below 64 bytes)');
  });

  for (const [code, what] of [['26000', 'a connection without the statement'], ['42P05', 'a connection holding the name already']] as const) {
    test(`createPostgresStorage() runs a statement that met ${what} (${code}) again unnamed, and sends every later statement unnamed`, async () => {
      const script = scripted([sqlError(code, `prepared statement "x" ${code === '26000' ? 'does not exist' : 'already exists'}`)]);
      const storage = await createPostgresStorage({ query: script.query, preparedQuery: script.preparedQuery, table: 'pets' });
      const startUp = script.unnamed.length;
      assert.deepEqual(await storage.insert({ name: 'Rex', categoryId: 4 }), { id: 1, name: 'Rex', categoryId: 4 });
      await storage.list({ status: 'sold', after: 7, limit: 3 });
      await storage.get(9);
      assert.equal(script.named.length, 1, 'only the first statement went by name');
      assert.equal(script.unnamed.length - startUp, 3, 'the insert again, then the list and the get, unnamed');
      assert.equal(script.unnamed[startUp], script.named[0]?.text, 'the failed statement ran again as it was');
    });
  }

  test('createPostgresStorage() passes on any other failure of a named statement as it would from query, without running it again', async () => {
    const script = scripted([sqlError('57P01', 'terminating connection due to administrator command')]);
    const storage = await createPostgresStorage({ query: script.query, preparedQuery: script.preparedQuery, table: 'pets' });
    const startUp = script.unnamed.length;
    await rejection(() => storage.insert({ name: 'Rex', categoryId: 4 }), 'unavailable', /shutting down/);
    assert.equal(script.unnamed.length, startUp, 'nothing ran again: the statement may have been stored');
    await storage.get(9);
    assert.equal(script.named.length, 2, 'named statements go on after a failure of another kind');
  });
});

const postgres = await startTestPostgres();
const pgbouncer = postgres.cluster === undefined
  ? { bouncer: undefined, skip: postgres.skip }
  : await startTestPgBouncer(postgres.cluster, { pool_mode: 'transaction', default_pool_size: '3', max_client_conn: '100' });

/** The storages' pools of one describe block, ended after its tests. */
function poolsOf(url: string): { open: (table: string, max?: number) => Promise<PetStorage>; pools: Set<pg.Pool> } {
  const pools = new Set<pg.Pool>();
  after(async () => {
    await Promise.all([...pools].map((pool) => pool.end()));
    pools.clear();
  });
  return {
    pools,
    async open(table, max = 10) {
      const pool = makePool(url, max);
      pools.add(pool);
      const end = async (): Promise<void> => {
        if (pools.delete(pool)) await pool.end();
      };
      return createPostgresStorage({ query: pool.query.bind(pool), preparedQuery: (statement) => pool.query(statement), table, end });
    },
  };
}

describe('createPostgresStorage() with preparedQuery on PostgreSQL', { skip: postgres.skip }, () => {
  const { open, pools } = poolsOf(postgres.cluster?.url ?? '');
  runStorageContract('postgres, named statements', tableContract(open));

  test('a PostgreSQL storage on named statements keeps the `after` cursor exact while several pools insert at once', async () => {
    const table = freshTable();
    const writers = await Promise.all(Array.from({ length: 4 }, () => open(table, 4)));
    // A random pause after the id is allocated and before the commit, as on a busy server.
    const admin = makePool(postgres.cluster?.url ?? '', 1);
    pools.add(admin);
    await admin.query("CREATE OR REPLACE FUNCTION delay_insert() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(random() * 0.002); RETURN NEW; END'");
    await admin.query(`CREATE TRIGGER delay_insert BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION delay_insert()`);
    await assertExactCursor(writers, await open(table, 2), 30);
  });
});

describe('createPostgresStorage() with preparedQuery through PgBouncer in transaction mode', { skip: pgbouncer.skip }, () => {
  const { open } = poolsOf(pgbouncer.bouncer?.url ?? '');

  test('a PostgreSQL storage given preparedQuery through PgBouncer in transaction mode stores and lists every pet, the cursor exact', async () => {
    const table = freshTable();
    // More client connections than PgBouncer's 3 server connections: transactions of one client
    // connection land on different server connections, which do not hold its named statements.
    const writers = await Promise.all(Array.from({ length: 3 }, () => open(table, 4)));
    await assertExactCursor(writers, await open(table, 2), 15);
  });
});
