// The PostgreSQL storage: pets in one table, through the client the caller brings.

/** A storage on a PostgreSQL table, shared safely by any number of processes; resolves once the table exists. */
export { createPostgresStorage } from './storage.js';
/** Options of createPostgresStorage. */
export type { PostgresStorageOptions } from './storage.js';
/** A pg-compatible query function, such as pg's `pool.query` bound to its pool. */
export type { PostgresQuery } from './storage.js';
