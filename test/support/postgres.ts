import { after } from 'node:test';
import pg from 'pg';
import { findPostgresBinaries, startPostgresCluster } from '../../scripts/postgres-cluster.js';
import type { PostgresCluster, PostgresClusterOptions } from '../../scripts/postgres-cluster.js';

/** A throwaway cluster for one test file, or why its PostgreSQL tests are skipped. */
export type TestPostgres = { cluster: PostgresCluster; skip: false } | { cluster: undefined; skip: string };

const MISSING =
  'PostgreSQL server binaries not found (looked at `pg_config --bindir`, /usr/lib/postgresql/*/bin and PATH); install the Debian package `postgresql` to run these tests';

/**
 * Starts a throwaway cluster that is stopped and deleted after the file's tests. Without binaries
 * the tests are skipped with the reason, except in CI (CI=true), where that is a failure: CI must
 * exercise the PostgreSQL storage, and `.ci/run` installs it.
 */
export async function startTestPostgres(options: PostgresClusterOptions = {}): Promise<TestPostgres> {
  const binaries = await findPostgresBinaries();
  if (binaries === undefined) {
    if (process.env['CI'] === 'true') throw new Error(`${MISSING}. In CI this is a failure, not a skip.`);
    return { cluster: undefined, skip: MISSING };
  }
  const cluster = await startPostgresCluster(binaries, options);
  after(() => cluster.stop());
  return { cluster, skip: false };
}

let tableCount = 0;

/** A table name no other test in this process uses. */
export function freshTable(prefix = 'pets'): string {
  tableCount++;
  return `${prefix}_${process.pid}_${tableCount}`;
}

/** A pg Pool on `url` that ignores errors of idle clients (a terminated backend) instead of crashing the test process. */
export function makePool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
