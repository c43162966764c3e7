import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { createPetstore } from '../../../lib/index.js';
import type { Pet, PetStorage } from '../../../lib/index.js';
import { createPostgresStorage, DEFAULT_LOCK_TIMEOUT } from '../../../extras/postgres/index.js';
import type { PostgresQuery } from '../../../extras/postgres/index.js';
import { runStorageContract } from '../../../server/testing/index.js';
import { freshTable, makePool, startTestPostgres, tableContract } from '../../support/postgres.js';
import { rejection } from '../../support/assertions.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** A query function that answers from a script of results, recording the statements it got. */
function scriptedQuery(answers: ((text: string) => unknown[] | Error)[]): PostgresQuery & { texts: string[] } {
  const texts: string[] = [];
  const query = async (text: string): Promise<{ rows: unknown[] }> => {
    texts.push(text);
    const answer = (answers[texts.length - 1] ?? (() => []))(text);
    if (answer instanceof Error) throw answer;
    return { rows: answer };
  };
  return Object.assign(query, { texts });
}

const UTF8 = (): unknown[] => [{ encoding: 'UTF8' }];

/** Calls the storage's checkReady(), which a PostgreSQL storage always has. */
function checkReady(storage: PetStorage): Promise<void> {
  assert.ok(storage.checkReady !== undefined, 'a PostgreSQL storage has checkReady()');
  return storage.checkReady();
}
const NONE = (): unknown[] => [];

