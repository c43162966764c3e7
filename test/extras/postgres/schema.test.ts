import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import type { Pet, PetStatus, PetStorage } from '../../../lib/index.js';
import { createPostgresStorage } from '../../../extras/postgres/index.js';
import type { PostgresQuery } from '../../../extras/postgres/index.js';
import { createOrderedPostgresStorage } from '../../../extras/postgres/storage.js';
import { runStorageContract } from '../../../server/testing/index.js';
import { deferred } from '../../support/deferred.js';
import { rejection } from '../../support/assertions.js';
import { freshTable, makePool, startTestPostgres } from '../../support/postgres.js';

/** How a held create ends once the test releases it. */
type Ending = 'COMMIT' | 'ROLLBACK';

/** A create the test holds in flight: its id is taken and its row written, but it has not committed. */
interface HeldCreate {
  /** The storage whose next insert is held. */
  storage: PetStorage;
  /** Resolves once the insert statement has run inside the open transaction. */
  started: Promise<{ id: number; pid: number }>;
  /** Lets the transaction end. */
  release: (ending: Ending) => void;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/**
 * A query function over `pool` that runs every insert in a transaction of its own and, between the
 * insert statement and the end of the transaction, awaits `hold` with the inserted row and the
 * backend's pid: the create stays in flight, holding its id, for as long as `hold` takes.
 */
function holdingQuery(pool: pg.Pool, hold: (row: unknown, pid: number) => Promise<Ending>): PostgresQuery {
  // A backend terminated while idle in the transaction reports on its client; the statement that follows fails instead.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return async (text, values) => {
    if (!text.includes('INSERT INTO')) return pool.query(text, values);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const session = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const result = await client.query(text, values);
      const ending = await hold(result.rows[0], Number(session.rows[0]?.pid));
      await client.query(ending);
      if (ending === 'ROLLBACK') throw new Error('the create was rolled back');
      client.release();
      return result;
    } catch (error) {
      client.release(true);
      throw error;
    }
  };
}

function idOf(row: unknown): number {
  const id: unknown = typeof row === 'object' && row !== null ? Object.getOwnPropertyDescriptor(row, 'id')?.value : undefined;
  return Number(id);
}

/** Counts neighbours in acknowledgement order whose ids run backwards, i.e. commits out of id order. */
function inversions(pets: readonly Pet[]): number {
  return pets.filter((pet, index) => index > 0 && pet.id < (pets[index - 1] as Pet).id).length;
}

const postgres = await startTestPostgres();

const url = postgres.cluster?.url ?? '';
/** Options of every test here: skipped without PostgreSQL binaries, bounded so a lock that is never released fails instead of hanging. */
const ON_POSTGRES = { skip: postgres.skip, timeout: 60_000 };
const pools = new Set<pg.Pool>();

function pool(max = 10): pg.Pool {
  const created = makePool(url, max);
  pools.add(created);
  return created;
}

after(async () => {
  await Promise.all([...pools].map((target) => target.end()));
});

/** A storage on `table` over a pool of its own: one "server process". */
function open(table: string, max = 4): Promise<PetStorage> {
  const owned = pool(max);
  return createPostgresStorage({ query: owned.query.bind(owned), table });
}

/** A storage on `table` whose next create the test holds open, then releases. */
async function holdOneCreate(table: string): Promise<HeldCreate> {
  const started = deferred<{ id: number; pid: number }>();
  const released = deferred<Ending>();
  const query = holdingQuery(pool(2), async (row, pid) => {
    started.resolve({ id: idOf(row), pid });
    return released.promise;
  });
  return { storage: await createPostgresStorage({ query, table }), started: started.promise, release: released.resolve };
}

/** Lists every status view from the start, as a client beginning to page would. */
async function firstPages(storage: PetStorage): Promise<Pet[][]> {
  const statuses: (PetStatus | undefined)[] = [undefined, 'sold'];
  return Promise.all(statuses.map((status) => storage.list({ status, after: 0, limit: 10 })));
}

