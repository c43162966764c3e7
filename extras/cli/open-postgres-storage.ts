import { PetstoreError } from '../../lib/index.js';
import type { PetStorage } from '../../lib/index.js';
import { createPostgresStorage } from '../postgres/index.js';
import type { PostgresQuery } from '../postgres/index.js';

/** The part of a `pg` Pool the server uses; described here so the typings need no `@types/pg` (pg is an optional peer). */
export interface PgPool {
  query: PostgresQuery;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of the `pg` module the server needs. */
export interface PgDriver {
  Pool: new (config: { connectionString: string; connectionTimeoutMillis: number; lock_timeout: number }) => PgPool;
}

/** How the server reaches PostgreSQL. */
export interface PostgresConfig {
  /** Connection URL (`PETSTORE_DATABASE_URL`), e.g. `postgresql://user:password@host:5432/petstore`. */
  databaseUrl: string;
  /** Where operational notes go; the server passes stderr. */
  log: (line: string) => void;
  /** Loads the driver; a seam for tests, defaults to `import('pg')`. */
  loadDriver?: () => Promise<PgDriver>;
}

/** How long to wait for a connection before answering 503, instead of holding requests forever (pg's default). */
const CONNECT_TIMEOUT_MILLISECONDS = 5_000;

/**
 * How long a statement may wait for a lock before answering 503. Creates hold the table's insert
 * lock in shared mode and never wait for each other; this stops a stray session that holds it
 * exclusively (or a long `ALTER TABLE`) from hanging every create.
 */
const LOCK_TIMEOUT_MILLISECONDS = 10_000;

function isModuleNotFound(error: unknown): boolean {
  return error instanceof Error && Object.getOwnPropertyDescriptor(error, 'code')?.value === 'ERR_MODULE_NOT_FOUND';
}

/** The driver's module name, held in a constant: the build then needs no types of pg, an optional peer that only deployments on PostgreSQL install. */
const PG_MODULE: string = 'pg';

function isPgDriver(value: unknown): value is PgDriver {
  return typeof value === 'object' && value !== null && 'Pool' in value && typeof value.Pool === 'function';
}

async function importPg(): Promise<PgDriver> {
  const driver: unknown = await import(PG_MODULE);
  if (!isPgDriver(driver)) throw new PetstoreError('unavailable', 'The installed PostgreSQL driver `pg` has no `Pool`: install pg 8 (`npm install pg@8`), or unset PETSTORE_DATABASE_URL');
  return driver;
}

async function loadDriver(load: () => Promise<PgDriver>): Promise<PgDriver> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    // pg is an optional peer dependency: only deployments on PostgreSQL install it.
    throw new PetstoreError('unavailable', 'PETSTORE_DATABASE_URL is set, but the PostgreSQL driver is not installed: run `npm install pg`, or unset PETSTORE_DATABASE_URL', {
      cause: error,
    });
  }
}

/**
 * Opens the PostgreSQL storage over a `pg` Pool loaded on demand; closing the storage ends the pool.
 * Rejects (and ends the pool) when the database cannot be reached, so the server does not start.
 */
export async function openPostgresStorage(config: PostgresConfig): Promise<PetStorage> {
  const { Pool } = await loadDriver(config.loadDriver ?? importPg);
  const pool = new Pool({
    connectionString: config.databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MILLISECONDS,
    lock_timeout: LOCK_TIMEOUT_MILLISECONDS,
  });
  // Without a listener, a connection that dies while idle in the pool (a database restart) would
  // crash the process; the pool drops that connection and opens a new one on the next request.
  pool.on('error', (error) => config.log(`PostgreSQL: an idle connection failed and was dropped (${error.message})`));
  try {
    return await createPostgresStorage({ query: pool.query.bind(pool), end: () => pool.end() });
  } catch (error) {
    await pool.end();
    throw error;
  }
}
