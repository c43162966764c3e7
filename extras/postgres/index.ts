// The PostgreSQL storage: pets in one table, through the client the caller brings.

/** A storage on a PostgreSQL table, shared safely by any number of processes; resolves once the table exists. */
export { createPostgresStorage } from './storage.js';
/** Options of createPostgresStorage. */
export type { PostgresStorageOptions } from './storage.js';
/** What createPostgresStorage gives: a PetStorage with its pool's figures, when it was given them. */
export type { PostgresStorage } from './storage.js';
/** A pg-compatible query function, such as pg's `pool.query` bound to its pool. */
export type { PostgresQuery } from './storage.js';
/** A query function for named statements, such as `(statement) => pool.query(statement)` with pg, and the statement it takes. */
export type { NamedStatement, PostgresPreparedQuery } from './storage.js';
/** The lock timeout of creates when none is given (ms). */
export { DEFAULT_LOCK_TIMEOUT } from './storage.js';
/** How many create statements, and list statements, run at once when not given, and the most operations one statement carries. */
export { DEFAULT_BATCH_SIZE, DEFAULT_LANES } from './storage.js';
/** A query function over a `pg` Pool that bounds every wait, with the pool's figures for metrics. */
export { pooledQuery } from './pool.js';
/** Options and result of pooledQuery, and the part of a pg Pool it uses. */
export type { PooledClient, PooledQuery, PooledQueryOptions, QueryPool } from './pool.js';
/** A pool of database connections at one moment, as metrics show it. */
export type { ConnectionPoolStats } from './pool.js';
/** A statement that failed around the database (no connection, no answer in time), and its codes. */
export { POOL_FAILURE_CODES, PoolFailure } from './failures.js';
/** One of POOL_FAILURE_CODES. */
export type { PoolFailureCode } from './failures.js';
