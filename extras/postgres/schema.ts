import { MAX_SAFE_ID, PET_STATUSES } from '../../lib/index.js';
import { siblingName } from './table.js';
import type { TableName } from './table.js';

/**
 * Advisory lock keys, namespaced by a first key that spells "Pets" in ASCII so they are easy to
 * recognise in `pg_locks` and unlikely to meet another application's keys.
 */
const LOCK_NAMESPACE = 0x50657473;
const SETUP_LOCK = 0;

/**
 * Claims are single-key (bigint) advisory locks whose key is this base plus a floor id: the top
 * byte is "P", the low 53 bits the floor, so `pg_locks` shows them with a classid from
 * 0x50000000 up and the floor can be read back exactly (`(classid - 0x50000000) * 2^32 + objid`).
 */
const CLAIM_CLASSID = 0x50000000;
const CLAIM_KEY_BASE = (BigInt(CLAIM_CLASSID) << 32n).toString();
/** Floors are ids, below 2^53, so a claim's classid stays below CLAIM_CLASSID + 2^21. */
const CLAIM_CLASSID_LAST = CLAIM_CLASSID + 2 ** 21 - 1;

/**
 * How creates keep the `after` cursor exact (docs/postgres.md, "Ids and the `after` cursor"):
 * - `claims`: creates run in parallel; each publishes, before it takes its id, a claim that no
 *   list may pass, and lists stop below the lowest claim of a create still in flight.
 * - `lock`: the earlier design, kept for the tests that show what the claims prevent: one exclusive lock
 *   per table serialises creates, so ids commit in order and lists need no bound. Lists in this
 *   mode are exact only while every process on the table uses it too.
 */
export type PostgresOrdering = 'claims' | 'lock';

const STATUS_LIST = PET_STATUSES.map((status) => `'${status}'`).join(', ');
const COLUMNS = 'id, name, category_id, status';

/** The SQL text of every statement the storage runs, for one table; values always go as parameters. */
export interface Statements {
  /** Creates the table, its index and its list function if missing; one statement, so any query function can run it. */
  setup: string;
  /** Fails with SQLSTATE 42703/42P01 unless the table has the columns this storage reads. */
  probe: string;
  /** $1 the quoted table name (for the lock key), $2 name, $3 categoryId, $4 status or null, $5 the lock timeout (ms). */
  insert: string;
  /** As `insert`, plus $6 the idempotency key and $7 its fingerprint; returns no row when the key is stored already. */
  insertOnce: string;
  /**
   * Many pets in one statement: as `insertOnce` with an array in each of $2, $3, $4, $6 and $7 (a
   * NULL key for a pet without one); returns the rows it stored with their keys, none for a key
   * stored already.
   */
  insertBatch: string;
  /** $1 an idempotency key: the pet stored with it and its fingerprint. */
  getByKey: string;
  /** $1 id. */
  get: string;
  /** $1 after, $2 limit. */
  listAll: string;
  /** $1 status, $2 after, $3 limit. */
  listByStatus: string;
  /** Many lists in one statement: $1 statuses (NULL for any), $2 afters, $3 limits; each row with the `position` (from 1) of the list it belongs to. */
  listBatch: string;
  /** The database's character encoding, and the role connected (for messages). */
  encoding: string;
}

/** The second key of the table's insert lock: the table's oid shifted into the signed 32-bit range the two-key lock functions take. */
function insertLockKey(tableParameter: string): string {
  return `(${tableParameter}::regclass::oid::bigint - 2147483648)::integer`;
}

/**
 * The statement that sets `bound` to the largest id visible now, lowered below the floor of every
 * create in flight on this table: each backend holding the table's insert lock, with the highest
 * of its claims. `pg_locks` is read once, in one pass grouped by backend (a backend runs one
 * transaction at a time).
 */
function claimsBound(table: TableName): string {
  return `SELECT least((SELECT max(pet.id) FROM ${table.sql} AS pet), min(inserting.floor)) INTO bound
    FROM (
      SELECT max((entry.classid::bigint - ${CLAIM_CLASSID}) * 4294967296 + entry.objid::bigint)
               FILTER (WHERE entry.objsubid = 1 AND entry.classid::bigint BETWEEN ${CLAIM_CLASSID} AND ${CLAIM_CLASSID_LAST}) AS floor
      FROM pg_catalog.pg_locks AS entry
      WHERE entry.locktype = 'advisory' AND entry.granted
        AND entry.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
      GROUP BY entry.pid
      HAVING bool_or(entry.objsubid = 2 AND entry.classid::bigint = ${LOCK_NAMESPACE}
        AND entry.objid::bigint = ('${table.sql}'::regclass::oid::bigint + 2147483648) % 4294967296)
    ) AS inserting;`;
}

