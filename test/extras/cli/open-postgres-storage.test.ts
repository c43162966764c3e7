import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { PetstoreError } from '../../../lib/index.js';
import { driverInstallAdvice, openPostgresStorage } from '../../../extras/cli/open-postgres-storage.js';
import type { PgDriver } from '../../../extras/cli/open-postgres-storage.js';
import { openStorage } from '../../../extras/cli/open-storage.js';
import { startTestPostgres } from '../../support/postgres.js';

const ignore = (): void => undefined;

/** A driver whose pools count how often they are ended. */
function countingDriver(): PgDriver & { ended: () => number } {
  let ended = 0;
  class CountingPool extends pg.Pool {
    override async end(): Promise<void> {
      ended++;
      return super.end();
    }
  }
  return { Pool: CountingPool, ended: () => ended };
}

test('openPostgresStorage() in a clone tells to `npm install --no-save -D pg` when the driver is missing, since `npm install pg` installs nothing there', async () => {
  const missing = Object.assign(new Error("Cannot find package 'pg'"), { code: 'ERR_MODULE_NOT_FOUND' });
  await assert.rejects(
    openPostgresStorage({ databaseUrl: 'postgresql://localhost/petstore', log: ignore, loadDriver: () => Promise.reject(missing) }),
    (error: unknown) =>
      error instanceof PetstoreError && error.code === 'unavailable' && error.message.includes('run `npm install --no-save -D pg` in this clone') && error.cause === missing,
  );
});

test('driverInstallAdvice() names `npm install pg` for a package installed under node_modules and the clone\'s command elsewhere', () => {
  assert.equal(driverInstallAdvice('file:///srv/app/node_modules/petstore-reference/dist/extras/cli/open-postgres-storage.js'), 'run `npm install pg` in your project');
  assert.match(driverInstallAdvice('file:///home/me/petstore/dist/extras/cli/open-postgres-storage.js'), /^run `npm install --no-save -D pg` in this clone/);
});

test('openPostgresStorage() passes other driver loading failures on unchanged', async () => {
  const broken = new SyntaxError('Unexpected token in pg');
  await assert.rejects(openPostgresStorage({ databaseUrl: 'postgresql://localhost/petstore', log: ignore, loadDriver: () => Promise.reject(broken) }), (error) => error === broken);
});

const postgres = await startTestPostgres();

describe('openStorage() with a database URL', { skip: postgres.skip }, () => {
  const url = postgres.cluster?.url ?? '';

  test('openStorage() opens the PostgreSQL storage for `databaseUrl`, and close() ends its pool', async () => {
    const storage = await openStorage({ databaseUrl: url, log: ignore });
    const pet = await storage.insert({ name: 'Rex', categoryId: 1, status: 'available' });
    assert.deepEqual(await storage.get(pet.id), pet);
    await storage.close?.();
    await assert.rejects(storage.get(pet.id), (error: unknown) => error instanceof PetstoreError && error.code === 'unavailable');
  });

  test('openPostgresStorage() rejects with `unavailable` and ends its pool when the database is unreachable', async () => {
    const driver = countingDriver();
    await assert.rejects(
      openPostgresStorage({ databaseUrl: url.replace(/:\d+\//, ':1/'), log: ignore, loadDriver: async () => driver }),
      (error: unknown) => error instanceof PetstoreError && error.code === 'unavailable' && /ECONNREFUSED/.test(error.message),
    );
    assert.equal(driver.ended(), 1);
  });

  test('openPostgresStorage() logs an idle connection killed by the database and carries on', async () => {
    const lines: string[] = [];
    const storage = await openPostgresStorage({ databaseUrl: url, log: (line) => lines.push(line) });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const before = await storage.insert({ name: 'Before', categoryId: 1 });
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
      while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.match(lines[0] ?? '', /^PostgreSQL: an idle connection failed and was dropped \(terminating connection due to administrator command\)/);
      const after = await storage.insert({ name: 'After', categoryId: 1 });
      assert.ok(after.id > before.id);
    } finally {
      await admin.end();
      await storage.close?.();
    }
  });
});
