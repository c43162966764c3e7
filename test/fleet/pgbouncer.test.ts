import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { PetstoreClient } from '../../extras/client/index.js';
import { openPostgresStorage } from '../../extras/cli/open-postgres-storage.js';
import { createPostgresStorage, pooledQuery } from '../../extras/postgres/index.js';
import type { Pet, PetStorage } from '../../lib/index.js';
import { runStorageContract } from '../../server/testing/index.js';
import { startCuttingProxy } from '../robustness/cutting-proxy.js';
import type { CuttingProxy } from '../robustness/cutting-proxy.js';
import { jsonLines, spawnServer } from '../support/process.js';
import type { ServerProcess } from '../support/process.js';
import { acknowledgedAtLeast, assertExactlyOnce, createPetsInLanes } from '../support/lanes-of-creates.js';
import type { LanesOfCreates } from '../support/lanes-of-creates.js';
import { freshTable, iniSection, postgresDocBlocks, startTestPgBouncer, startTestPostgres } from '../support/postgres.js';

const API_KEY = 'pgbouncer-fleet-key';
/** A quarter of the answers lost between client and server, as in test/robustness/exactly-once.test.ts. */
const CUT_SHARE = 0.25;
const LANES = 4;
const CREATES_PER_LANE = 12;
/** The servers' statement timeout (s): creates then wait 1 s for a lock, so the stray lock below is felt quickly. */
const STATEMENT_TIMEOUT = '2';

// The configuration docs/postgres.md gives, as written: the test runs PgBouncer with its [pgbouncer] settings.
const [documented] = await postgresDocBlocks('### PgBouncer', 'ini');
assert.ok(documented !== undefined, 'docs/postgres.md gives a PgBouncer configuration');
const documentedSettings = iniSection(documented, 'pgbouncer');

// Every await before the first describe: the file's after hooks then run once all its tests are done.
// Commits wait for the write-ahead log, as in production, so the restart below loses no acknowledged pet.
const postgres = await startTestPostgres({ settings: { synchronous_commit: 'on' } });
const pgbouncer = postgres.cluster === undefined ? { bouncer: undefined, skip: postgres.skip } : await startTestPgBouncer(postgres.cluster, documentedSettings);
const skip = pgbouncer.skip;

const servers: ServerProcess[] = [];
const proxies: CuttingProxy[] = [];
after(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all([...servers.map((server) => server.exited), ...proxies.map((proxy) => proxy.close())]);
});

/** A server process on PostgreSQL through PgBouncer, on loopback; resolves once it listens. */
async function startServer(url: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = spawnServer({ PETSTORE_API_KEYS: API_KEY, HOST: '127.0.0.1', PETSTORE_DATABASE_URL: url, PETSTORE_STATEMENT_TIMEOUT: STATEMENT_TIMEOUT, ...env });
  servers.push(server);
  await server.ready;
  return server;
}

/** LANES callers over `clients`, each creating CREATES_PER_LANE pets. */
function createPets(clients: readonly PetstoreClient[]): LanesOfCreates {
  return createPetsInLanes(clients, { lanes: LANES, createsPerLane: CREATES_PER_LANE, input: (lane, index) => ({ name: `pgbouncer lane ${lane} pet ${index}`, categoryId: lane }) });
}

async function listEveryPet(server: ServerProcess): Promise<Pet[]> {
  const pets: Pet[] = [];
  for await (const pet of new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY }).pets()) pets.push(pet);
  return pets;
}

describe('the PgBouncer configuration of docs/postgres.md', () => {
  test('the PgBouncer configuration of docs/postgres.md pools by transaction, retries a failed login within seconds, and sizes both pools', () => {
    assert.equal(documentedSettings['pool_mode'], 'transaction');
    assert.ok(Number(documentedSettings['server_login_retry']) < 15, 'server_login_retry is lowered from its default of 15 s');
    assert.ok(Number(documentedSettings['default_pool_size']) > 0 && Number(documentedSettings['max_client_conn']) > 0, 'both pool sizes are given');
    assert.equal(documentedSettings['ignore_startup_parameters'], undefined, 'PgBouncer runs with its default startup parameters');
  });
});

describe('the PostgreSQL storage through PgBouncer in transaction mode', { skip }, () => {
  const url = pgbouncer.bouncer?.url ?? '';
  const tables = new WeakMap<PetStorage, string>();

  /** A storage on `table` through PgBouncer, on a pool of its own as the server builds it. */
  async function open(table: string): Promise<PetStorage> {
    const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
    pool.on('error', () => undefined);
    const pooled = pooledQuery(pool, { poolWait: 5_000, statementTimeout: 10_000, max: 4 });
    const storage = await createPostgresStorage({ query: pooled.query, connections: pooled.connections, table, end: () => pool.end() });
    tables.set(storage, table);
    return storage;
  }

  runStorageContract('postgres through PgBouncer', {
    makeStorage: () => open(freshTable()),
    async reopen(storage) {
      const table = tables.get(storage);
      assert.ok(table !== undefined);
      await storage.close?.();
      return open(table);
    },
  });

  test('openPostgresStorage() opens the server\'s pool through PgBouncer with its default startup parameters', async () => {
    const storage = await openPostgresStorage({ databaseUrl: url, log: () => undefined, poolSize: 4 });
    try {
      const pet = await storage.insert({ name: 'Through the pooler', categoryId: 1 });
      assert.deepEqual(await storage.get(pet.id), pet);
    } finally {
      await storage.close?.();
    }
  });
});

