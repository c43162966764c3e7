import { createHash } from 'node:crypto';
import { PetstoreError } from '../../lib/index.js';
import type { ConnectionPoolStats } from './pool.js';
import type { IdempotencyRecord, InsertOnceResult, NewPet, Pet, PetStorage, StorageListQuery } from '../../lib/index.js';
import { createBatches } from './batches.js';
import type { Batches } from './batches.js';
import { databaseFailure, PoolFailure, readinessFailure } from './failures.js';
import type { DatabaseAction } from './failures.js';
import { keyedPetFromRow, petFromRow } from './rows.js';
import { buildStatements } from './schema.js';
import type { PostgresOrdering, Statements } from './schema.js';
import { DEFAULT_TABLE, parseTableName } from './table.js';
import type { TableName } from './table.js';

export type { PostgresOrdering } from './schema.js';

/** A pg-compatible query function, e.g. `pool.query.bind(pool)` from the `pg` package: runs one parameterised statement. */
export type PostgresQuery = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** A statement with a name, as `pg` takes it: a connection parses and plans it on first use, then runs it by name. */
export interface NamedStatement {
  name: string;
  text: string;
  values: unknown[];
}

/** A pg-compatible query function for named statements, e.g. `(statement) => pool.query(statement)` from the `pg` package. */
export type PostgresPreparedQuery = (statement: NamedStatement) => Promise<{ rows: unknown[] }>;

/** Options of createPostgresStorage. */
export interface PostgresStorageOptions {
  /** Runs one statement with `$n` parameters; each call may use a different pooled connection. */
  query: PostgresQuery;
  /**
   * Runs the storage's everyday statements as named prepared statements, so each connection parses
   * and plans them once instead of on every call (about half of PostgreSQL's work per create and
   * per list). Behind a pooler that hands each transaction a different server connection and keeps
   * no prepared statements (PgBouncer before 1.21 in transaction mode), the first statement that
   * meets a connection without its statement, or one with it already, fails before it runs
   * (SQLSTATE 26000 or 42P05); the storage then runs it again through `query` and uses `query`
   * from then on. Unset: every statement goes through `query`.
   */
  preparedQuery?: PostgresPreparedQuery;
  /** Table to keep pets in, `table` or `schema.table`; created with its index when missing. Defaults to `pets`. */
  table?: string;
  /** Called by `close()`, e.g. `() => pool.end()`, when the storage should release the pool. */
  end?: () => Promise<void>;
  /**
   * How long a create waits for a lock (ms) before failing with SQLSTATE 55P03: set inside each
   * create's own transaction, never on the session. Default `DEFAULT_LOCK_TIMEOUT`.
   */
  lockTimeout?: number;
  /** The most an operation may take in all (ms), its statements and their waits for a connection included; unset: no bound of its own. */
  deadline?: number;
  /** The pool's figures now, e.g. `pooledQuery(…).connections`; the storage then has `connections()` (PostgresStorage), which an operator's metrics may read. */
  connections?: () => ConnectionPoolStats;
  /**
   * How many create statements may run at once; default `DEFAULT_LANES`. A create that finds
   * them all running waits for one to end, and the creates that waited then go in one statement:
   * one commit, one flush of PostgreSQL's log and one round trip for them all.
   */
  createLanes?: number;
  /** How many list statements may run at once; default `DEFAULT_LANES`. Lists that wait go together in one statement, as creates do. */
  listLanes?: number;
  /** The most creates, or lists, one statement carries; default `DEFAULT_BATCH_SIZE`; 1 sends every one alone. */
  batchSize?: number;
}

/**
 * How many create statements, and how many list statements, run at once by default: few enough
 * that those waiting behind them gather into batches under load and that reads by id always find a
 * connection in a pool of the CLI's default size (10), enough that a lone create or list never
 * waits for another.
 */
export const DEFAULT_LANES = 4;

/** The most creates or lists one statement carries by default: enough for a full pool's worth of clients, small enough that one statement's arrays stay a few kilobytes for names of usual length. */
export const DEFAULT_BATCH_SIZE = 64;

/**
 * How long a create waits for a lock by default (ms). Creates never wait for each other; this stops
 * a stray session that holds the insert lock exclusively (or a long transaction inserting the same
 * idempotency key) from holding every create.
 */
export const DEFAULT_LOCK_TIMEOUT = 5_000;

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

/**
 * The failures of a named statement that mean the connection did not hold what this process
 * prepared on it (a pooler switched server connections): raised on Parse or Bind, so nothing ran.
 */
const UNPREPARED_SQLSTATES: ReadonlySet<string> = new Set(['26000', '42P05']);

