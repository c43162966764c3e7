import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import type { Pet, PetStorage } from '../../../lib/index.js';
import { createBatches } from '../../../extras/postgres/batches.js';
import { createPostgresStorage } from '../../../extras/postgres/index.js';
import { createOrderedPostgresStorage } from '../../../extras/postgres/storage.js';
import type { PostgresQuery, PostgresStorageOptions } from '../../../extras/postgres/index.js';
import { assertExactCursor, freshTable, makePool, startTestPgBouncer, startTestPostgres } from '../../support/postgres.js';
import { rejection } from '../../support/assertions.js';
import { deferred } from '../../support/deferred.js';

/** Batches of strings whose statements wait for `release`, recording what each statement carried. */
function recordingBatches(lanes: number, rows: number) {
  const statements: string[][] = [];
  const held = deferred();
  const batches = createBatches<string, string>({
    lanes,
    rows,
    alone: async (item) => {
      statements.push([item]);
      await held.promise;
      if (item === 'bad') throw new Error('refused');
      return `${item}!`;
    },
    together: async (items) => {
      statements.push([...items]);
      await held.promise;
      if (items.includes('bad')) throw new Error('refused together');
      return items.map((item) => ({ status: 'fulfilled', value: `${item}!` }));
    },
    keyOf: (item) => (item.startsWith('key:') ? item : undefined),
  });
  return { batches, statements, release: () => held.resolve() };
}

describe('createBatches()', () => {
  test('createBatches() sends each item alone while a lane is free, and the items that waited together when one ends', async () => {
    const { batches, statements, release } = recordingBatches(2, 10);
    const results = ['a', 'b', 'c', 'd', 'e'].map((item) => batches.run(item).result);
    assert.deepEqual(statements, [['a'], ['b']], 'two lanes: two items went at once, the rest wait');
    release();
    assert.deepEqual(await Promise.all(results), ['a!', 'b!', 'c!', 'd!', 'e!']);
    assert.deepEqual(statements, [['a'], ['b'], ['c', 'd', 'e']], 'the first lane to end took every item that waited');
  });

  test('createBatches() puts at most `rows` items in a statement and never two with one key', async () => {
    const { batches, statements, release } = recordingBatches(1, 3);
    const results = ['first', 'key:1', 'p', 'key:1', 'q', 'r', 'key:2'].map((item) => batches.run(item).result);
    release();
    await Promise.all(results);
    assert.deepEqual(statements, [['first'], ['key:1', 'p', 'q'], ['key:1', 'r', 'key:2']]);
  });

  test('createBatches() fails every item of a failed statement, and only those', async () => {
    const { batches, statements, release } = recordingBatches(1, 2);
    const results = ['first', 'bad', 'c', 'd'].map((item) => batches.run(item).result.catch((error: unknown) => (error instanceof Error ? error.message : 'other')));
    release();
    assert.deepEqual(await Promise.all(results), ['first!', 'refused together', 'refused together', 'd!']);
    assert.deepEqual(statements, [['first'], ['bad', 'c'], ['d']]);
  });

  test('createBatches() takes back an item that still waits, and only then', async () => {
    const { batches, statements, release } = recordingBatches(1, 10);
    const sent = batches.run('sent');
    const waiting = batches.run('waiting');
    const kept = batches.run('kept');
    assert.equal(sent.withdraw(), false, 'sent already');
    assert.equal(waiting.withdraw(), true);
    assert.equal(waiting.withdraw(), false, 'taken back once');
    release();
    assert.deepEqual([await sent.result, await kept.result], ['sent!', 'kept!']);
    assert.deepEqual(statements, [['sent'], ['kept']], 'the item taken back was never sent');
  });
});

const postgres = await startTestPostgres();
const pgbouncer = postgres.cluster === undefined
  ? { bouncer: undefined, skip: postgres.skip }
  : await startTestPgBouncer(postgres.cluster, { pool_mode: 'transaction', default_pool_size: '3', max_client_conn: '100' });

/** Storages on pools of `url`, on named statements, their pools ended after the tests. */
function storagesOn(url: string): (table: string, options?: Partial<PostgresStorageOptions>) => Promise<PetStorage> {
  const pools: pg.Pool[] = [];
  after(() => Promise.all(pools.map((pool) => pool.end())));
  return (table, options = {}) => {
    const pool = makePool(url, 10);
    pools.push(pool);
    return createPostgresStorage({ query: pool.query.bind(pool), preparedQuery: (statement) => pool.query(statement), table, ...options });
  };
}

/** Whether a statement text is the batch insert (it takes the rows from arrays). */
function isBatch(text: string): boolean {
  return text.includes('unnest(');
}