describe('two server processes through PgBouncer in transaction mode', { skip }, () => {
  test('a create through PgBouncer behind a stray lock on the table\'s insert lock answers 503 at the lock timeout, and creates go on once it is released', async () => {
    const cluster = postgres.cluster;
    const bouncer = pgbouncer.bouncer;
    assert.ok(cluster !== undefined && bouncer !== undefined);
    const server = await startServer(bouncer.url, { PETSTORE_METRICS: 'true' });
    const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY });
    await client.createPet({ name: 'Before the lock', categoryId: 1 });
    // A session straight to PostgreSQL, as an operator's stray transaction would be.
    const holder = new pg.Client({ connectionString: cluster.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(1348826227, ($1::regclass::oid::bigint - 2147483648)::integer)', ['pets']);
      const response = await fetch(`${server.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Behind the lock', categoryId: 1 }),
      });
      const body: unknown = await response.json();
      assert.equal(response.status, 503);
      assert.ok(typeof body === 'object' && body !== null);
      assert.equal(Object.getOwnPropertyDescriptor(body, 'code')?.value, 'unavailable');
      assert.match(String(Object.getOwnPropertyDescriptor(body, 'message')?.value), /^Cannot store the pet: PostgreSQL is unavailable \(55P03: another session held a lock the create needed past lock_timeout/);
    } finally {
      await holder.end();
    }
    assert.equal((await client.createPet({ name: 'After the lock', categoryId: 1 })).name, 'After the lock');
    const events = jsonLines(server.stderr()).filter((event) => event['msg'] === 'The storage failed; answered 503 unavailable');
    assert.equal(events[0]?.['causeCode'], '55P03', 'the log names the lock timeout');
    const scraped = await (await fetch(`${server.origin}/metrics`)).text();
    assert.match(scraped, /\npetstore_storage_errors_total\{storage="postgres",operation="insert",cause="55P03"\} 1\n/);
    assert.match(scraped, /\npetstore_storage_pool_max_connections\{storage="postgres"\} 10\n/);
    assert.match(scraped, /\npetstore_storage_pool_connections\{storage="postgres"\} [1-9][0-9]*\n/);
  });

  test('PetstoreClient creates every pet exactly once through two server processes behind PgBouncer and proxies that cut a quarter of the answers, while PostgreSQL restarts', async () => {
    const cluster = postgres.cluster;
    const bouncer = pgbouncer.bouncer;
    assert.ok(cluster !== undefined && bouncer !== undefined);
    const first = await startServer(bouncer.url);
    const second = await startServer(bouncer.url);
    const clients: PetstoreClient[] = [];
    for (const [index, server] of [first, second].entries()) {
      const port = Number(new URL(server.origin).port);
      const proxy = await startCuttingProxy({ targetPort: () => port, cutShare: CUT_SHARE, seed: 40 + index });
      proxies.push(proxy);
      clients.push(new PetstoreClient({ baseUrl: `${proxy.origin}/v1`, apiKey: API_KEY }));
    }
    const creates = createPets(clients);
    // Creates went through before the restart.
    await acknowledgedAtLeast(creates, 12);
    await cluster.restart();
    await creates.done;
    const listed = (await listEveryPet(first)).filter((pet) => pet.name.startsWith('pgbouncer lane '));
    assertExactlyOnce(creates, listed);
    assert.deepEqual((await listEveryPet(second)).filter((pet) => pet.name.startsWith('pgbouncer lane ')), listed, 'both servers see the same pets');
    assert.ok(proxies.every((proxy) => proxy.cuts() > 0), 'every proxy cut answers');
    const events = [first, second].flatMap((server) => jsonLines(server.stderr()));
    const failed = events.filter((event) => event['msg'] === 'The storage failed; answered 503 unavailable');
    assert.ok(failed.length > 0 && failed.every((event) => typeof event['causeCode'] === 'string'), 'the restart was felt, and each failure names its cause');
    const recovered = events.filter((event) => event['msg'] === 'The storage recovered');
    assert.ok(recovered.length > 0 && recovered.every((event) => typeof event['outageSeconds'] === 'number'), 'the log says when the storage answered again, and after how long');
  });
});