/** A statement's name from its text: the same text has the same name in every process and version, so a pooler's shared connection never holds another text under it. */
export function statementName(text: string): string {
  return `petstore_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}

/** The start-up statements' failures that mean the table is not what this storage needs. */
const SHAPE_SQLSTATES: ReadonlySet<string> = new Set(['42703', '42P01', '42804', '42809']);

/** A property of a row or an error, as the driver made it (own properties only). */
function columnOf(row: unknown, name: string): unknown {
  return typeof row === 'object' && row !== null ? Object.getOwnPropertyDescriptor(row, name)?.value : undefined;
}

function sqlStateOf(error: unknown): string | undefined {
  const code = columnOf(error, 'code');
  return typeof code === 'string' ? code : undefined;
}

/**
 * What a start-up failure means, naming its SQLSTATE: a missing privilege (42501) with the GRANT or
 * owner that fixes it, a table without the needed columns, or the database's own words.
 */
function setupFailure(error: unknown, table: TableName, role: string): unknown {
  const failure = databaseFailure(error, 'prepare the pets table');
  if (!(failure instanceof PetstoreError) || failure.code !== 'internal_error') return failure;
  const code = sqlStateOf(error) ?? 'unknown';
  const said = error instanceof Error ? error.message : String(error);
  if (code === '42501') {
    const schema = table.text.includes('.') ? table.text.split('.')[0] ?? 'public' : 'public';
    return new PetstoreError(
      'internal_error',
      `Cannot prepare table ${table.text}: PostgreSQL refused with SQLSTATE 42501 (${said}): the role ${role} lacks a privilege. `
      + `The role must be able to create in the schema and must own the table: on PostgreSQL 15 and later make it the database's owner (CREATE DATABASE … OWNER ${role}, or ALTER DATABASE … OWNER TO ${role}) or GRANT CREATE ON SCHEMA ${schema} TO ${role}; `
      + `for a table another role created, ALTER TABLE ${table.text} OWNER TO ${role}, or GRANT <the owning role> TO ${role}.`,
      { cause: error },
    );
  }
  if (SHAPE_SQLSTATES.has(code)) {
    return new PetstoreError(
      'internal_error',
      `Cannot use table ${table.text}: it exists but lacks the columns (id, name, category_id, status) this storage needs (SQLSTATE ${code}: ${said}); configure another table name.`,
      { cause: error },
    );
  }
  return new PetstoreError('internal_error', `Cannot prepare table ${table.text}: PostgreSQL failed with SQLSTATE ${code}: ${said}`, { cause: error });
}

/** A text column of the first row, or undefined. */
function textColumn(rows: unknown[], name: string): string | undefined {
  const [row] = rows;
  const value: unknown = typeof row === 'object' && row !== null ? Object.getOwnPropertyDescriptor(row, name)?.value : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Checks that the database's encoding holds every name, creates the table and its index when missing, and checks the table's columns. */
async function prepareTable(query: PostgresQuery, statements: Statements, table: TableName): Promise<void> {
  const settings = await runStatement(query, 'prepare the pets table', statements.encoding, []);
  const encoding = textColumn(settings, 'encoding');
  if (encoding === undefined || !EXACT_ENCODINGS.has(encoding)) {
    throw new PetstoreError(
      'unavailable',
      `Cannot prepare the pets table: the database's encoding is ${String(encoding)}, which cannot store every pet name exactly; use a database created with ENCODING 'UTF8'.`,
    );
  }
  try {
    await query(statements.setup, []);
    await query(statements.probe, []);
  } catch (error) {
    throw setupFailure(error, table, textColumn(settings, 'role') ?? 'of the connection URL');
  }
}

/**
 * Rejects with a PoolFailure once `milliseconds` pass; `result` still settles in the background,
 * unheard, unless `withdraw` takes the operation back before it was sent (then it says so).
 */
function withDeadline<T>(result: Promise<T>, milliseconds: number, withdraw: () => boolean): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PoolFailure('PETSTORE_REQUEST_DEADLINE', `the operation did not finish within the request deadline of ${milliseconds} ms`, withdraw())),
      milliseconds,
    );
  });
  result.catch(() => undefined);
  return Promise.race([result, passed]).finally(() => clearTimeout(timer));
}

/** A create waiting for its statement: the pet, and its idempotency key when it has one. */
interface Create {
  pet: NewPet;
  idempotency: IdempotencyRecord | undefined;
}

/**
 * SQLSTATE classes of a fault in one row's data (22, data exception; 23, integrity constraint
 * violation, such as a CHECK or trigger of the operator's): a batch that fails with one is sent
 * again one create at a time, so only the create at fault fails.
 */
const ROW_SQLSTATE_CLASSES: ReadonlySet<string> = new Set(['22', '23']);