describe('createPostgresStorage() batching creates on PostgreSQL', { skip: postgres.skip }, () => {
  const url = postgres.cluster?.url ?? '';
  const open = storagesOn(url);

  test('a PostgreSQL storage stores creates that wait for a lane together, each create receiving its own pet', async () => {
    const table = freshTable();
    const batches: unknown[][] = [];
    const pool = makePool(url, 10);
    after(() => pool.end());
    const storage = await createPostgresStorage({
      query: pool.query.bind(pool),
      preparedQuery: (statement) => {
        if (isBatch(statement.text)) batches.push(statement.values[1] as unknown[]);
        return pool.query(statement);
      },
      table,
      createLanes: 1,
    });
    const creates = Array.from({ length: 40 }, (_, index) =>
      index % 3 === 0
        ? storage.insertOnce?.({ name: `keyed ${index}`, categoryId: index, status: 'sold' }, { key: `key-${39 - index}`, fingerprint: `print ${index}` }).then((result) => result.pet)
        : storage.insert({ name: `plain ${index}`, categoryId: index, ...(index % 2 === 0 ? { status: 'pending' as const } : {}) }),
    );
    const pets = await Promise.all(creates);
    assert.ok(batches.length > 0 && batches.every((names) => names.length > 1), 'the creates that waited went in batches');
    pets.forEach((pet, index) => {
      assert.ok(pet !== undefined);
      assert.equal(pet.name, index % 3 === 0 ? `keyed ${index}` : `plain ${index}`, 'each create received its own pet');
      assert.equal(pet.categoryId, index);
    });
    assert.equal(new Set(pets.map((pet) => pet?.id)).size, 40, 'forty pets, forty ids');
    const plainIds = pets.filter((pet, index) => index % 3 !== 0 && pet !== undefined).map((pet) => pet?.id ?? 0);
    assert.deepEqual(plainIds, [...plainIds].sort((left, right) => left - right), 'pets without a key took their ids in the order their creates came');
    const listed = await storage.list({ status: undefined, after: 0, limit: 100 });
    assert.deepEqual(listed.map((pet) => pet.id), pets.map((pet) => pet?.id ?? 0).sort((left, right) => left - right));
    for (const pet of pets) assert.deepEqual(await storage.get(pet?.id ?? 0), pet);
  });

  test('a PostgreSQL storage answers a keyed create in a batch whose key is stored already with the earlier pet', async () => {
    const table = freshTable();
    const storage = await open(table, { createLanes: 1 });
    const insertOnce = storage.insertOnce?.bind(storage);
    assert.ok(insertOnce !== undefined);
    const first = await insertOnce({ name: 'Rex', categoryId: 1 }, { key: 'k-1', fingerprint: 'rex' });
    const held = storage.insert({ name: 'Ahead', categoryId: 2 });
    const [replay, other, again] = await Promise.all([
      insertOnce({ name: 'Rex', categoryId: 1 }, { key: 'k-1', fingerprint: 'rex' }),
      insertOnce({ name: 'Tom', categoryId: 3 }, { key: 'k-2', fingerprint: 'tom' }),
      insertOnce({ name: 'Not Rex', categoryId: 9 }, { key: 'k-1', fingerprint: 'not rex' }),
      held,
    ]);
    assert.deepEqual(replay, { pet: first.pet, fingerprint: 'rex', isReplay: true });
    assert.deepEqual(again, { pet: first.pet, fingerprint: 'rex', isReplay: true }, 'the earlier fingerprint, for the engine to compare');
    assert.equal(other.isReplay, false);
    assert.equal(other.pet.name, 'Tom');
    assert.equal((await storage.list({ status: undefined, after: 0, limit: 10 })).length, 3, 'Rex, Ahead and Tom: no second Rex');
  });

  test('PostgreSQL storages in two processes batching the same keys in opposite orders store each key once and never deadlock', async () => {
    const table = freshTable();
    const [left, right] = await Promise.all([open(table, { createLanes: 1 }), open(table, { createLanes: 1 })]);
    const admin = makePool(url, 1);
    after(() => admin.end());
    // A pause in every row, so the two batches are surely inserting at the same time.
    await admin.query(`CREATE FUNCTION "${table}_pause"() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(0.002); RETURN NEW; END'`);
    await admin.query(`CREATE TRIGGER pause BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${table}_pause"()`);
    const keys = Array.from({ length: 24 }, (_, index) => `shared-${String(index).padStart(2, '0')}`);
    const results = await Promise.all([
      ...[left, right].map((storage) => storage.insert({ name: 'holds the lane', categoryId: 0 })),
      ...keys.flatMap((key, index) => [
        left.insertOnce?.({ name: key, categoryId: index }, { key, fingerprint: key }),
        right.insertOnce?.({ name: key, categoryId: index }, { key: keys[keys.length - 1 - index] ?? key, fingerprint: keys[keys.length - 1 - index] ?? key }),
      ]),
    ]);
    const stored = await left.list({ status: undefined, after: 0, limit: 100 });
    assert.equal(stored.length, 2 + keys.length, 'one pet for each key, plus the two without');
    assert.equal(results.filter((result) => result !== undefined && 'isReplay' in result && !result.isReplay).length, keys.length, 'each key stored by exactly one create');
  });

  test('a PostgreSQL storage fails only the create at fault when the database refuses one row of a batch', async () => {
    const table = freshTable();
    const admin = makePool(url, 1);
    after(() => admin.end());
    const storage = await open(table, { createLanes: 1 });
    await admin.query(`ALTER TABLE "${table}" ADD CONSTRAINT no_forbidden CHECK (name <> 'Forbidden')`);
    const outcomes = await Promise.allSettled(['First', 'Fine', 'Forbidden', 'Also fine'].map((name) => storage.insert({ name, categoryId: 1 })));
    assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    assert.deepEqual((await storage.list({ status: undefined, after: 0, limit: 10 })).map((pet) => pet.name).sort(), ['Also fine', 'Fine', 'First']);
  });

  test('a PostgreSQL storage takes back a create whose deadline passes while it waits for a lane, and says it was not stored', async () => {
    const table = freshTable();
    const admin = makePool(url, 1);
    after(() => admin.end());
    const storage = await open(table, { createLanes: 1, deadline: 300 });
    // A stray session holds the insert lock exclusively, so the first create waits for it in the only lane.
    const holder = await admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(1348826227, ('"${table}"'::regclass::oid::bigint - 2147483648)::integer)`);
      const ahead = rejection(() => storage.insert({ name: 'Ahead', categoryId: 1 }), 'unavailable');
      const waiting = await rejection(() => storage.insert({ name: 'Waiting', categoryId: 2 }), 'unavailable');
      assert.match(waiting.message, /never sent to PostgreSQL, so it was not stored/);
      assert.match((await ahead).message, /may have been stored/);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    const names = (await storage.list({ status: undefined, after: 0, limit: 10 })).map((pet) => pet.name);
    assert.ok(!names.includes('Waiting'), 'the create taken back was never stored');
  });

  test('createPostgresStorage() refuses a lane count or batch size that is not a whole number of 1 or more', async () => {
    for (const options of [{ createLanes: 0 }, { createLanes: 1.5 }, { batchSize: 0 }, { batchSize: Number.NaN }]) {
      await assert.rejects(createPostgresStorage({ query: () => Promise.reject(new Error('no statement may run')), ...options }), /must be a whole number of 1 or more/);
    }
  });

  test('a PostgreSQL list never passes the lowest id of a batch still in flight, though another create took an id between its rows and committed', async () => {
    const table = freshTable();
    const admin = makePool(url, 1);
    after(() => admin.end());
    const plain = await open(table, { listLanes: 1 });
    // Rows named Gate <n> wait in their insert until the test lets advisory lock <n> go.
    await admin.query(`CREATE FUNCTION "${table}_gate"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name LIKE 'Gate %' THEN
          PERFORM pg_advisory_lock_shared(substr(NEW.name, 6)::bigint);
          PERFORM pg_advisory_unlock_shared(substr(NEW.name, 6)::bigint);
        END IF;
        RETURN NEW;
      END $$`);
    await admin.query(`CREATE TRIGGER gate BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${table}_gate"()`);
    const gates = makePool(url, 1);
    after(() => gates.end());
    const gateSession = await gates.connect();
    await gateSession.query('SELECT pg_advisory_lock(901), pg_advisory_lock(902)');
    const waitsAt = async (gateKey: number): Promise<void> => {
      for (;;) {
        const { rows } = await admin.query('SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = $1 AND objid = $2 AND NOT granted', ['advisory', gateKey]);
        if (rows[0]?.waiting === 1) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    // The batch's transaction stays open after its statement until the test commits it.
    const batchPool = makePool(url, 2);
    after(() => batchPool.end());
    const inFlight = deferred();
    const commit = deferred();
    const holding: PostgresQuery = async (text, values) => {
      if (!isBatch(text)) return batchPool.query(text, values);
      const client = await batchPool.connect();
      try {
        await client.query('BEGIN');
        const result = await client.query(text, values);
        inFlight.resolve();
        await commit.promise;
        await client.query('COMMIT');
        return result;
      } finally {
        client.release();
      }
    };
    const batching = await createPostgresStorage({ query: holding, table, createLanes: 1 });
    const lone = batching.insert({ name: 'Gate 901', categoryId: 1 });
    const batch = Promise.all([batching.insert({ name: 'Gate 902', categoryId: 2 }), batching.insert({ name: 'Tail', categoryId: 3 })]);
    await waitsAt(901);
    await gateSession.query('SELECT pg_advisory_unlock(901)');
    const first = await lone;
    // The batch's first row has its id and waits; a create elsewhere takes the next id and commits.
    await waitsAt(902);
    const late = await plain.insert({ name: 'Late', categoryId: 4 });
    await gateSession.query('SELECT pg_advisory_unlock(902)');
    gateSession.release();
    await inFlight.promise;
    try {
      assert.deepEqual(await plain.get(late.id), late);
      const pages = await Promise.all([0, 0, 0].map((after) => plain.list({ status: undefined, after, limit: 10 })));
      assert.deepEqual(pages, [[first], [first], [first]], 'lists, alone and batched, stop below the batch in flight, not at its highest id');
    } finally {
      commit.resolve();
    }
    const [gated, tail] = await batch;
    assert.ok(gated.id < late.id && late.id < tail.id, 'the late create took an id between the rows of the batch');
    assert.deepEqual(await plain.list({ status: undefined, after: 0, limit: 10 }), [first, gated, late, tail]);
  });

  test('PostgreSQL storages batching their creates and lists keep the `after` cursor exact while several pools insert at once', async () => {
    const table = freshTable();
    const writers = await Promise.all(Array.from({ length: 3 }, () => open(table, { createLanes: 2 })));
    const admin = makePool(url, 1);
    after(() => admin.end());
    // A random pause in each batch's transaction, after its ids are allocated and before it commits.
    await admin.query(`CREATE OR REPLACE FUNCTION "${table}_delay"() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(random() * 0.004); RETURN NULL; END'`);
    await admin.query(`CREATE TRIGGER delay AFTER INSERT ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "${table}_delay"()`);
    // The cursor's lists share one lane with other lists, so most of them go in batches.
    const reader = await open(table, { listLanes: 1 });
    let isChecking = true;
    const noise = (async () => {
      while (isChecking) await Promise.all((['available', undefined, 'sold'] as const).map((status) => reader.list({ status, after: 0, limit: 5 })));
    })();
    await assertExactCursor(writers, reader, 8, 12).finally(() => {
      isChecking = false;
    });
    await noise;
  });

  test('a PostgreSQL storage answers lists that wait for a lane together, each list its own page, in either ordering', async () => {
    const table = freshTable();
    const alone = await open(table);
    const statuses = ['available', 'pending', 'sold', undefined] as const;
    for (let index = 0; index < 30; index++) {
      const status = statuses[index % 4];
      await alone.insert({ name: `pet ${index}`, categoryId: index, ...(status === undefined ? {} : { status }) });
    }
    const distinct = Array.from({ length: 24 }, (_, index) => ({ status: statuses[index % 4], after: index % 5 === 4 ? 1_000 : index, limit: 1 + (index % 7) }));
    // Some lists ask the same as others: the statement asks once, and each gets a page of its own.
    const wanted = [...distinct, ...distinct.slice(0, 6).map((query) => ({ ...query }))];
    const expected = [];
    for (const query of wanted) expected.push(await alone.list(query));
    const pool = makePool(url, 4);
    after(() => pool.end());
    const batchedTexts: string[] = [];
    const recording: PostgresQuery = (text, values) => {
      if (text.includes('WITH ORDINALITY AS wanted')) batchedTexts.push(text);
      return pool.query(text, values);
    };
    for (const ordering of ['claims', 'lock'] as const) {
      const batching = await createOrderedPostgresStorage({ query: recording, table, listLanes: 1 }, ordering);
      const pages = await Promise.all(wanted.map((query) => batching.list(query)));
      assert.deepEqual(pages, expected, `${ordering}: each list got the page it would get alone`);
      assert.ok(pages.slice(24).every((page, index) => page !== pages[index]), `${ordering}: lists that asked the same got arrays of their own`);
    }
    assert.equal(new Set(batchedTexts).size, 2, 'both orderings listed in batches');
  });
});

describe('createPostgresStorage() batching creates through PgBouncer in transaction mode', { skip: pgbouncer.skip }, () => {
  const open = storagesOn(pgbouncer.bouncer?.url ?? '');

  test('PostgreSQL storages batching their creates through PgBouncer in transaction mode store every pet once, the cursor exact', async () => {
    const table = freshTable();
    const writers = await Promise.all(Array.from({ length: 2 }, () => open(table, { createLanes: 1 })));
    await assertExactCursor(writers, await open(table), 6, 10);
    const keyed: (Pet | undefined)[] = await Promise.all(
      Array.from({ length: 12 }, (_, index) => writers[index % 2]?.insertOnce?.({ name: `keyed ${index % 6}`, categoryId: 1 }, { key: `pgb-${index % 6}`, fingerprint: 'f' }).then((result) => result.pet)),
    );
    assert.equal(new Set(keyed.map((pet) => pet?.id)).size, 6, 'six keys, six pets, whichever writer sent each');
  });
});
