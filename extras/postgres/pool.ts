import { isSqlState, PoolFailure } from './failures.js';
import type { NamedStatement, PostgresPreparedQuery, PostgresQuery } from './storage.js';

/** The part of a `pg` PoolClient the pooled query uses. */
export interface PooledClient {
  /** Runs one statement: its text and values, or a named statement, which the connection parses and plans once. */
  query(statement: string | NamedStatement, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Back to the pool; with an error (or `true`), the connection is closed instead. */
  release(destroy?: Error | boolean): void;
  /** A connection that fails while checked out emits `error`; without a listener, that would crash the process. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a `pg` Pool (pg-pool) the pooled query uses; described here so the library needs no `pg` typings. */
export interface QueryPool {
  /** A free connection, or a new one; rejects once the pool's `connectionTimeoutMillis` passes. */
  connect(): Promise<PooledClient>;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** Options of pooledQuery. */
export interface PooledQueryOptions {
  /** How long the pool may take to hand out a connection (ms): the pool's `connectionTimeoutMillis`, for messages. */
  poolWait: number;
  /** How long a statement may go unanswered (ms) before it fails and its connection is closed. */
  statementTimeout: number;
  /** The pool's size, for messages and metrics. */
  max: number;
}

/** A pool of database connections at one moment, as metrics show it. */
export interface ConnectionPoolStats {
  /** The most connections the pool opens. */
  max: number;
  /** Connections open now, busy or idle. */
  total: number;
  /** Open connections waiting for a statement. */
  idle: number;
  /** Statements waiting for a connection. */
  waiting: number;
  /** Statements that gave up waiting for a connection, since the pool was made. */
  waitTimeouts: number;
}

/** A PostgresQuery over a pool that bounds every wait, and the pool's figures for metrics. */
export interface PooledQuery {
  query: PostgresQuery;
  /** As `query`, for a named statement (the storage's `preparedQuery`), bounded the same way. */
  preparedQuery: PostgresPreparedQuery;
  connections(): ConnectionPoolStats;
}

/** pg-pool's words for a wait in its queue that passed `connectionTimeoutMillis` (it gives no code). */
const QUEUE_TIMEOUT_TEXT = 'timeout exceeded when trying to connect';
/** pg's words when the server asks for a password (SCRAM) and neither the URL nor PGPASSWORD gives one. */
const NO_PASSWORD_TEXT = /^SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a (?:non-empty )?string$/;
/** pg-pool's words for a new connection that did not open within `connectionTimeoutMillis`. */
const CONNECT_TIMEOUT_TEXT = 'Connection terminated due to connection timeout';

function codeOf(error: unknown): string | undefined {
  const code: unknown = typeof error === 'object' && error !== null ? Object.getOwnPropertyDescriptor(error, 'code')?.value : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A failure to get a connection: the statement was never sent, whatever went wrong. */
function connectFailure(error: unknown, options: PooledQueryOptions): PoolFailure {
  const text = error instanceof Error ? error.message : String(error);
  if (text === QUEUE_TIMEOUT_TEXT) {
    return new PoolFailure('PETSTORE_POOL_WAIT', `no pooled connection was free within ${options.poolWait} ms; all ${options.max} were busy`, true, { cause: error });
  }
  if (text === CONNECT_TIMEOUT_TEXT) {
    return new PoolFailure('PETSTORE_CONNECT_TIMEOUT', `opening a connection took longer than ${options.poolWait} ms`, true, { cause: error });
  }
  if (NO_PASSWORD_TEXT.test(text)) {
    return new PoolFailure('PETSTORE_NO_PASSWORD', `pg: ${text}`, true, { cause: error });
  }
  const code = codeOf(error);
  // The driver's own words can name hosts and users; a failure without a code gets one, and words of ours.
  if (code === undefined) return new PoolFailure('PETSTORE_CONNECT_FAILED', 'opening a connection failed', true, { cause: error });
  return new PoolFailure(code, text, true, { cause: error });
}

/** Errors that signal a defect in code rather than a lost connection: passed on as they are. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError];

/** A statement's failure as the storage should see it: one without any code means the connection was lost mid-statement. */
function statementFailure(error: unknown): unknown {
  const isCoded = error instanceof PoolFailure || codeOf(error) !== undefined;
  if (isCoded || !(error instanceof Error) || PROGRAMMING_ERRORS.some((kind) => error instanceof kind)) return error;
  return new PoolFailure('PETSTORE_CONNECTION_LOST', 'the connection was lost while the statement ran', false, { cause: error });
}

/**
 * Runs each statement on a connection of `pool`, as `pool.query` does, with every wait bounded:
 * getting a connection by the pool's own `connectionTimeoutMillis` (a PoolFailure that says the
 * statement was never sent), and the answer by `statementTimeout`, which fails the statement and
 * closes its connection (the only way to stop waiting on a database that stopped answering, as a
 * frozen server never runs its own `statement_timeout`). A statement that fails with a SQLSTATE
 * leaves its connection in the pool; any other failure closes it.
 */
export function pooledQuery(pool: QueryPool, options: PooledQueryOptions): PooledQuery {
  let waitTimeouts = 0;
  const onConnection = async (send: (client: PooledClient) => Promise<{ rows: unknown[] }>): Promise<{ rows: unknown[] }> => {
    let client: PooledClient;
    try {
      client = await pool.connect();
    } catch (error) {
      const failure = connectFailure(error, options);
      if (failure.code === 'PETSTORE_POOL_WAIT') waitTimeouts++;
      throw failure;
    }
    let timer: NodeJS.Timeout | undefined;
    let onError: (error: Error) => void = () => undefined;
    // The pool listens for errors of idle connections only; a connection lost while checked out
    // (PostgreSQL restarting) must fail this statement, not the process.
    const lost = new Promise<never>((_, reject) => {
      onError = reject;
    });
    client.on('error', onError);
    const answered = send(client);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PoolFailure('PETSTORE_STATEMENT_TIMEOUT', `no answer came within the statement timeout of ${options.statementTimeout} ms`, false)),
        options.statementTimeout,
      );
    });
    try {
      const result = await Promise.race([answered, timedOut, lost]);
      client.release();
      return result;
    } catch (error) {
      // An answer after the timeout has nobody to go to.
      answered.catch(() => undefined);
      const code = codeOf(error);
      const isStatementError = !(error instanceof PoolFailure) && code !== undefined && isSqlState(code);
      client.release(isStatementError ? undefined : error instanceof Error ? error : true);
      throw statementFailure(error);
    } finally {
      clearTimeout(timer);
      client.removeListener('error', onError);
    }
  };
  return {
    query: (text, values) => onConnection((client) => client.query(text, values)),
    preparedQuery: (statement) => onConnection((client) => client.query(statement)),
    connections: () => ({ max: options.max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, waitTimeouts }),
  };
}