describe('createPostgresStorage() without a database', () => {
  test('createPostgresStorage() refuses an invalid table name before running any statement', async () => {
    const query = scriptedQuery([]);
    await rejection(() => createPostgresStorage({ query, table: 'pets; DROP TABLE pets' }), 'internal_error');
    assert.deepEqual(query.texts, []);
  });

  test('createPostgresStorage() refuses a database whose encoding cannot hold every name', async () => {
    for (const rows of [[{ encoding: 'LATIN1' }], [{ encoding: 'SQL_ASCII' }], [], [null], [{}]]) {
      const error = await rejection(() => createPostgresStorage({ query: scriptedQuery([() => rows]) }), 'unavailable');
      assert.match(error.message, /encoding is .*ENCODING 'UTF8'/);
    }
  });

  test('createPostgresStorage() reports an unreachable database as `unavailable`', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const error = await rejection(() => createPostgresStorage({ query: scriptedQuery([() => refused]) }), 'unavailable');
    assert.match(error.message, /^Cannot prepare the pets table: PostgreSQL is unavailable \(ECONNREFUSED/);
  });

  test('createPostgresStorage() names the table when it exists with other columns', async () => {
    const missingColumn = Object.assign(new Error('column "category_id" does not exist'), { code: '42703' });
    const error = await rejection(() => createPostgresStorage({ query: scriptedQuery([UTF8, NONE, () => missingColumn]), table: 'shop.pets' }), 'internal_error');
    assert.match(error.message, /^Cannot use table shop\.pets: it exists but lacks the columns/);
    assert.equal(error.cause, missingColumn);
  });

  test('createPostgresStorage() reports a database lost during setup as `unavailable`', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    await rejection(() => createPostgresStorage({ query: scriptedQuery([UTF8, NONE, () => reset]) }), 'unavailable');
  });

  test('createPostgresStorage() refuses an id beyond the safe-integer range with a clear internal_error', async () => {
    const row = { id: '9007199254740993', name: 'Rex', category_id: '1', status: null };
    const storage = await createPostgresStorage({ query: scriptedQuery([UTF8, NONE, NONE, () => [row], () => [row], () => [row]]) });
    for (const action of [() => storage.insert({ name: 'Rex', categoryId: 1 }), () => storage.get(1), () => storage.list({ status: undefined, after: 0, limit: 5 })]) {
      const error = await rejection(action, 'internal_error');
      assert.match(error.message, /`id` holds "9007199254740993", which is not an integer between/);
    }
  });

  test('createPostgresStorage() has close() only when given `end`', async () => {
    const plain = await createPostgresStorage({ query: scriptedQuery([UTF8]) });
    assert.equal(plain.close, undefined);
    let ended = 0;
    const owning = await createPostgresStorage({ query: scriptedQuery([UTF8]), end: async () => void ended++ });
    await owning.close?.();
    assert.equal(ended, 1);
  });

  test('createPostgresStorage() sends values as parameters, never inside the SQL text', async () => {
    const seen: [string, unknown[]][] = [];
    const query: PostgresQuery = async (text, values) => {
      seen.push([text, values]);
      if (text.includes('server_encoding')) return { rows: [{ encoding: 'UTF8' }] };
      return { rows: text.startsWith('WITH') ? [{ id: '1', name: values[1], category_id: String(values[2]), status: values[3] }] : [] };
    };
    const storage = await createPostgresStorage({ query, table: 'shop.pets' });
    const name = "Robert'); DROP TABLE pets;--";
    assert.deepEqual(await storage.insert({ name, categoryId: 4 }), { id: 1, name, categoryId: 4 });
    await storage.list({ status: 'sold', after: 7, limit: 3 });
    await storage.list({ status: undefined, after: 8, limit: 4 });
    await storage.get(9);
    assert.deepEqual(
      seen.slice(3).map(([, values]) => values),
      [['"shop"."pets"', name, 4, null, DEFAULT_LOCK_TIMEOUT], ['sold', 7, 3], [8, 4], [9]],
    );
    for (const [text] of seen.slice(3)) assert.ok(!text.includes('Robert') && !text.includes('sold'), text);
  });

  test('insertOnce() of a PostgreSQL storage sends the key and fingerprint as parameters, reads the key\'s row when the insert did nothing, and calls a missing row a defect', async () => {
    const seen: [string, unknown[]][] = [];
    let rowOfKey: unknown[] = [{ id: '3', name: 'Rex', category_id: '1', status: null, idempotency_fingerprint: 'f' }];
    const query: PostgresQuery = async (text, values) => {
      seen.push([text, values]);
      if (text.includes('server_encoding')) return { rows: [{ encoding: 'UTF8' }] };
      return { rows: text.includes('WHERE idempotency_key = $1') ? rowOfKey : [] };
    };
    const storage = await createPostgresStorage({ query, table: 'pets' });
    assert.ok(storage.insertOnce !== undefined);
    const replay = await storage.insertOnce({ name: 'Rex', categoryId: 1 }, { key: "k'); DROP TABLE pets;--", fingerprint: 'f' });
    assert.deepEqual({ ...replay, pet: { ...replay.pet } }, { pet: { id: 3, name: 'Rex', categoryId: 1 }, fingerprint: 'f', isReplay: true });
    assert.deepEqual(seen.slice(3).map(([, values]) => values), [['"pets"', 'Rex', 1, null, DEFAULT_LOCK_TIMEOUT, "k'); DROP TABLE pets;--", 'f'], ["k'); DROP TABLE pets;--"]]);
    for (const [text] of seen.slice(3)) assert.ok(!text.includes('DROP'), text);
    rowOfKey = [];
    await rejection(() => storage.insertOnce?.({ name: 'Rex', categoryId: 1 }, { key: 'k', fingerprint: 'f' }) ?? Promise.resolve(), 'internal_error', /the unique index holds the idempotency key, but no row has it/);
  });

  test('checkReady() of a PostgreSQL storage resolves when its probe of the table answers, and sends only that probe', async () => {
    const query = scriptedQuery([UTF8, NONE, NONE, NONE]);
    const storage = await createPostgresStorage({ query, table: 'shop.pets' });
    await checkReady(storage);
    assert.equal(query.texts.length, 4);
    assert.equal(query.texts[3], query.texts[2], 'the probe of setup, run again');
    assert.match(query.texts[3] as string, /^SELECT id, name, category_id, status FROM "shop"."pets" WHERE false$/);
  });

  test('checkReady() of a PostgreSQL storage rejects with `unavailable` and the reason for every kind of failure', async () => {
    const cases: [Error, RegExp][] = [
      [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), /^Cannot reach the pets table: PostgreSQL is unavailable \(ECONNREFUSED: nothing accepts connections/],
      [new Error('Client was closed and is not queryable'), /the database connection failed or was closed/],
      [Object.assign(new Error('relation "shop.pets" does not exist'), { code: '42P01' }), /reading table shop\.pets failed \(42P01: relation "shop\.pets" does not exist\); it may have been dropped/],
      [new TypeError('query is not a function'), /reading table shop\.pets failed \(query is not a function\)/],
    ];
    for (const [failure, pattern] of cases) {
      const storage = await createPostgresStorage({ query: scriptedQuery([UTF8, NONE, NONE, () => failure]), table: 'shop.pets' });
      const error = await rejection(() => checkReady(storage), 'unavailable', pattern);
      assert.equal(error.cause, failure);
    }
  });

  test('checkReady() of a PostgreSQL storage turns a thrown non-error into `unavailable`, and resolves once the probe answers again', async () => {
    let isFailing = false;
    const storage = await createPostgresStorage({
      query: async (text) => {
        if (isFailing) throw 'a thrown string';
        return { rows: text.includes('server_encoding') ? [{ encoding: 'UTF8' }] : [] };
      },
    });
    isFailing = true;
    await rejection(() => checkReady(storage), 'unavailable', /reading table pets failed \(a thrown string\)/);
    isFailing = false;
    await checkReady(storage);
  });
});

