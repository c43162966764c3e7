import { PetstoreError } from '../../lib/index.js';
import { createPostgresStorage, DEFAULT_LOCK_TIMEOUT, pooledQuery } from '../postgres/index.js';
import type { PostgresStorage, QueryPool } from '../postgres/index.js';
import { UsageError } from './command-line.js';

/** The part of a `pg` Pool the server uses, the pooled query's and more; described here so the typings need no `@types/pg` (pg is an optional peer). */
export interface PgPool extends QueryPool {
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What the server gives `pg`'s Pool: none of it is a startup parameter, so a pooler such as PgBouncer accepts every connection. */
export interface PgPoolConfig {
  connectionString: string;
  max: number;
  connectionTimeoutMillis: number;
  idleTimeoutMillis: number;
}

/** The part of the `pg` module the server needs. */
export interface PgDriver {
  Pool: new (config: PgPoolConfig) => PgPool;
}

/** The pool's size and bounds, in seconds as the settings give them; each unset one comes from the URL or its default. */
export interface PostgresPoolSettings {
  /** Most connections per process (`--pool-size`). */
  poolSize?: number;
  /** Longest wait for a free connection, opening one included (`--pool-wait`). */
  poolWait?: number;
  /** How long an unused connection stays open; 0 keeps it (`--pool-idle-timeout`). */
  idleTimeout?: number;
  /** Longest wait for one statement's answer (`--statement-timeout`). */
  statementTimeout?: number;
  /** Longest a request's storage operation may take in all (`--request-deadline`). */
  requestDeadline?: number;
}

/** How the server reaches PostgreSQL. */
export interface PostgresConfig extends PostgresPoolSettings {
  /** Connection URL (`PETSTORE_DATABASE_URL`), e.g. `postgresql://user:password@host:5432/petstore`. */
  databaseUrl: string;
  /** Where operational notes go; the server passes stderr. */
  log: (line: string) => void;
  /** Loads the driver; a seam for tests, defaults to `import('pg')`. */
  loadDriver?: () => Promise<PgDriver>;
}

/** The pool's settings in milliseconds, as the pool and the storage take them. */
export interface PoolBounds {
  poolSize: number;
  poolWaitMs: number;
  idleTimeoutMs: number;
  statementTimeoutMs: number;
  requestDeadlineMs: number;
  lockTimeoutMs: number;
}

/**
 * pg's own default pool size, kept: 10 connections per process lets 8 processes share PostgreSQL's
 * default max_connections (100) with room for administration.
 */
export const DEFAULT_POOL_SIZE = 10;
/** Long enough to open a connection across a data centre, short enough that a client's retry still helps (s). */
export const DEFAULT_POOL_WAIT = 5;
/** pg's default: a connection unused this long is closed, so a quiet process holds few (s). */
export const DEFAULT_IDLE_TIMEOUT = 10;
/** Twice the lock timeout, so a lock wait ends with its own 55P03 first; far above any statement of this storage (s). */
export const DEFAULT_STATEMENT_TIMEOUT = 10;
/** A pool wait plus a statement: the most one request waits for the database (s). */
export const DEFAULT_REQUEST_DEADLINE = 15;

/** URL parameters of the pool, named as `pg`'s Pool options and its client's `query_timeout` (ms), which `pg` itself does not read from a URL. */
const URL_PARAMETERS = { poolSize: 'max', poolWaitMs: 'connectionTimeoutMillis', idleTimeoutMs: 'idleTimeoutMillis', statementTimeoutMs: 'query_timeout' } as const;

/** A whole number from the URL's query, or undefined when absent; refused when not a whole number. */
function urlNumber(url: URL | undefined, name: string, least: number): number | undefined {
  const text = url?.searchParams.get(name) ?? null;
  if (text === null) return undefined;
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < least) {
    throw new UsageError(`The database URL's \`${name}\` is ${JSON.stringify(text)}; it must be a whole number of at least ${least}`);
  }
  return Number(text);
}

/** A URL that may hold no password in a message: parsed without ever showing it. */
function parsedUrl(text: string): URL | undefined {
  return URL.canParse(text) ? new URL(text) : undefined;
}

/** The URL `pg` gets: without the pool's parameters, which this module reads, so that `pg` never applies a second value of its own. */
export function driverUrl(databaseUrl: string): string {
  const url = parsedUrl(databaseUrl);
  const names = Object.values(URL_PARAMETERS);
  if (url === undefined || !names.some((name) => url.searchParams.has(name))) return databaseUrl;
  for (const name of names) url.searchParams.delete(name);
  return url.toString();
}

