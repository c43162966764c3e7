import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { createPostgresStorage } from '../../../extras/postgres/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { rejection } from '../../support/assertions.js';
import { makePool, postgresDocBlocks, startTestPostgres } from '../../support/postgres.js';

// The commands docs/postgres.md gives, as written: a role and its database, and the grant for a table another role owns.
const [createRoleAndDatabase, grantOwnerRole] = await postgresDocBlocks('### A role and a database (PostgreSQL 15 and later)', 'sql');
const postgres = await startTestPostgres();

/** The cluster's URL for `user` on `database`; the throwaway cluster trusts loopback, so the password is not checked. */
function urlFor(user: string, database: string): string {
  const url = new URL(postgres.cluster?.url ?? 'postgresql://localhost/postgres');
  url.username = user;
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `sql` (one or more statements) as the cluster's superuser on `database`. */
async function asSuperuser(database: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor('postgres', database) });
  await client.connect();
  try {
    // CREATE DATABASE cannot run inside the implicit transaction of a multi-statement string: one by one.
    for (const statement of sql.split(';').map((text) => text.trim()).filter((text) => text !== '')) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Opens the storage as `user` on `database`, runs `use`, and ends the pool. */
async function asRole(user: string, database: string, use: (open: () => Promise<PetStorage>) => Promise<void>): Promise<void> {
  const pool = makePool(urlFor(user, database), 2);
  try {
    await use(() => createPostgresStorage({ query: pool.query.bind(pool) }));
  } finally {
    await pool.end();
  }
}

describe('the role and database of docs/postgres.md', { skip: postgres.skip }, () => {
  test('docs/postgres.md gives the role and database commands and the grant for a table another role owns', () => {
    assert.match(createRoleAndDatabase ?? '', /^CREATE ROLE petstore LOGIN PASSWORD '[^']+';\nCREATE DATABASE petstore OWNER petstore /);
    assert.match(grantOwnerRole ?? '', /^GRANT pets_owner TO petstore;$/);
  });

  test('a role and database made exactly as docs/postgres.md writes them let the storage create its table and serve, on PostgreSQL 15 and later', async () => {
    await asSuperuser('postgres', createRoleAndDatabase ?? '');
    await asRole('petstore', 'petstore', async (open) => {
      const storage = await open();
      const pet = await storage.insert({ name: 'Rex', categoryId: 1 });
      assert.deepEqual(await storage.get(pet.id), pet);
      assert.deepEqual(await storage.list({ status: undefined, after: 0, limit: 5 }), [pet]);
    });
  });

  test('a role that may not create in the schema stops the start with SQLSTATE 42501 and the OWNER or GRANT that fixes it', async () => {
    await asSuperuser('postgres', 'CREATE ROLE stranger LOGIN');
    // The database `postgres` belongs to the superuser; on PostgreSQL 15 and later its schema public is closed to others.
    await asRole('stranger', 'postgres', async (open) => {
      const error = await rejection(open, 'internal_error');
      assert.match(error.message, /^Cannot prepare table pets: PostgreSQL refused with SQLSTATE 42501 \(permission denied for schema public\): the role stranger lacks a privilege\./);
      assert.match(error.message, /CREATE DATABASE … OWNER stranger/);
      assert.match(error.message, /GRANT CREATE ON SCHEMA public TO stranger/);
      assert.doesNotMatch(error.message, /lacks the columns/);
    });
  });

  test('a table owned by another role is refused with 42501 until the role is granted the owner\'s role, as docs/postgres.md writes', async () => {
    await asSuperuser('postgres', "CREATE ROLE pets_owner LOGIN; CREATE DATABASE shop ENCODING 'UTF8' TEMPLATE template0");
    await asSuperuser('shop', 'GRANT CREATE ON SCHEMA public TO pets_owner');
    await asRole('pets_owner', 'shop', async (open) => {
      await (await open()).insert({ name: 'Owned elsewhere', categoryId: 1 });
    });
    await asRole('petstore', 'shop', async (open) => {
      const error = await rejection(open, 'internal_error');
      assert.match(error.message, /SQLSTATE 42501 .*the role petstore lacks a privilege\..*ALTER TABLE pets OWNER TO petstore, or GRANT <the owning role> TO petstore/);
    });
    await asSuperuser('shop', grantOwnerRole ?? '');
    await asRole('petstore', 'shop', async (open) => {
      const storage = await open();
      assert.deepEqual((await storage.list({ status: undefined, after: 0, limit: 5 })).map((pet) => pet.name), ['Owned elsewhere']);
      assert.equal((await storage.insert({ name: 'Mine too', categoryId: 2 })).name, 'Mine too');
    });
  });
});