/** The statements that append the page of ids in (lower, upper] to the function's result, at most `size` rows. */
function appendPage(table: TableName, lower: string, upper: string, size: string): string {
  const page = (filter: string): string =>
    `RETURN QUERY SELECT pet.id, pet.name, pet.category_id, pet.status FROM ${table.sql} AS pet
      WHERE ${filter}pet.id > ${lower} AND pet.id <= ${upper} ORDER BY pet.id LIMIT ${size};`;
  return `IF wanted_status IS NULL THEN
    ${page('')}
  ELSE
    ${page('pet.status = wanted_status AND ')}
  END IF;`;
}

/**
 * The body of the list function. A bound stays valid for every later snapshot, so the session
 * first lists below the bound it cached last time; when that fills the page, nothing else is
 * needed. Otherwise it computes a fresh bound: when it can take the table's insert lock
 * exclusively, no create is in flight and none can take an id before this statement ends, so the
 * largest id is the bound; otherwise the bound is the largest id visible now, lowered below every
 * claim of a create in flight on this table. It lists the rest of the page up to that bound under
 * a newer snapshot, which a VOLATILE function takes for every statement; that order is what makes
 * the bound exact (see docs/postgres.md).
 */
function listFunctionBody(table: TableName): string {
  return `
#variable_conflict use_column
DECLARE
  cache_name text := 'petstore.list_bound_' || '${table.sql}'::regclass::oid;
  known bigint := nullif(current_setting(cache_name, true), '')::bigint;
  bound bigint;
  listed bigint := 0;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'listing pets needs READ COMMITTED isolation, not %', current_setting('transaction_isolation')
      USING ERRCODE = '0A000', HINT = 'reset default_transaction_isolation for the petstore role';
  END IF;
  IF known > after_id THEN
    ${appendPage(table, 'after_id', 'known', 'page_size')}
    GET DIAGNOSTICS listed = ROW_COUNT;
    IF listed = page_size THEN
      RETURN;
    END IF;
  END IF;
  -- The table's own lock comes first: a create waiting for the insert lock holds the table, and an
  -- ALTER TABLE queued behind that create would otherwise hold this list up, a deadlock.
  PERFORM FROM ${table.sql} AS pet WHERE false;
  IF pg_try_advisory_xact_lock(${LOCK_NAMESPACE}, ${insertLockKey(`'${table.sql}'`)}) THEN
    SELECT max(pet.id) INTO bound FROM ${table.sql} AS pet;
  ELSE
    ${claimsBound(table)}
  END IF;
  bound := greatest(bound, known);
  IF bound IS NOT NULL THEN
    PERFORM set_config(cache_name, bound::text, false);
  END IF;
  ${appendPage(table, 'greatest(after_id, known)', 'bound', 'page_size - listed')}
END
`;
}

/**
 * Creates the list function when it is missing or differs from this version's, and otherwise
 * leaves it alone, so starting a process does not make every session recompile it.
 */
function createListFunction(table: TableName): string {
  const name = siblingName(table, '_list_after');
  const body = listFunctionBody(table);
  return `IF NOT EXISTS (
    SELECT FROM pg_catalog.pg_proc WHERE oid = to_regprocedure('${name}(text, bigint, integer)') AND prosrc = $list$${body}$list$
  ) THEN
    CREATE OR REPLACE FUNCTION ${name}(wanted_status text, after_id bigint, page_size integer)
      RETURNS TABLE (id bigint, name text, category_id bigint, status text)
      LANGUAGE plpgsql VOLATILE
      AS $list$${body}$list$;
  END IF;`;
}

/** The columns and values of an insert, without and with the idempotency key and fingerprint. */
interface InsertShape {
  columns: string;
  values: string;
  /** What follows the values: nothing, or the unique index's verdict on a key stored already. */
  onConflict: string;
  returning: string;
}

const PLAIN_INSERT: InsertShape = { columns: 'name, category_id, status', values: '$2::text, $3::bigint, $4::text', onConflict: '', returning: COLUMNS };

/**
 * The key goes into the same row as the pet, in the same statement, so a pet never exists without
 * its key; the partial unique index decides between concurrent creates with one key, in any number
 * of processes: the later insert waits for the earlier transaction, then does nothing when it committed.
 */
