export { createPostgresStorage } from './storage.js';
export type { PostgresQuery, PostgresStorageOptions } from './storage.js';