/** A count the options give, which must be a whole number of 1 or more. */
function wholeOption(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`createPostgresStorage(): \`${name}\` must be a whole number of 1 or more, not ${String(value)}`);
  return value;
}

/**
 * Each create's row from a batch's rows: a keyed create's by its key (none when the key was stored
 * already); the others' by id, which the statement allocated in the creates' order.
 */
function rowsByCreate(creates: readonly Create[], rows: readonly unknown[]): unknown[] {
  const keyed = new Map<unknown, unknown>();
  const plain: unknown[] = [];
  for (const row of rows) {
    const key = columnOf(row, 'idempotency_key');
    if (typeof key === 'string') keyed.set(key, row);
    else plain.push(row);
  }
  plain.sort((first, second) => Number(columnOf(first, 'id')) - Number(columnOf(second, 'id')));
  let next = 0;
  return creates.map(({ idempotency }) => (idempotency === undefined ? plain[next++] : keyed.get(idempotency.key)));
}

/** The PostgreSQL storage: a PetStorage, and the figures of its pool when it was given them, which are no part of the storage contract. */
export interface PostgresStorage extends PetStorage {
  /** The pool's figures now (from the `connections` option), e.g. for instrumentPool of the operator's kit. */
  connections?(): ConnectionPoolStats;
}

/**
 * A PetStorage on a PostgreSQL table, safe to share between any number of processes. Ids come
 * from an identity column; creates run in parallel, and each publishes a claim before it takes its
 * id, so a list never passes an id whose create is still in flight and the `after` cursor never
 * skips a pet. Resolves once the table exists; rejects with `unavailable` when the database cannot
 * be reached.
 */
export function createPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  return createOrderedPostgresStorage(options, 'claims');
}

/**
 * createPostgresStorage() with a choice of ordering; `lock` is the earlier design, which
 * serialises creates, kept for the tests that show what the claims prevent. Not part of the package's API.
 */
