import { MAX_SAFE_ID } from '../../limits.js';
import { PET_STATUSES } from '../../pet.js';
import type { TableName } from './table.js';

/**
 * Advisory lock keys, namespaced by a first key that spells "Pets" in ASCII so they are easy to
 * recognise in `pg_locks` and unlikely to meet another application's keys.
 */
const LOCK_NAMESPACE = 0x50657473;
const SETUP_LOCK = 0;

const STATUS_LIST = PET_STATUSES.map((status) => `'${status}'`).join(', ');
const COLUMNS = 'id, name, category_id, status';

/** The SQL text of every statement the storage runs, for one table; values always go as parameters. */
export interface Statements {
  /** Creates the table and its index if missing; one statement, so any query function can run it. */
  setup: string;
  /** Fails with SQLSTATE 42703/42P01 unless the table has the columns this storage reads. */
  probe: string;
  /** $1 the quoted table name (for the lock key), $2 name, $3 categoryId, $4 status or null. */
  insert: string;
  /** $1 id. */
  get: string;
  /** $1 after, $2 limit. */
  listAll: string;
  /** $1 status, $2 after, $3 limit. */
  listByStatus: string;
  /** The database's character encoding. */
  encoding: string;
}

/** Builds the statements for a validated table name. */
export function buildStatements(table: TableName): Statements {
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
END
$petstore$`,
    probe: `SELECT ${COLUMNS} FROM ${table.sql} WHERE false`,
    // The per-table transaction-level lock is taken before the identity's nextval runs (the
    // MATERIALIZED CTE is scanned first) and released only after commit, so ids become visible in
    // the order they were allocated and a reader paging with `after` never skips a late commit.
    // The oid is shifted into the signed 32-bit range the two-key lock functions take.
    insert: `WITH serialised AS MATERIALIZED (
  SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}, ($1::regclass::oid::bigint - 2147483648)::integer)
)
INSERT INTO ${table.sql} (name, category_id, status)
SELECT $2::text, $3::bigint, $4::text FROM serialised
RETURNING ${COLUMNS}`,
    get: `SELECT ${COLUMNS} FROM ${table.sql} WHERE id = $1`,
    listAll: `SELECT ${COLUMNS} FROM ${table.sql} WHERE id > $1 ORDER BY id LIMIT $2`,
    listByStatus: `SELECT ${COLUMNS} FROM ${table.sql} WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
    encoding: `SELECT current_setting('server_encoding') AS encoding`,
  };
}
