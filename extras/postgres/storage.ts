import { PetstoreError } from '../../lib/errors.js';
import type { NewPet, Pet } from '../../lib/pet.js';
import type { IdempotencyRecord, InsertOnceResult, PetStorage, StorageListQuery } from '../../lib/storage/storage.js';
import { databaseFailure, readinessFailure } from './failures.js';
import type { DatabaseAction } from './failures.js';
import { keyedPetFromRow, petFromRow } from './rows.js';
import { buildStatements } from './schema.js';
import type { PostgresOrdering, Statements } from './schema.js';
import { DEFAULT_TABLE, parseTableName } from './table.js';
import type { TableName } from './table.js';

export type { PostgresOrdering } from './schema.js';

/** A pg-compatible query function, e.g. `pool.query.bind(pool)` from the `pg` package: runs one parameterised statement. */
export type PostgresQuery = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** Options of createPostgresStorage. */
export interface PostgresStorageOptions {
  /** Runs one statement with `$n` parameters; each call may use a different pooled connection. */
  query: PostgresQuery;
  /** Table to keep pets in, `table` or `schema.table`; created with its index when missing. Defaults to `pets`. */
  table?: string;
  /** Called by `close()`, e.g. `() => pool.end()`, when the storage should release the pool. */
  end?: () => Promise<void>;
}

/** Encodings that give back every string exactly; other encodings cannot hold all of Unicode. */
const EXACT_ENCODINGS: ReadonlySet<string> = new Set(['UTF8']);

/** Runs one statement and returns its rows; a failure becomes what the storage throws. */
async function runStatement(query: PostgresQuery, action: DatabaseAction, text: string, values: unknown[]): Promise<unknown[]> {
  try {
    return (await query(text, values)).rows;
  } catch (error) {
    throw databaseFailure(error, action);
  }
}

/** Checks that the database's encoding holds every name, creates the table and its index when missing, and checks the table's columns. */
async function prepareTable(query: PostgresQuery, statements: Statements, table: TableName): Promise<void> {
  const [settings] = await runStatement(query, 'prepare the pets table', statements.encoding, []);
  const encoding: unknown = typeof settings === 'object' && settings !== null ? Object.getOwnPropertyDescriptor(settings, 'encoding')?.value : undefined;
  if (typeof encoding !== 'string' || !EXACT_ENCODINGS.has(encoding)) {
    throw new PetstoreError(
      'unavailable',
      `Cannot prepare the pets table: the database's encoding is ${String(encoding)}, which cannot store every pet name exactly; use a database created with ENCODING 'UTF8'.`,
    );
  }
  try {
    await query(statements.setup, []);
    await query(statements.probe, []);
  } catch (error) {
    const failure = databaseFailure(error, 'prepare the pets table');
    if (failure instanceof PetstoreError && failure.code === 'internal_error') {
      throw new PetstoreError(
        'internal_error',
        `Cannot use table ${table.text}: it exists but lacks the columns (id, name, category_id, status) this storage needs; configure another table name.`,
        { cause: error },
      );
    }
    throw failure;
  }
}

/**
 * A PetStorage on a PostgreSQL table, safe to share between any number of processes. Ids come
 * from an identity column; creates run in parallel, and each publishes a claim before it takes its
 * id, so a list never passes an id whose create is still in flight and the `after` cursor never
 * skips a pet. Resolves once the table exists; rejects with `unavailable` when the database cannot
 * be reached.
 */
export function createPostgresStorage(options: PostgresStorageOptions): Promise<PetStorage> {
  return createOrderedPostgresStorage(options, 'claims');
}

/**
 * createPostgresStorage() with a choice of ordering; `lock` is the earlier design, which
 * serialises creates, kept for the benchmark to measure against. Not part of the package's API.
 */
export async function createOrderedPostgresStorage(options: PostgresStorageOptions, ordering: PostgresOrdering): Promise<PetStorage> {
  const table = parseTableName(options.table ?? DEFAULT_TABLE);
  const statements = buildStatements(table, ordering);
  const { query, end } = options;

  const run = (action: DatabaseAction, text: string, values: unknown[]): Promise<unknown[]> => runStatement(query, action, text, values);
  await prepareTable(query, statements, table);

  const storage: PetStorage = {
    async insert(pet: NewPet): Promise<Pet> {
      const rows = await run('store the pet', statements.insert, [table.sql, pet.name, pet.categoryId, pet.status ?? null]);
      return petFromRow(rows[0]);
    },
    async insertOnce(pet: NewPet, idempotency: IdempotencyRecord): Promise<InsertOnceResult> {
      const values = [table.sql, pet.name, pet.categoryId, pet.status ?? null, idempotency.key, idempotency.fingerprint];
      const [inserted] = await run('store the pet with its idempotency key', statements.insertOnce, values);
      if (inserted !== undefined) return { ...keyedPetFromRow(inserted), isReplay: false };
      // The key's row committed before this insert ended (the index made it wait); a new statement sees it.
      const [stored] = await run('read the pet', statements.getByKey, [idempotency.key]);
      if (stored === undefined) throw new PetstoreError('internal_error', 'PostgreSQL storage defect: the unique index holds the idempotency key, but no row has it');
      return { ...keyedPetFromRow(stored), isReplay: true };
    },
    async get(id: number): Promise<Pet | undefined> {
      const [row] = await run('read the pet', statements.get, [id]);
      return row === undefined ? undefined : petFromRow(row);
    },
    async list(wanted: StorageListQuery): Promise<Pet[]> {
      const rows =
        wanted.status === undefined
          ? await run('list pets', statements.listAll, [wanted.after, wanted.limit])
          : await run('list pets', statements.listByStatus, [wanted.status, wanted.after, wanted.limit]);
      return rows.map(petFromRow);
    },
    // The probe reads no row but needs a connection and the table with its columns: cheap, and it also notices a dropped table.
    async checkReady(): Promise<void> {
      try {
        await query(statements.probe, []);
      } catch (error) {
        throw readinessFailure(error, table.text);
      }
    },
  };
  if (end !== undefined) storage.close = end;
  return storage;
}