/**
 * The pool's bounds: each from its setting, else from the connection URL (`?max=2`,
 * `connectionTimeoutMillis`, `idleTimeoutMillis`, `query_timeout`), else its default. The lock
 * timeout is half the statement timeout, at most 5 s, so a lock wait fails with its own reason.
 */
export function poolBounds(config: Pick<PostgresConfig, 'databaseUrl' | keyof PostgresPoolSettings>): PoolBounds {
  const url = parsedUrl(config.databaseUrl);
  const milliseconds = (seconds: number | undefined): number | undefined => (seconds === undefined ? undefined : Math.round(seconds * 1000));
  const statementTimeoutMs = milliseconds(config.statementTimeout) ?? urlNumber(url, URL_PARAMETERS.statementTimeoutMs, 1) ?? DEFAULT_STATEMENT_TIMEOUT * 1000;
  return {
    poolSize: config.poolSize ?? urlNumber(url, URL_PARAMETERS.poolSize, 1) ?? DEFAULT_POOL_SIZE,
    poolWaitMs: milliseconds(config.poolWait) ?? urlNumber(url, URL_PARAMETERS.poolWaitMs, 1) ?? DEFAULT_POOL_WAIT * 1000,
    idleTimeoutMs: milliseconds(config.idleTimeout) ?? urlNumber(url, URL_PARAMETERS.idleTimeoutMs, 0) ?? DEFAULT_IDLE_TIMEOUT * 1000,
    statementTimeoutMs,
    requestDeadlineMs: milliseconds(config.requestDeadline) ?? DEFAULT_REQUEST_DEADLINE * 1000,
    lockTimeoutMs: Math.max(1, Math.min(DEFAULT_LOCK_TIMEOUT, Math.floor(statementTimeoutMs / 2))),
  };
}

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

/**
 * The command that installs the driver where this module runs. In a project that installs the
 * package (this file under `node_modules/`), `npm install pg`. In a clone, pg is the package's own
 * optional peer, so `npm install pg` installs nothing ("up to date"), nor does `--no-save pg`;
 * `npm install --no-save -D pg` installs it and leaves package.json and its lock as they are.
 */
export function driverInstallAdvice(moduleUrl: string): string {
  return /[\\/]node_modules[\\/]/.test(decodeURIComponent(moduleUrl))
    ? 'run `npm install pg` in your project'
    : 'run `npm install --no-save -D pg` in this clone (`npm install pg` installs nothing here: pg is the package\'s own optional peer)';
}

async function loadDriver(load: () => Promise<PgDriver>): Promise<PgDriver> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    // pg is an optional peer dependency: only deployments on PostgreSQL install it.
    const advice = driverInstallAdvice(import.meta.url);
    throw new PetstoreError('unavailable', `PETSTORE_DATABASE_URL is set, but the PostgreSQL driver is not installed: ${advice}, or unset PETSTORE_DATABASE_URL`, {
      cause: error,
    });
  }
}

/**
 * Opens the PostgreSQL storage over a `pg` Pool loaded on demand; closing the storage ends the pool.
 * Rejects (and ends the pool) when the database cannot be reached, so the server does not start.
 */
export async function openPostgresStorage(config: PostgresConfig): Promise<PostgresStorage> {
  const bounds = poolBounds(config);
  const { Pool } = await loadDriver(config.loadDriver ?? importPg);
  // No lock_timeout or statement_timeout here: pg would send them as startup parameters, which
  // PgBouncer refuses; the storage sets its lock timeout inside each create's transaction instead.
  const pool = new Pool({
    connectionString: driverUrl(config.databaseUrl),
    max: bounds.poolSize,
    connectionTimeoutMillis: bounds.poolWaitMs,
    idleTimeoutMillis: bounds.idleTimeoutMs,
  });
  // Without a listener, a connection that dies while idle in the pool (a database restart) would
  // crash the process; the pool drops that connection and opens a new one on the next request.
  pool.on('error', (error) => config.log(`PostgreSQL: an idle connection failed and was dropped (${error.message})`));
  try {
    const pooled = pooledQuery(pool, { poolWait: bounds.poolWaitMs, statementTimeout: bounds.statementTimeoutMs, max: bounds.poolSize });
    return await createPostgresStorage({
      query: pooled.query,
      preparedQuery: pooled.preparedQuery,
      connections: pooled.connections,
      end: () => pool.end(),
      lockTimeout: bounds.lockTimeoutMs,
      deadline: bounds.requestDeadlineMs,
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
}
