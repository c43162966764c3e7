import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { poolBounds, openPostgresStorage } from '../../../extras/cli/open-postgres-storage.js';
import { UsageError } from '../../../extras/cli/command-line.js';
import { databaseFailure, PoolFailure } from '../../../extras/postgres/failures.js';
import { pooledQuery } from '../../../extras/postgres/index.js';
import type { PooledClient, QueryPool } from '../../../extras/postgres/index.js';
import { PetstoreError } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { rejection } from '../../support/assertions.js';
import { startTestPostgres } from '../../support/postgres.js';
import { runMain, spawnServer } from '../../support/process.js';

const ignore = (): void => undefined;

/** Sends `signal` to each process that still runs (a backend may end between listing and signalling). */
function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

/** Backends of clients on the cluster now, other than the one asking. */
async function clientBackends(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query("SELECT count(*)::integer AS count FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
  const [row] = rows;
  const count: unknown = typeof row === 'object' && row !== null ? Object.getOwnPropertyDescriptor(row, 'count')?.value : undefined;
  assert.ok(typeof count === 'number');
  return count;
}

/** A pool whose connect() and whose client's query() do as scripted, recording how each client was released. */
function scriptedPool(connect: () => Promise<unknown>, query: () => Promise<{ rows: unknown[] }>): QueryPool & { releases: unknown[] } {
  const releases: unknown[] = [];
  const client: PooledClient = {
    query,
    release: (destroy) => void releases.push(destroy),
    on: () => undefined,
    removeListener: () => undefined,
  };
  return {
    releases,
    connect: () => connect().then(() => client),
    totalCount: 1,
    idleCount: 0,
    waitingCount: 2,
  };
}

const OPTIONS = { poolWait: 250, statementTimeout: 1_000, max: 3 };
const answers = async (): Promise<{ rows: unknown[] }> => ({ rows: [{ one: 1 }] });

describe('pooledQuery()', () => {
  test('pooledQuery() names what went wrong while getting a connection, and says the statement was never sent', async () => {
    const cases: [Error, string | undefined, RegExp][] = [
      [new Error('timeout exceeded when trying to connect'), 'PETSTORE_POOL_WAIT', /^no pooled connection was free within 250 ms; all 3 were busy$/],
      [new Error('Connection terminated due to connection timeout'), 'PETSTORE_CONNECT_TIMEOUT', /^opening a connection took longer than 250 ms$/],
      [new Error('Connection terminated unexpectedly for user "secret"'), 'PETSTORE_CONNECT_FAILED', /^opening a connection failed$/],
      [new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'), 'PETSTORE_NO_PASSWORD', /^pg: SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string$/],
      [new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a non-empty string'), 'PETSTORE_NO_PASSWORD', /must be a non-empty string$/],
      [Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'ECONNREFUSED', /ECONNREFUSED/],
    ];
    for (const [error, code, message] of cases) {
      const pool = scriptedPool(() => Promise.reject(error), answers);
      const pooled = pooledQuery(pool, OPTIONS);
      await assert.rejects(pooled.query('SELECT 1', []), (failure: unknown) => {
        return failure instanceof PoolFailure && failure.code === code && failure.isUnsent && message.test(failure.message) && failure.cause === error;
      });
      const mapped = databaseFailure(await pooled.query('SELECT 1', []).catch((failure: unknown) => failure), 'store the pet');
      assert.ok(mapped instanceof PetstoreError && mapped.code === 'unavailable');
      assert.match(mapped.message, /The pet was never sent to PostgreSQL, so it was not stored; creating it again is safe\.$/);
      assert.doesNotMatch(mapped.message, /secret|10\.0\.0\.1/, 'the driver\'s words stay out of the message');
    }
    const full = pooledQuery(scriptedPool(() => Promise.reject(new Error('timeout exceeded when trying to connect')), answers), OPTIONS);
    await full.query('SELECT 1', []).catch(() => undefined);
    assert.deepEqual(full.connections(), { max: 3, total: 1, idle: 0, waiting: 2, waitTimeouts: 1 });
  });

  test('pooledQuery() reports a server that asks for a password none was given as that, with where to give one, not as PostgreSQL being down', async () => {
    const pooled = pooledQuery(scriptedPool(() => Promise.reject(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string')), answers), OPTIONS);
    const mapped = databaseFailure(await pooled.query('SELECT 1', []).catch((failure: unknown) => failure), 'prepare the pets table');
    assert.ok(mapped instanceof PetstoreError && mapped.code === 'unavailable');
    assert.match(mapped.message, /^Cannot prepare the pets table: PostgreSQL asks for a password and none was given \(PETSTORE_NO_PASSWORD: pg: SASL: .*\); put the password in the connection URL .* or set PGPASSWORD\.$/);
    assert.doesNotMatch(mapped.message, /is running/);
  });

  test('pooledQuery() keeps a connection after a statement\'s SQLSTATE, closes it after anything else, and calls a failure without a code a lost connection', async () => {
    const sqlState = Object.assign(new Error('duplicate key'), { code: '23505' });
    const lost = new Error('Connection terminated unexpectedly');
    const defect = new TypeError('bad value');
    const cases: [Error, (failure: unknown) => boolean, (release: unknown) => boolean][] = [
      [sqlState, (failure) => failure === sqlState, (release) => release === undefined],
      [lost, (failure) => failure instanceof PoolFailure && failure.code === 'PETSTORE_CONNECTION_LOST' && !failure.isUnsent && failure.cause === lost, (release) => release === lost],
      [defect, (failure) => failure === defect, (release) => release === defect],
    ];
    for (const [error, isThrown, isRelease] of cases) {
      const pool = scriptedPool(async () => undefined, () => Promise.reject(error));
      await assert.rejects(pooledQuery(pool, OPTIONS).query('SELECT 1', []), isThrown);
      assert.ok(isRelease(pool.releases[0]), String(pool.releases[0]));
    }
    const pool = scriptedPool(async () => undefined, answers);
    assert.deepEqual(await pooledQuery(pool, OPTIONS).query('SELECT 1', []), { rows: [{ one: 1 }] });
    assert.deepEqual(pool.releases, [undefined]);
  });

  test('pooledQuery() fails a statement unanswered within the statement timeout and closes its connection', async () => {
    const pool = scriptedPool(async () => undefined, () => new Promise(() => undefined));
    await assert.rejects(pooledQuery(pool, { ...OPTIONS, statementTimeout: 20 }).query('SELECT 1', []), (failure: unknown) => {
      return failure instanceof PoolFailure && failure.code === 'PETSTORE_STATEMENT_TIMEOUT' && !failure.isUnsent && /within the statement timeout of 20 ms/.test(failure.message);
    });
    assert.ok(pool.releases[0] instanceof PoolFailure, 'the connection is closed, not handed to the next statement');
  });

  test('pooledQuery().preparedQuery hands the named statement to the connection whole, and bounds it as query does', async () => {
    const got: unknown[][] = [];
    const pool = scriptedPool(async () => undefined, async (...args: unknown[]) => {
      got.push(args);
      return { rows: [{ one: 1 }] };
    });
    const statement = { name: 'petstore_0123', text: 'SELECT $1::integer AS one', values: [1] };
    assert.deepEqual(await pooledQuery(pool, OPTIONS).preparedQuery(statement), { rows: [{ one: 1 }] });
    assert.deepEqual(got, [[statement]], 'one argument, the statement with its name, as pg takes it');
    assert.deepEqual(pool.releases, [undefined]);
    const silent = scriptedPool(async () => undefined, () => new Promise(() => undefined));
    await assert.rejects(pooledQuery(silent, { ...OPTIONS, statementTimeout: 20 }).preparedQuery(statement), (failure: unknown) => failure instanceof PoolFailure && failure.code === 'PETSTORE_STATEMENT_TIMEOUT');
    assert.ok(silent.releases[0] instanceof PoolFailure, 'the connection is closed, not handed to the next statement');
  });
});

describe('poolBounds()', () => {
  test('poolBounds() takes each bound from its setting, else from the connection URL as pg names it, else its default', () => {
    assert.deepEqual(poolBounds({ databaseUrl: 'postgresql://db/petstore' }), {
      poolSize: 10, poolWaitMs: 5_000, idleTimeoutMs: 10_000, statementTimeoutMs: 10_000, requestDeadlineMs: 15_000, lockTimeoutMs: 5_000,
    });
    const url = 'postgresql://db/petstore?max=2&connectionTimeoutMillis=700&idleTimeoutMillis=0&query_timeout=3000';
    assert.deepEqual(poolBounds({ databaseUrl: url }), {
      poolSize: 2, poolWaitMs: 700, idleTimeoutMs: 0, statementTimeoutMs: 3_000, requestDeadlineMs: 15_000, lockTimeoutMs: 1_500,
    });
    assert.deepEqual(poolBounds({ databaseUrl: url, poolSize: 3, poolWait: 0.25, idleTimeout: 1, statementTimeout: 20, requestDeadline: 30 }), {
      poolSize: 3, poolWaitMs: 250, idleTimeoutMs: 1_000, statementTimeoutMs: 20_000, requestDeadlineMs: 30_000, lockTimeoutMs: 5_000,
    });
  });

  test('poolBounds() refuses a pool parameter of the URL that is not a whole number, naming it', () => {
    for (const query of ['max=0', 'max=two', 'connectionTimeoutMillis=-1', 'query_timeout=1.5']) {
      assert.throws(() => poolBounds({ databaseUrl: `postgresql://db/petstore?${query}` }), (error: unknown) => {
        return error instanceof UsageError && error.message.includes(`\`${query.split('=')[0] ?? ''}\``) && /must be a whole number/.test(error.message);
      });
    }
  });

  test('serve refuses the pool\'s settings without a database URL, and a pool size of 0', async () => {
    const alone = await runMain({ PETSTORE_API_KEYS: 'pool-settings-key-0123' }, ['serve', '--pool-size', '2']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--pool-size apply only with PostgreSQL/);
    const zero = await runMain({ PETSTORE_API_KEYS: 'pool-settings-key-0123', PETSTORE_DATABASE_URL: 'postgresql://127.0.0.1:1/none' }, ['serve', '--pool-size', '0']);
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /--pool-size/);
  });
});

const postgres = await startTestPostgres();

describe('the server\'s PostgreSQL pool', { skip: postgres.skip }, () => {
  const url = postgres.cluster?.url ?? '';

  async function withAdmin(use: (admin: pg.Client) => Promise<void>): Promise<void> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await use(admin);
    } finally {
      await admin.end();
    }
  }

  test('openPostgresStorage() sizes its pool by `?max=2` in the URL, and shows the pool through connections()', async () => {
    await withAdmin(async (admin) => {
      const storage = await openPostgresStorage({ databaseUrl: `${url}?max=2`, log: ignore });
      try {
        await Promise.all(Array.from({ length: 8 }, (_, index) => storage.get(index + 1)));
        assert.ok((await clientBackends(admin)) <= 2, 'at most two connections were opened');
        const stats = storage.connections?.();
        assert.ok(stats !== undefined, 'the storage shows its pool');
        assert.equal(stats.max, 2);
        assert.ok(stats.total >= 1 && stats.total <= 2 && stats.idle === stats.total && stats.waiting === 0, JSON.stringify(stats));
      } finally {
        await storage.close?.();
      }
    });
  });

  test('the server with metrics on PostgreSQL shows its pool in /metrics: the CLI wires the pool\'s figures, which are no member of the storage contract, to the operator\'s kit', async () => {
    const server = spawnServer({ PETSTORE_API_KEYS: 'pool-metrics-key-0123', PETSTORE_DATABASE_URL: `${url}?max=3`, PETSTORE_METRICS: 'true' });
    try {
      await server.ready;
      const scraped = await (await fetch(`${server.origin}/metrics`)).text();
      assert.match(scraped, /\npetstore_storage_pool_max_connections\{storage="postgres"\} 3\n/);
      assert.match(scraped, /\npetstore_storage_pool_connections\{storage="postgres"\} [0-9]+\n/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('a request that finds every pooled connection busy past the pool wait answers 503 saying the pet was never sent', async () => {
    await withAdmin(async (admin) => {
      const storage = await openPostgresStorage({ databaseUrl: url, log: ignore, poolSize: 1, poolWait: 0.3 });
      try {
        // The one connection waits behind a stray holder of the insert lock.
        await admin.query('SELECT pg_advisory_lock(1348826227, ($1::regclass::oid::bigint - 2147483648)::integer)', ['pets']);
        const held = storage.insert({ name: 'Held', categoryId: 1 });
        const isBusy = (): boolean => storage.connections?.().total === 1 && storage.connections().idle === 0;
        for (let round = 0; !isBusy() && round < 500; round++) await new Promise((resolve) => setTimeout(resolve, 10));
        assert.ok(isBusy(), 'the pool\'s one connection is busy with the held create');
        const create = await rejection(() => storage.insert({ name: 'Never sent', categoryId: 1 }), 'unavailable');
        assert.match(create.message, /^Cannot store the pet: every pooled connection of this process is busy \(PETSTORE_POOL_WAIT: no pooled connection was free within 300 ms; all 1 were busy\); retry; if it persists, raise the pool size \(--pool-size\)/);
        assert.match(create.message, /The pet was never sent to PostgreSQL, so it was not stored; creating it again is safe\.$/);
        assert.doesNotMatch(create.message, /may have been stored|connection failed/);
        const read = await rejection(() => storage.get(1), 'unavailable');
        assert.match(read.message, /^Cannot read the pet: every pooled connection of this process is busy \(PETSTORE_POOL_WAIT/);
        assert.equal(storage.connections?.().waitTimeouts, 2);
        await admin.query('SELECT pg_advisory_unlock_all()');
        assert.equal((await held).name, 'Held');
      } finally {
        await admin.query('SELECT pg_advisory_unlock_all()');
        await storage.close?.();
      }
    });
  });

  test('a create that outlasts the request deadline answers 503 naming the deadline, and says the pet may have been stored', async () => {
    await withAdmin(async (admin) => {
      const storage = await openPostgresStorage({ databaseUrl: url, log: ignore, requestDeadline: 0.3 });
      try {
        await admin.query('SELECT pg_advisory_lock(1348826227, ($1::regclass::oid::bigint - 2147483648)::integer)', ['pets']);
        const error = await rejection(() => storage.insert({ name: 'Too slow', categoryId: 1 }), 'unavailable');
        assert.match(error.message, /^Cannot store the pet: PostgreSQL is unavailable \(PETSTORE_REQUEST_DEADLINE: the operation did not finish within the request deadline of 300 ms\).*--request-deadline\. The pet may have been stored/);
      } finally {
        await admin.query('SELECT pg_advisory_unlock_all()');
        await storage.close?.();
      }
    });
  });

  test('a PostgreSQL frozen mid-statement (SIGSTOP) gives 503 at the statement timeout instead of a hang, and the pool recovers once it runs again', async () => {
    const cluster = postgres.cluster;
    assert.ok(cluster !== undefined);
    const storage: PetStorage = await openPostgresStorage({ databaseUrl: url, log: ignore, statementTimeout: 0.5, poolWait: 1 });
    const stored = await storage.insert({ name: 'Before the freeze', categoryId: 1 });
    const frozen = await cluster.processes();
    const thaw = (): void => signalEach(frozen, 'SIGCONT');
    signalEach(frozen, 'SIGSTOP');
    // Bounded: whatever happens below, the database runs again within 8 s.
    const guard = setTimeout(thaw, 8_000);
    try {
      const read = await rejection(() => storage.get(stored.id), 'unavailable');
      assert.match(read.message, /^Cannot read the pet: PostgreSQL is unavailable \(PETSTORE_STATEMENT_TIMEOUT: no answer came within the statement timeout of 500 ms\)/);
      const create = await rejection(() => storage.insert({ name: 'During the freeze', categoryId: 1 }), 'unavailable');
      // The timed-out connection was closed; a new one cannot open while the server is frozen, so nothing was sent.
      assert.match(create.message, /\(PETSTORE_CONNECT_TIMEOUT: opening a connection took longer than 1000 ms\).*The pet was never sent to PostgreSQL/);
    } finally {
      clearTimeout(guard);
      thaw();
    }
    assert.deepEqual(await storage.get(stored.id), stored, 'the pool serves again once the database runs');
    await storage.close?.();
  });
});