const KEYED_INSERT: InsertShape = {
  columns: 'name, category_id, status, idempotency_key, idempotency_fingerprint',
  values: '$2::text, $3::bigint, $4::text, $6::text, $7::text',
  onConflict: '\nON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING',
  returning: `${COLUMNS}, idempotency_fingerprint`,
};

/** A batch returns each row's key too, so each pet goes back to the create that sent it. */
const BATCH_INSERT: InsertShape = { ...KEYED_INSERT, returning: `${COLUMNS}, idempotency_key, idempotency_fingerprint` };

/**
 * The lock timeout of this statement's transaction, set before it waits for any lock: a
 * transaction-local setting (`set_config(…, true)`) ends with the statement's implicit
 * transaction, so no session keeps it and a pooler in transaction mode (PgBouncer) passes it on
 * as it is. The relation lock taken while the statement is parsed comes before it; the statement
 * timeout bounds that wait.
 */
const SET_LOCK_TIMEOUT = `set_config('lock_timeout', $5::integer::text, true)`;

/**
 * The rows an insert takes from its parameters: one row of $2, $3, $4 (and the key's $6 and $7),
 * or, for a batch, the rows of those arrays side by side. A batch's keyed rows go in the order of
 * their keys, so two batches meeting the same keys in two processes wait for each other's keys in
 * one order and cannot deadlock; rows without a key follow in the arrays' order.
 */
function insertSource(shape: InsertShape, isBatch: boolean): string {
  if (!isBatch) return `SELECT ${shape.values} FROM`;
  return `SELECT pet.name, pet.category_id, pet.status, pet.key, pet.fingerprint FROM
  unnest($2::text[], $3::bigint[], $4::text[], $6::text[], $7::text[]) WITH ORDINALITY AS pet(name, category_id, status, key, fingerprint, position) CROSS JOIN`;
}

/** How a batch's rows are ordered, after the source's FROM list. */
function insertOrder(isBatch: boolean): string {
  return isBatch ? '\nORDER BY pet.key COLLATE "C", pet.position' : '';
}

/**
 * The insert of the chosen ordering; $1 the table, $2 name, $3 categoryId, $4 status, $5 the lock
 * timeout (and the key's $6 and $7); a batch takes arrays in $2, $3, $4, $6 and $7.
 */
function insertStatement(table: TableName, ordering: PostgresOrdering, shape: InsertShape = PLAIN_INSERT, isBatch = false): string {
  const returned = shape.returning.split(', ').map((column) => `inserted.${column}`).join(', ');
  const source = insertSource(shape, isBatch);
  if (ordering === 'lock') {
    // The exclusive per-table lock is taken before the identity's nextval runs (the MATERIALIZED
    // CTE is scanned first) and released only after commit, so ids become visible in the order
    // they were allocated.
    return `WITH serialised AS MATERIALIZED (
  SELECT ${SET_LOCK_TIMEOUT} AS timeout, pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${insertLockKey('$1')})
)
INSERT INTO ${table.sql} (${shape.columns})
${source} serialised${insertOrder(isBatch)}${shape.onConflict}
RETURNING ${shape.returning}`;
  }
  // Before nextval (the MATERIALIZED CTE is scanned first): the insert lock in shared mode, which
  // marks this transaction as a create on this table and never waits for another create, and a
  // claim whose floor is the largest id this statement sees; its ids will be larger. Once the rows
  // exist, a second claim raises the floor to the lowest new id - 1: one claim for the statement,
  // since the lists' bound reads each create's highest claim, which must stay below all its rows.
  // Both end with the transaction, also when it rolls back or its connection dies. The lock timeout
  // comes first in the select list, which PostgreSQL evaluates in order, so it bounds both claims,
  // the wait of a keyed insert for another transaction inserting the same key, and the second claim.
  return `WITH claimed AS MATERIALIZED (
  SELECT ${SET_LOCK_TIMEOUT} AS timeout,
         pg_advisory_xact_lock_shared(${LOCK_NAMESPACE}, ${insertLockKey('$1')}) AS marker,
         pg_advisory_xact_lock_shared(${CLAIM_KEY_BASE} + coalesce((SELECT max(id) FROM ${table.sql}), 0)) AS floor
), inserted AS (
  INSERT INTO ${table.sql} (${shape.columns})
  ${source} claimed${insertOrder(isBatch)}${shape.onConflict}
  RETURNING ${shape.returning}
)
SELECT ${returned}
FROM inserted CROSS JOIN (SELECT pg_advisory_xact_lock_shared(${CLAIM_KEY_BASE} + min(lowest.id) - 1) FROM inserted AS lowest) AS exact`;
}