test('a PostgreSQL list never passes a create still in flight, which getPet shows at once, and shows the pet once that create commits', ON_POSTGRES, async () => {
  const table = freshTable();
  const plain = await open(table);
  const held = await holdOneCreate(table);
  // The list statement of the old design, which relied on creates committing in id order.
  const owned = pool(1);
  const unbounded = await createOrderedPostgresStorage({ query: owned.query.bind(owned), table }, 'lock');
  const first = await plain.insert({ name: 'First', categoryId: 1, status: 'sold' });
  const creating = held.storage.insert({ name: 'Held', categoryId: 2, status: 'sold' });
  const { id: heldId } = await held.started;
  const late = await plain.insert({ name: 'Late', categoryId: 3, status: 'sold' });
  assert.ok(first.id < heldId && heldId < late.id, 'the held create took its id before the late one');
  assert.deepEqual(await plain.get(late.id), late, 'an acknowledged create is readable at once');
  assert.equal(await plain.get(heldId), undefined);
  assert.deepEqual(await firstPages(plain), [[first], [first]], 'lists stop below the create in flight');
  assert.deepEqual(await plain.list({ status: undefined, after: first.id, limit: 10 }), []);
  assert.deepEqual(await unbounded.list({ status: undefined, after: 0, limit: 10 }), [first, late], 'without the bound, a cursor would pass the held id');
  held.release('COMMIT');
  const heldPet = await creating;
  assert.equal(heldPet.id, heldId);
  assert.deepEqual(await firstPages(plain), [[first, heldPet, late], [first, heldPet, late]]);
});

test('a PostgreSQL list never passes a create paused between taking its id and writing its row', ON_POSTGRES, async () => {
  const table = freshTable();
  const gateKey = 4_242;
  const admin = pool(1);
  // A trigger runs after the identity's nextval and before the row exists: the create waits there on the gate.
  await admin.query(`CREATE FUNCTION "${table}_gate"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.name = 'Held' THEN PERFORM pg_advisory_xact_lock(${gateKey}); END IF; RETURN NEW; END $$`);
  const plain = await open(table);
  await admin.query(`CREATE TRIGGER gate BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${table}_gate"()`);
  const gate = new pg.Client({ connectionString: url });
  await gate.connect();
  try {
    await gate.query('SELECT pg_advisory_lock($1)', [gateKey]);
    const first = await plain.insert({ name: 'First', categoryId: 1, status: 'sold' });
    const creating = plain.insert({ name: 'Held', categoryId: 2, status: 'sold' });
    let isWaiting = false;
    // Bounded, so a create that never reaches the gate fails the test instead of hanging it.
    for (let round = 0; round < 1_000 && !isWaiting; round++) {
      const waiting = await admin.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = $1", [gateKey]);
      isWaiting = waiting.rows.length > 0;
      if (!isWaiting) await sleep(10);
    }
    assert.ok(isWaiting, 'the held create waits at the gate');
    const late = await plain.insert({ name: 'Late', categoryId: 3, status: 'sold' });
    assert.deepEqual(await plain.get(late.id), late);
    assert.deepEqual(await firstPages(plain), [[first], [first]]);
    await gate.query('SELECT pg_advisory_unlock($1)', [gateKey]);
    const heldPet = await creating;
    assert.ok(heldPet.id < late.id, 'the held create took its id first and committed last');
    assert.deepEqual(await firstPages(plain), [[first, heldPet, late], [first, heldPet, late]]);
  } finally {
    await gate.end();
  }
});

test('a PostgreSQL list shows a pet once every create with a smaller id has finished, whatever larger ids are still in flight', ON_POSTGRES, async () => {
  const table = freshTable();
  const plain = await open(table);
  const [older, younger] = [await holdOneCreate(table), await holdOneCreate(table)];
  const first = await plain.insert({ name: 'First', categoryId: 1, status: 'sold' });
  const creatingOlder = older.storage.insert({ name: 'Older', categoryId: 2, status: 'sold' });
  const { id: olderId } = await older.started;
  // The younger create starts while the older one is uncommitted, so the largest id it sees is First's.
  const creatingYounger = younger.storage.insert({ name: 'Younger', categoryId: 3, status: 'sold' });
  const { id: youngerId } = await younger.started;
  assert.ok(olderId < youngerId);
  assert.deepEqual(await firstPages(plain), [[first], [first]]);
  older.release('COMMIT');
  const olderPet = await creatingOlder;
  assert.deepEqual(await firstPages(plain), [[first, olderPet], [first, olderPet]], 'the younger create in flight does not hold back the older pet');
  younger.release('COMMIT');
  const youngerPet = await creatingYounger;
  assert.deepEqual(await firstPages(plain), [[first, olderPet, youngerPet], [first, olderPet, youngerPet]]);
});