export async function createOrderedPostgresStorage(options: PostgresStorageOptions, ordering: PostgresOrdering): Promise<PostgresStorage> {
  const table = parseTableName(options.table ?? DEFAULT_TABLE);
  const statements = buildStatements(table, ordering);
  const { query, end, connections, deadline } = options;
  const lockTimeout = options.lockTimeout ?? DEFAULT_LOCK_TIMEOUT;
  const createLanes = wholeOption('createLanes', options.createLanes ?? DEFAULT_LANES);
  const listLanes = wholeOption('listLanes', options.listLanes ?? DEFAULT_LANES);
  const batchSize = wholeOption('batchSize', options.batchSize ?? DEFAULT_BATCH_SIZE);
  let { preparedQuery } = options;
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = statementName(text);
      names.set(text, name);
    }
    return name;
  };

  /** Runs one statement, by name while the connections keep prepared statements; its failure comes as the database raised it. */
  const send = async (text: string, values: unknown[]): Promise<unknown[]> => {
    const prepared = preparedQuery;
    if (prepared !== undefined) {
      try {
        return (await prepared({ name: nameOf(text), text, values })).rows;
      } catch (error) {
        const code = sqlStateOf(error);
        if (code === undefined || !UNPREPARED_SQLSTATES.has(code)) throw error;
        // Nothing ran: the connection failed the statement at Parse or Bind. Prepared statements
        // do not survive here, so every statement goes unnamed from now on.
        preparedQuery = undefined;
      }
    }
    return (await query(text, values)).rows;
  };
  const run = (action: DatabaseAction, text: string, values: unknown[]): Promise<unknown[]> =>
    send(text, values).catch((error: unknown) => Promise.reject(databaseFailure(error, action)));
  // Only the deadline's own failure is mapped here: the statements' failures come mapped already.
  const bounded = <T>(action: DatabaseAction, operation: Promise<T>, withdraw: () => boolean = () => false): Promise<T> =>
    deadline === undefined ? operation : withDeadline(operation, deadline, withdraw).catch((error: unknown) => Promise.reject(databaseFailure(error, action)));
  await prepareTable(query, statements, table);

  /** A create alone: its row, or none when its key was stored already. */
  const insertAlone = async ({ pet, idempotency }: Create): Promise<unknown> => {
    const values = [table.sql, pet.name, pet.categoryId, pet.status ?? null, lockTimeout];
    const rows = idempotency === undefined ? await send(statements.insert, values) : await send(statements.insertOnce, [...values, idempotency.key, idempotency.fingerprint]);
    return rows[0];
  };
  /** Creates together, in one statement: each one's row, or none for a key stored already; a row's fault fails only its own create. */
  const insertTogether = async (creates: readonly Create[]): Promise<PromiseSettledResult<unknown>[]> => {
    let rows: unknown[];
    try {
      rows = await send(statements.insertBatch, [
        table.sql,
        creates.map(({ pet }) => pet.name),
        creates.map(({ pet }) => pet.categoryId),
        creates.map(({ pet }) => pet.status ?? null),
        lockTimeout,
        creates.map(({ idempotency }) => idempotency?.key ?? null),
        creates.map(({ idempotency }) => idempotency?.fingerprint ?? null),
      ]);
    } catch (error) {
      // The statement stored nothing; a row the database refused must not fail the others, so each goes again alone.
      if (!ROW_SQLSTATE_CLASSES.has(sqlStateOf(error)?.slice(0, 2) ?? '')) throw error;
      return Promise.allSettled(creates.map(insertAlone));
    }
    return rowsByCreate(creates, rows).map((row) => ({ status: 'fulfilled', value: row }));
  };
  const creates = createBatches<Create, unknown>({
    lanes: createLanes,
    rows: batchSize,
    alone: insertAlone,
    together: insertTogether,
    keyOf: ({ idempotency }) => idempotency?.key,
  });
  /** Queues an operation in `batches` and makes its result with `finish`, all within the deadline; its failure becomes what the storage throws for `action`. */
  const queue = <Item, Outcome, T>(batches: Batches<Item, Outcome>, action: DatabaseAction, item: Item, finish: (outcome: Outcome) => T | Promise<T>): Promise<T> => {
    const queued = batches.run(item);
    return bounded(action, queued.result.then(finish, (error: unknown) => Promise.reject(databaseFailure(error, action))), queued.withdraw);
  };
  /** The pet a key holds already: its row committed before the create's insert ended (the index made it wait), and a new statement sees it. */
  const replay = async (key: string): Promise<InsertOnceResult> => {
    const [stored] = await run('read the pet', statements.getByKey, [key]);
    if (stored === undefined) throw new PetstoreError('internal_error', 'PostgreSQL storage defect: the unique index holds the idempotency key, but no row has it');
    return { ...keyedPetFromRow(stored), isReplay: true };
  };

  /** A list alone, in the statement of its kind. */
  const listAlone = async (wanted: StorageListQuery): Promise<Pet[]> => {
    const rows =
      wanted.status === undefined
        ? await send(statements.listAll, [wanted.after, wanted.limit])
        : await send(statements.listByStatus, [wanted.status, wanted.after, wanted.limit]);
    return rows.map(petFromRow);
  };
  /**
   * Lists together, in one statement: each list's page, a row the storage cannot read failing only
   * its own list. Lists that ask the same are asked once: every one of them was waiting while the
   * statement ran, so one answer is right for each, and each gets its own copy of the page.
   */
  const listTogether = async (wanted: readonly StorageListQuery[]): Promise<PromiseSettledResult<Pet[]>[]> => {
    const slots = new Map<string, number>();
    const asked: StorageListQuery[] = [];
    const slotOf = wanted.map((query) => {
      const key = `${query.status ?? ''} ${query.after} ${query.limit}`;
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = asked.push(query) - 1;
        slots.set(key, slot);
      }
      return slot;
    });
    const rows = await send(statements.listBatch, [asked.map(({ status }) => status ?? null), asked.map(({ after }) => after), asked.map(({ limit }) => limit)]);
    const pages = asked.map((): unknown[] => []);
    for (const row of rows) pages[Number(columnOf(row, 'position')) - 1]?.push(row);
    const answers = await Promise.allSettled(pages.map(async (page) => page.map(petFromRow)));
    return slotOf.map((slot): PromiseSettledResult<Pet[]> => {
      const answer = answers[slot] ?? { status: 'rejected', reason: new Error('defect: a list without its slot') };
      return answer.status === 'fulfilled' ? { status: 'fulfilled', value: [...answer.value] } : answer;
    });
  };
  const lists = createBatches<StorageListQuery, Pet[]>({ lanes: listLanes, rows: batchSize, alone: listAlone, together: listTogether, keyOf: () => undefined });

  const storage: PostgresStorage = {
    insert: (pet) => queue(creates, 'store the pet', { pet, idempotency: undefined }, petFromRow),
    insertOnce: (pet, idempotency) =>
      queue(creates, 'store the pet with its idempotency key', { pet, idempotency }, (inserted) => (inserted === undefined ? replay(idempotency.key) : { ...keyedPetFromRow(inserted), isReplay: false })),
    get: (id) => bounded('read the pet', run('read the pet', statements.get, [id]).then(([row]) => (row === undefined ? undefined : petFromRow(row)))),
    list: (wanted) => queue(lists, 'list pets', wanted, (pets) => pets),
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
  if (connections !== undefined) storage.connections = connections;
  return storage;
}