/** The list statements of the chosen ordering. */
function listStatements(table: TableName, ordering: PostgresOrdering): Pick<Statements, 'listAll' | 'listByStatus' | 'listBatch'> {
  const wanted = 'unnest($1::text[], $2::bigint[], $3::integer[]) WITH ORDINALITY AS wanted(status, after_id, page_size, position)';
  if (ordering === 'lock') {
    return {
      listAll: `SELECT ${COLUMNS} FROM ${table.sql} WHERE id > $1 ORDER BY id LIMIT $2`,
      listByStatus: `SELECT ${COLUMNS} FROM ${table.sql} WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
      listBatch: `SELECT wanted.position, page.id, page.name, page.category_id, page.status FROM ${wanted}
  CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM ${table.sql} AS pet
    WHERE (wanted.status IS NULL OR pet.status = wanted.status) AND pet.id > wanted.after_id ORDER BY pet.id LIMIT wanted.page_size) AS page
ORDER BY wanted.position, page.id`,
    };
  }
  // Each call of the list function in a batch takes its own snapshots and bound, as a list alone does.
  const list = siblingName(table, '_list_after');
  return {
    listAll: `SELECT ${COLUMNS} FROM ${list}(NULL::text, $1::bigint, $2::integer) ORDER BY id`,
    listByStatus: `SELECT ${COLUMNS} FROM ${list}($1::text, $2::bigint, $3::integer) ORDER BY id`,
    listBatch: `SELECT wanted.position, page.id, page.name, page.category_id, page.status FROM ${wanted}
  CROSS JOIN LATERAL ${list}(wanted.status, wanted.after_id, wanted.page_size) AS page
ORDER BY wanted.position, page.id`,
  };
}

/** Builds the statements for a validated table name. */
export function buildStatements(table: TableName, ordering: PostgresOrdering = 'claims'): Statements {
  return {
    // The advisory lock serialises concurrent first starts: CREATE ... IF NOT EXISTS alone can
    // still fail with a duplicate-key error when two processes create the same table at once.
    // The identity stops at 2^53 - 1 so every id survives a JSON number; CACHE 1 keeps ids
    // increasing in allocation order across connections (a cache would hand out blocks per session).
    setup: `DO $petstore$
BEGIN
  PERFORM pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${SETUP_LOCK});
  CREATE TABLE IF NOT EXISTS ${table.sql} (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE ${MAX_SAFE_ID} CACHE 1) PRIMARY KEY,
    name text NOT NULL,
    category_id bigint NOT NULL CHECK (category_id BETWEEN ${-MAX_SAFE_ID} AND ${MAX_SAFE_ID}),
    status text CHECK (status IN (${STATUS_LIST}))
  );
  CREATE INDEX IF NOT EXISTS ${table.statusIndexSql} ON ${table.sql} (status, id);
  -- Tables made before idempotency keys gain the two columns here; checked first, since ALTER TABLE
  -- locks the table exclusively even when it has nothing to add. Adding a column without a default
  -- rewrites no row.
  IF NOT EXISTS (
    SELECT FROM pg_catalog.pg_attribute WHERE attrelid = '${table.sql}'::regclass AND attname = 'idempotency_fingerprint' AND NOT attisdropped
  ) THEN
    ALTER TABLE ${table.sql} ADD COLUMN IF NOT EXISTS idempotency_key text, ADD COLUMN IF NOT EXISTS idempotency_fingerprint text;
  END IF;
  -- Partial: pets created without a key take no room in it.
  CREATE UNIQUE INDEX IF NOT EXISTS ${table.keyIndexSql} ON ${table.sql} (idempotency_key) WHERE idempotency_key IS NOT NULL;
  ${createListFunction(table)}
END
$petstore$`,
    probe: `SELECT ${COLUMNS} FROM ${table.sql} WHERE false`,
    insert: insertStatement(table, ordering),
    insertOnce: insertStatement(table, ordering, KEYED_INSERT),
    insertBatch: insertStatement(table, ordering, BATCH_INSERT, true),
    getByKey: `SELECT ${COLUMNS}, idempotency_fingerprint FROM ${table.sql} WHERE idempotency_key = $1`,
    get: `SELECT ${COLUMNS} FROM ${table.sql} WHERE id = $1`,
    ...listStatements(table, ordering),
    encoding: `SELECT current_setting('server_encoding') AS encoding, current_user AS role`,
  };
}