test('a PostgreSQL create in flight on another table holds back no list of this one', ON_POSTGRES, async () => {
  const [table, other] = [freshTable(), freshTable()];
  const plain = await open(table);
  await open(other);
  const [elsewhere, here] = [await holdOneCreate(other), await holdOneCreate(table)];
  const pet = await plain.insert({ name: 'Here', categoryId: 2, status: 'sold' });
  // The other table is empty, so its create claims floor 0; the one here claims the pet's id.
  const creatingElsewhere = elsewhere.storage.insert({ name: 'Elsewhere', categoryId: 1 });
  await elsewhere.started;
  const creatingHere = here.storage.insert({ name: 'Later', categoryId: 3, status: 'sold' });
  await here.started;
  assert.deepEqual(await firstPages(plain), [[pet], [pet]]);
  elsewhere.release('COMMIT');
  here.release('COMMIT');
  await Promise.all([creatingElsewhere, creatingHere]);
});

test('a PostgreSQL create that rolls back or loses its connection holds back no list', ON_POSTGRES, async () => {
  for (const ending of ['rollback', 'terminated connection'] as const) {
    const table = freshTable();
    const plain = await open(table);
    const held = await holdOneCreate(table);
    const first = await plain.insert({ name: 'First', categoryId: 1, status: 'sold' });
    const creating = held.storage.insert({ name: 'Held', categoryId: 2, status: 'sold' });
    const { id: heldId, pid } = await held.started;
    const late = await plain.insert({ name: 'Late', categoryId: 3, status: 'sold' });
    assert.deepEqual(await firstPages(plain), [[first], [first]], ending);
    if (ending === 'rollback') {
      held.release('ROLLBACK');
    } else {
      // With a timeout, pg_terminate_backend returns once the backend has exited and released its locks.
      assert.deepEqual((await pool(1).query('SELECT pg_terminate_backend($1, 5000) AS done', [pid])).rows, [{ done: true }]);
      assert.deepEqual(await firstPages(plain), [[first, late], [first, late]], 'the claim ended with the connection');
      held.release('COMMIT');
    }
    await rejection(() => creating, 'unavailable');
    assert.deepEqual(await firstPages(plain), [[first, late], [first, late]], ending);
    assert.equal(await plain.get(heldId), undefined);
  }
});

test('a PostgreSQL storage keeps the `after` cursor exact while creates from several pools commit out of id order', ON_POSTGRES, async () => {
  const table = freshTable();
  // Every create holds its transaction open for a random 0-10 ms after taking its id, so commits overtake each other.
  const holdAWhile = async (): Promise<Ending> => {
    await sleep(Math.random() * 10);
    return 'COMMIT';
  };
  const writers = await Promise.all(Array.from({ length: 4 }, () => createPostgresStorage({ query: holdingQuery(pool(8), holdAWhile), table })));
  const [reader, checker] = [await open(table), await open(table, 2)];
  const acknowledged: Pet[] = [];
  let isWriting = true;
  const writing = Promise.all(
    writers.flatMap((writer, writerIndex) =>
      Array.from({ length: 8 }, async (_, lane) => {
        for (let index = 0; index < 25; index++) {
          const pet = await writer.insert({ name: `w${writerIndex} l${lane} #${index}`, categoryId: index, status: index % 2 === 0 ? 'available' : 'sold' });
          acknowledged.push(pet);
          assert.deepEqual(await checker.get(pet.id), pet, 'an acknowledged create is readable at once through another pool');
        }
      }),
    ),
  ).finally(() => {
    isWriting = false;
  });
  /** Pages from the last id seen until the writers are done and a page comes back empty, as a polling client would. */
  async function follow(status: PetStatus | undefined): Promise<number[]> {
    const seen: number[] = [];
    let afterId = 0;
    for (;;) {
      const wasWriting = isWriting;
      const page = await reader.list({ status, after: afterId, limit: 7 });
      seen.push(...page.map((pet) => pet.id));
      afterId = page.at(-1)?.id ?? afterId;
      if (page.length === 0 && !wasWriting) return seen;
    }
  }
  const [all, available] = await Promise.all([follow(undefined), follow('available'), writing]);
  const sorted = (pets: readonly Pet[]): number[] => pets.map((pet) => pet.id).sort((left, right) => left - right);
  assert.equal(acknowledged.length, 800);
  assert.ok(inversions(acknowledged) > 0, 'creates were acknowledged out of id order');
  assert.deepEqual(all, sorted(acknowledged), 'the cursor saw every pet exactly once, in id order');
  assert.deepEqual(available, sorted(acknowledged.filter((pet) => pet.status === 'available')));
});