const postgres = await startTestPostgres();

describe('createPostgresStorage() on PostgreSQL', { skip: postgres.skip }, () => {
  const url = postgres.cluster?.url ?? '';
  const pools = new Set<pg.Pool>();

  function pool(max = 10): pg.Pool {
    const created = makePool(url, max);
    pools.add(created);
    return created;
  }

  async function end(target: pg.Pool): Promise<void> {
    if (pools.delete(target)) await target.end();
  }

  after(async () => {
    await Promise.all([...pools].map((target) => end(target)));
  });

  /** A storage on `table` that owns a fresh pool, as the server builds it. */
  async function open(table: string, max = 10): Promise<PetStorage> {
    const owned = pool(max);
    return createPostgresStorage({ query: owned.query.bind(owned), table, end: () => end(owned) });
  }

  runStorageContract('postgres', tableContract(open));

  test('createPostgresStorage() creates the documented schema with the (status, id) index', async () => {
    const admin = pool(1);
    await admin.query('CREATE SCHEMA shop');
    const storage = await open('shop.pets');
    const columns = await admin.query(
      "SELECT column_name, data_type, is_nullable, is_identity, identity_generation, identity_maximum FROM information_schema.columns WHERE table_schema = 'shop' AND table_name = 'pets' ORDER BY ordinal_position",
    );
    assert.deepEqual(columns.rows, [
      { column_name: 'id', data_type: 'bigint', is_nullable: 'NO', is_identity: 'YES', identity_generation: 'ALWAYS', identity_maximum: String(MAX) },
      { column_name: 'name', data_type: 'text', is_nullable: 'NO', is_identity: 'NO', identity_generation: null, identity_maximum: null },
      { column_name: 'category_id', data_type: 'bigint', is_nullable: 'NO', is_identity: 'NO', identity_generation: null, identity_maximum: null },
      { column_name: 'status', data_type: 'text', is_nullable: 'YES', is_identity: 'NO', identity_generation: null, identity_maximum: null },
      { column_name: 'idempotency_key', data_type: 'text', is_nullable: 'YES', is_identity: 'NO', identity_generation: null, identity_maximum: null },
      { column_name: 'idempotency_fingerprint', data_type: 'text', is_nullable: 'YES', is_identity: 'NO', identity_generation: null, identity_maximum: null },
    ]);
    const indexes = await admin.query("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'shop' ORDER BY indexname");
    assert.deepEqual(indexes.rows, [
      { indexname: 'pets_idem_key_idx', indexdef: 'CREATE UNIQUE INDEX pets_idem_key_idx ON shop.pets USING btree (idempotency_key) WHERE (idempotency_key IS NOT NULL)' },
      { indexname: 'pets_pkey', indexdef: 'CREATE UNIQUE INDEX pets_pkey ON shop.pets USING btree (id)' },
      { indexname: 'pets_status_id_idx', indexdef: 'CREATE INDEX pets_status_id_idx ON shop.pets USING btree (status, id)' },
    ]);
    await storage.insert({ name: 'Tom', categoryId: 1 });
    await storage.insert({ name: 'Rex', categoryId: 2, status: 'sold' });
    const stored = await admin.query('SELECT id, name, category_id, status FROM shop.pets ORDER BY id');
    assert.deepEqual(stored.rows, [
      { id: '1', name: 'Tom', category_id: '1', status: null },
      { id: '2', name: 'Rex', category_id: '2', status: 'sold' },
    ]);
    await assert.rejects(admin.query("INSERT INTO shop.pets (name, category_id, status) VALUES ('x', 1, 'lost')"), /violates check constraint/);
    await storage.close?.();
  });

  test('createPostgresStorage() adds the idempotency columns and index to a table made before them, keeping its pets', async () => {
    const admin = pool(1);
    const table = freshTable();
    await admin.query(`CREATE TABLE "${table}" (
      id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE ${MAX} CACHE 1) PRIMARY KEY,
      name text NOT NULL,
      category_id bigint NOT NULL,
      status text
    )`);
    await admin.query(`INSERT INTO "${table}" (name, category_id, status) VALUES ('Old', 1, 'sold')`);
    const storage = await open(table);
    assert.ok(storage.insertOnce !== undefined);
    assert.deepEqual(await storage.list({ status: undefined, after: 0, limit: 10 }), [{ id: 1, name: 'Old', categoryId: 1, status: 'sold' }]);
    const pet = { name: 'New', categoryId: 2 };
    const first = await storage.insertOnce(pet, { key: 'k', fingerprint: 'f' });
    assert.deepEqual({ ...first, pet: { ...first.pet } }, { pet: { id: 2, ...pet }, fingerprint: 'f', isReplay: false });
    const again = await storage.insertOnce(pet, { key: 'k', fingerprint: 'other' });
    assert.deepEqual({ ...again, pet: { ...again.pet } }, { pet: { id: 2, ...pet }, fingerprint: 'f', isReplay: true });
    const stored = await admin.query(`SELECT id, idempotency_key, idempotency_fingerprint FROM "${table}" ORDER BY id`);
    assert.deepEqual(stored.rows, [{ id: '1', idempotency_key: null, idempotency_fingerprint: null }, { id: '2', idempotency_key: 'k', idempotency_fingerprint: 'f' }]);
    await storage.close?.();
    const reopened = await open(table);
    assert.equal((await reopened.insertOnce?.(pet, { key: 'k', fingerprint: 'f' }))?.isReplay, true, 'a second start finds the columns and changes nothing');
    await reopened.close?.();
  });

  test('two pools on one PostgreSQL table given the same idempotency key at once store one pet', async () => {
    const table = freshTable();
    const storages = await Promise.all(Array.from({ length: 4 }, () => open(table, 3)));
    // A pause between the insert and its commit, so the creates overlap in the database as on busy servers.
    const admin = pool(1);
    await admin.query("CREATE OR REPLACE FUNCTION delay_keyed_insert() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(0.02); RETURN NEW; END'");
    await admin.query(`CREATE TRIGGER delay_keyed_insert BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION delay_keyed_insert()`);
    const pet = { name: 'Once', categoryId: 7, status: 'available' as const };
    const results = await Promise.all(storages.flatMap((storage) => Array.from({ length: 3 }, () => {
      assert.ok(storage.insertOnce !== undefined);
      return storage.insertOnce(pet, { key: 'same-key', fingerprint: 'same' });
    })));
    assert.equal(results.filter((result) => !result.isReplay).length, 1, 'one create stored the pet');
    assert.equal(new Set(results.map((result) => result.pet.id)).size, 1, 'every create answered the same pet');
    assert.deepEqual((await admin.query(`SELECT count(*)::integer AS count FROM "${table}"`)).rows, [{ count: 1 }]);
    await Promise.all(storages.map((storage) => storage.close?.()));
  });

  test('createPostgresStorage() lists by status through the (status, id) index', async () => {
    const table = freshTable();
    const storage = await open(table);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(`EXPLAIN SELECT id FROM "${table}" WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`, ['sold', 10, 20]);
      assert.match(plan.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n'), new RegExp(`Index (Only )?Scan using "?${table}_status_id_idx"?`));
    } finally {
      await client.end();
      await storage.close?.();
    }
  });

  test('createPostgresStorage() keeps a mixed-case, schema-qualified table name exactly as given', async () => {
    const admin = pool(1);
    await admin.query('CREATE SCHEMA "Shop_2"');
    const storage = await open('Shop_2.Pets_Table');
    const pet = await storage.insert({ name: 'Rex', categoryId: 1 });
    assert.deepEqual((await admin.query('SELECT id, name FROM "Shop_2"."Pets_Table"')).rows, [{ id: String(pet.id), name: 'Rex' }]);
    await storage.close?.();
  });

  test('createPostgresStorage() lets several processes start on one new table at once', async () => {
    const table = freshTable();
    const storages = await Promise.all(Array.from({ length: 6 }, () => open(table, 1)));
    const pets = await Promise.all(storages.map((storage, index) => storage.insert({ name: `pet ${index}`, categoryId: index })));
    assert.equal(new Set(pets.map((pet) => pet.id)).size, 6);
    await Promise.all(storages.map((storage) => storage.close?.()));
  });

  test('createPostgresStorage() refuses an existing table without its columns', async () => {
    const admin = pool(1);
    const table = freshTable('other');
    await admin.query(`CREATE TABLE "${table}" (id bigint PRIMARY KEY, title text)`);
    const error = await rejection(() => open(table), 'internal_error');
    assert.match(error.message, new RegExp(`Cannot use table ${table}: it exists but lacks the columns`));
  });

  test('createPostgresStorage() hands out the largest safe id, then fails clearly instead of exceeding it', async () => {
    const admin = pool(1);
    const table = freshTable();
    const storage = await open(table);
    await admin.query(`ALTER TABLE "${table}" ALTER COLUMN id RESTART WITH ${MAX}`);
    assert.equal((await storage.insert({ name: 'Last', categoryId: 1 })).id, MAX);
    const error = await rejection(() => storage.insert({ name: 'One too many', categoryId: 1 }), 'internal_error');
    assert.match(error.message, /SQLSTATE 2200H/);
    await admin.query(`INSERT INTO "${table}" (id, name, category_id) OVERRIDING SYSTEM VALUE VALUES (${MAX} + 2, 'Forced', 1)`);
    const unsafe = await rejection(() => storage.list({ status: undefined, after: 0, limit: 10 }), 'internal_error');
    assert.match(unsafe.message, /`id` holds "9007199254740993"/);
    await storage.close?.();
  });

  test('createPostgresStorage() answers `unavailable` when nothing listens on the configured port', async () => {
    const owned = new pg.Pool({ connectionString: url.replace(/:\d+\//, ':1/') });
    const error = await rejection(() => createPostgresStorage({ query: owned.query.bind(owned) }), 'unavailable');
    assert.match(error.message, /ECONNREFUSED: nothing accepts connections/);
    await owned.end();
  });

  test('createPostgresStorage() answers `unavailable` for a database that does not exist', async () => {
    const owned = new pg.Pool({ connectionString: url.replace(/\/postgres$/, '/no_such_database') });
    const error = await rejection(() => createPostgresStorage({ query: owned.query.bind(owned) }), 'unavailable');
    assert.match(error.message, /3D000: the configured database does not exist/);
    await owned.end();
  });

  test('a PostgreSQL storage answers `unavailable` from every operation once the database is gone, and recovers', async () => {
    const working = pool();
    const refusing = new pg.Pool({ connectionString: url.replace(/:\d+\//, ':1/') });
    let target = working;
    const storage = await createPostgresStorage({ query: (text, values) => target.query(text, values), table: freshTable() });
    const store = createPetstore({ storage });
    const kept = await store.createPet({ name: 'Kept', categoryId: 1 });
    target = refusing;
    await rejection(() => store.createPet({ name: 'Lost', categoryId: 1 }), 'unavailable');
    await rejection(() => store.getPet(kept.id), 'unavailable');
    await rejection(() => store.listPets(), 'unavailable');
    target = working;
    assert.deepEqual(await store.listPets(), [kept]);
    await refusing.end();
  });

  test('checkReady() of a PostgreSQL storage resolves while the database answers, rejects with the reason while its queries fail, and recovers', async () => {
    const working = pool();
    const refusing = new pg.Pool({ connectionString: url.replace(/:\d+\//, ':1/') });
    let target = working;
    const storage = await createPostgresStorage({ query: (text, values) => target.query(text, values), table: freshTable() });
    await checkReady(storage);
    target = refusing;
    const error = await rejection(() => checkReady(storage), 'unavailable', /^Cannot reach the pets table: PostgreSQL is unavailable \(ECONNREFUSED: nothing accepts connections/);
    assert.equal(error.status, 503);
    target = working;
    await checkReady(storage);
    await refusing.end();
  });

  test('checkReady() of a PostgreSQL storage rejects once its table was dropped, naming the table', async () => {
    const table = freshTable();
    const storage = await open(table);
    await checkReady(storage);
    await pool(1).query(`DROP TABLE ${table}`);
    await rejection(() => checkReady(storage), 'unavailable', new RegExp(`reading table ${table} failed \\(42P01: relation "${table}" does not exist\\)`), /restart the server to create it again/);
    await storage.close?.();
  });

  test('checkReady() of a PostgreSQL storage rejects after its pool has ended', async () => {
    const storage = await open(freshTable());
    await storage.close?.();
    await rejection(() => checkReady(storage), 'unavailable', /connection failed or was closed/);
  });

  test('a PostgreSQL storage answers `unavailable` after its pool has ended', async () => {
    const storage = await open(freshTable());
    await storage.close?.();
    const error = await rejection(() => storage.list({ status: undefined, after: 0, limit: 1 }), 'unavailable');
    assert.match(error.message, /connection failed or was closed/);
  });

  test('a PostgreSQL insert cut off by a terminated connection says the pet may have been stored', async () => {
    const admin = pool(1);
    const table = freshTable();
    const inserting = new pg.Pool({ connectionString: url, max: 1, application_name: `inserter ${table}` });
    inserting.on('error', () => undefined);
    const storage = await createPostgresStorage({ query: inserting.query.bind(inserting), table });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      // Holding the insert lock from another session parks the insert where it can be cut off.
      await holder.query("SELECT pg_advisory_lock(1348826227, ($1::regclass::oid::bigint - 2147483648)::integer)", [table]);
      const insert = rejection(() => storage.insert({ name: 'Parked', categoryId: 1 }), 'unavailable');
      let isTerminated = false;
      // Bounded, so a storage that never waits for the lock fails the test instead of hanging it.
      for (let round = 0; round < 1_000 && !isTerminated; round++) {
        const waiting = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [`inserter ${table}`]);
        isTerminated = waiting.rows.length > 0;
        if (!isTerminated) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(isTerminated, 'the insert waited for the advisory lock');
      const error = await insert;
      assert.match(error.message, /57P01: the database server is shutting down.*The pet may have been stored/);
    } finally {
      await holder.end();
    }
    assert.equal((await storage.insert({ name: 'After', categoryId: 1 })).name, 'After', 'the pool replaces the terminated connection');
    await inserting.end();
  });

  test('a PostgreSQL insert answers `unavailable` when another session holds the insert lock past the lock timeout set inside its transaction', async () => {
    const table = freshTable();
    // No lock_timeout on the pool: the storage sets its own inside each create's transaction. The
    // statement timeout only keeps the test bounded should the storage's lock timeout be missing.
    const impatient = new pg.Pool({ connectionString: url, max: 1, statement_timeout: 5_000 });
    impatient.on('error', () => undefined);
    const storage = await createPostgresStorage({ query: impatient.query.bind(impatient), table, lockTimeout: 100 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(1348826227, ($1::regclass::oid::bigint - 2147483648)::integer)', [table]);
      const error = await rejection(() => storage.insert({ name: 'Blocked', categoryId: 1 }), 'unavailable');
      assert.match(error.message, /55P03: another session held a lock the create needed past lock_timeout/);
      const keyed = await rejection(() => storage.insertOnce?.({ name: 'Blocked', categoryId: 1 }, { key: 'k', fingerprint: 'f' }) ?? Promise.resolve(), 'unavailable');
      assert.match(keyed.message, /55P03/);
    } finally {
      await holder.end();
    }
    assert.deepEqual((await impatient.query('SHOW lock_timeout')).rows, [{ lock_timeout: '0' }], 'the lock timeout ended with its transaction; the session keeps none');
    assert.equal((await storage.insert({ name: 'Free again', categoryId: 1 })).name, 'Free again');
    await impatient.end();
  });

  test('a PostgreSQL storage keeps the `after` cursor exact while several pools insert at once', async () => {
    const table = freshTable();
    const writers = await Promise.all(Array.from({ length: 4 }, () => open(table, 4)));
    const reader = await open(table, 2);
    // A random pause after the id is allocated and before the commit, as on a busy server: without
    // the insert lock, a lower id then often commits after a higher one the reader has already seen.
    const admin = pool(1);
    await admin.query("CREATE OR REPLACE FUNCTION delay_insert() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(random() * 0.002); RETURN NEW; END'");
    await admin.query(`CREATE TRIGGER delay_insert BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION delay_insert()`);
    const created: Pet[] = [];
    let isWriting = true;
    const writing = Promise.all(
      writers.flatMap((writer, writerIndex) =>
        Array.from({ length: 4 }, async (_, lane) => {
          for (let index = 0; index < 40; index++) {
            created.push(await writer.insert({ name: `w${writerIndex} l${lane} #${index}`, categoryId: index, status: index % 2 === 0 ? 'available' : 'sold' }));
          }
        }),
      ),
    ).finally(() => {
      isWriting = false;
    });
    /** Pages forever from the last id seen, as a client polling with `after` would. */
    async function follow(status: 'available' | undefined): Promise<number[]> {
      const seen: number[] = [];
      let after = 0;
      for (;;) {
        const wasWriting = isWriting;
        const page = await reader.list({ status, after, limit: 7 });
        seen.push(...page.map((pet) => pet.id));
        after = page.at(-1)?.id ?? after;
        if (page.length === 0 && !wasWriting) return seen;
      }
    }
    const [all, available] = await Promise.all([follow(undefined), follow('available'), writing]);
    const expected = created.map((pet) => pet.id).sort((left, right) => left - right);
    assert.equal(expected.length, 640);
    assert.deepEqual(all, expected, 'the cursor saw every pet exactly once, in id order');
    assert.deepEqual(available, created.filter((pet) => pet.status === 'available').map((pet) => pet.id).sort((left, right) => left - right));
    await Promise.all([...writers, reader].map((storage) => storage.close?.()));
  });
});