test('a PostgreSQL list forgets the bound it cached once its table is dropped and created again', ON_POSTGRES, async () => {
  const table = freshTable();
  const reader = await open(table, 1);
  const old = await Promise.all(Array.from({ length: 5 }, (_, index) => reader.insert({ name: `Old ${index}`, categoryId: index })));
  assert.equal((await reader.list({ status: undefined, after: 0, limit: 10 })).length, 5, 'the session caches a bound of 5');
  await pool(1).query(`DROP TABLE "${table}"`);
  await open(table);
  const held = await holdOneCreate(table);
  const first = await reader.insert({ name: 'First', categoryId: 1 });
  const creating = held.storage.insert({ name: 'Held', categoryId: 2 });
  await held.started;
  const late = await reader.insert({ name: 'Late', categoryId: 3 });
  assert.ok(late.id <= (old.at(-1) as Pet).id, 'the new table hands out ids the old one had');
  assert.deepEqual(await reader.list({ status: undefined, after: 0, limit: 10 }), [first]);
  held.release('COMMIT');
  // The create is acknowledged once its COMMIT has returned: a list sent before that may see it in
  // flight and rightly stop below it, as the assertion above shows.
  const heldPet = await creating;
  assert.deepEqual(await reader.list({ status: undefined, after: 0, limit: 10 }), [first, heldPet, late]);
});

test('a PostgreSQL list refuses to run under REPEATABLE READ, where its bound would not be exact', ON_POSTGRES, async () => {
  const table = freshTable();
  await open(table);
  const strict = new pg.Pool({ connectionString: url, max: 1, options: '-c default_transaction_isolation=repeatable\\ read' });
  pools.add(strict);
  const storage = await createPostgresStorage({ query: strict.query.bind(strict), table });
  const pet = await storage.insert({ name: 'Rex', categoryId: 1 });
  assert.deepEqual(await storage.get(pet.id), pet);
  await rejection(() => storage.list({ status: undefined, after: 0, limit: 5 }), 'internal_error', /SQLSTATE 0A000: listing pets needs READ COMMITTED isolation, not repeatable read/);
});

test('createPostgresStorage() leaves an identical list function alone and restores one that was changed', ON_POSTGRES, async () => {
  const table = freshTable();
  const admin = pool(1);
  const version = async (): Promise<unknown[]> =>
    (await admin.query('SELECT xmin::text AS version, prosrc FROM pg_proc WHERE oid = to_regprocedure($1)', [`"${table}_list_after"(text, bigint, integer)`])).rows;
  const storage = await open(table);
  const pet = await storage.insert({ name: 'Rex', categoryId: 1 });
  const created = await version();
  assert.equal(created.length, 1);
  await open(table);
  assert.deepEqual(await version(), created, 'a second start changes nothing');
  await admin.query(`CREATE OR REPLACE FUNCTION "${table}_list_after"(wanted_status text, after_id bigint, page_size integer)
    RETURNS TABLE (id bigint, name text, category_id bigint, status text) LANGUAGE plpgsql AS 'BEGIN END'`);
  assert.deepEqual(await storage.list({ status: undefined, after: 0, limit: 5 }), []);
  await open(table);
  assert.deepEqual((await version()).map((row) => Object.getOwnPropertyDescriptor(row, 'prosrc')?.value), created.map((row) => Object.getOwnPropertyDescriptor(row, 'prosrc')?.value));
  assert.deepEqual(await storage.list({ status: undefined, after: 0, limit: 5 }), [pet]);
});

describe('a PostgreSQL storage ordered by the insert lock (the benchmark baseline)', { skip: postgres.skip }, () => {
  runStorageContract('postgres, ordered by the insert lock', {
    async makeStorage() {
      const owned = pool(4);
      return createOrderedPostgresStorage({ query: owned.query.bind(owned), table: freshTable(), end: () => Promise.resolve() }, 'lock');
    },
  });
});
