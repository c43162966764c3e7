import { PetstoreError } from '../../lib/index.js';

/** The failures the pooled query names itself, as the `code` of a PoolFailure. */
export const POOL_FAILURE_CODES = [
  'PETSTORE_POOL_WAIT', 'PETSTORE_CONNECT_TIMEOUT', 'PETSTORE_CONNECT_FAILED', 'PETSTORE_NO_PASSWORD', 'PETSTORE_CONNECTION_LOST', 'PETSTORE_STATEMENT_TIMEOUT', 'PETSTORE_REQUEST_DEADLINE',
] as const;

/** One of POOL_FAILURE_CODES. */
export type PoolFailureCode = (typeof POOL_FAILURE_CODES)[number];

/**
 * A statement that failed around the database rather than in it: no connection came in time, or no
 * answer did. `isUnsent` says the statement never left this process, so nothing can have been stored.
 */
export class PoolFailure extends Error {
  readonly code: string | undefined;
  readonly isUnsent: boolean;

  constructor(code: string | undefined, message: string, isUnsent: boolean, options: ErrorOptions = {}) {
    super(message, options);
    this.name = 'PoolFailure';
    this.code = code;
    this.isUnsent = isUnsent;
  }
}

/** Why a database cannot serve now, and what a person can do about it. */
interface Outage {
  reason: string;
  advice: string;
  /** Whether the connection broke after the statement may have reached the server. */
  isMidRequest: boolean;
  /** What the message says is wrong; default "PostgreSQL is unavailable". */
  subject?: string;
}

const START_OR_FIX_URL = 'start PostgreSQL or correct the connection URL (host and port)';

/** Socket-level error codes from Node, as the driver passes them on. */
const SYSTEM_OUTAGES: Readonly<Record<string, Outage>> = {
  ECONNREFUSED: { reason: 'nothing accepts connections at the configured host and port', advice: START_OR_FIX_URL, isMidRequest: false },
  ENOENT: { reason: 'no PostgreSQL socket exists at the configured path', advice: START_OR_FIX_URL, isMidRequest: false },
  ENOTFOUND: { reason: 'the configured host name does not resolve', advice: 'correct the host in the connection URL', isMidRequest: false },
  EAI_AGAIN: { reason: 'the configured host name could not be resolved just now', advice: 'check DNS, then retry', isMidRequest: false },
  ETIMEDOUT: { reason: 'connecting timed out', advice: 'check that the database host is up and reachable', isMidRequest: false },
  EHOSTUNREACH: { reason: 'the database host is unreachable', advice: 'check the network path to the database host', isMidRequest: false },
  ENETUNREACH: { reason: 'the database network is unreachable', advice: 'check the network path to the database host', isMidRequest: false },
  ECONNRESET: { reason: 'the connection was reset', advice: 'retry; if it persists, check the PostgreSQL server log', isMidRequest: true },
  EPIPE: { reason: 'the connection was closed while sending', advice: 'retry; if it persists, check the PostgreSQL server log', isMidRequest: true },
};

/** SQLSTATEs (exact, then by two-character class) that mean "cannot serve now", not "bad statement". */
const SQLSTATE_OUTAGES: Readonly<Record<string, Outage>> = {
  '57P01': { reason: 'the database server is shutting down', advice: 'retry once it is back', isMidRequest: true },
  '57P02': { reason: 'the database server crashed and is restarting', advice: 'retry once it is back', isMidRequest: true },
  '57P03': { reason: 'the database server is starting up or shutting down', advice: 'retry in a moment', isMidRequest: false },
  '3D000': { reason: 'the configured database does not exist', advice: 'create it (createdb) or correct the database name in the connection URL', isMidRequest: false },
  '25006': { reason: 'the database only accepts reads (a standby?)', advice: 'point the connection URL at the primary', isMidRequest: false },
  '55P03': {
    reason: 'another session held a lock the create needed past lock_timeout: the insert lock of the pets table, or a create with the same idempotency key',
    advice: 'look in pg_locks for a session holding the advisory lock with classid 1348826227, or a long transaction on the pets table, and end it',
    isMidRequest: false,
  },
  '57014': {
    reason: 'the statement was cancelled (statement_timeout, or pg_cancel_backend by an administrator)',
    advice: 'retry; if it persists, look in pg_stat_activity for what holds the database up',
    isMidRequest: false,
  },
  '53300': {
    reason: 'the database has no free connection slots',
    advice: 'lower the pool size per process (--pool-size) so that processes × pool size stays below max_connections, raise max_connections, or put PgBouncer in between',
    isMidRequest: false,
  },
  '08': { reason: 'the connection to the database failed', advice: START_OR_FIX_URL, isMidRequest: false },
  '28': { reason: 'the database refused the credentials', advice: 'check the user and password in the connection URL', isMidRequest: false },
  '53': { reason: 'the database server ran out of resources (disk, memory or connections)', advice: 'check the PostgreSQL server log', isMidRequest: true },
};

/** The pool's own failures: the reason is the failure's message, which gives the bound that passed. */
const POOL_OUTAGES: Readonly<Record<PoolFailureCode, Omit<Outage, 'reason'>>> = {
  PETSTORE_POOL_WAIT: {
    subject: 'every pooled connection of this process is busy',
    advice: 'retry; if it persists, raise the pool size (--pool-size) or the wait (--pool-wait), or add processes',
    isMidRequest: false,
  },
  PETSTORE_CONNECT_TIMEOUT: { advice: 'check that the database host is up and reachable, then retry', isMidRequest: false },
  PETSTORE_CONNECT_FAILED: { advice: 'check that PostgreSQL is running and reachable, then retry', isMidRequest: false },
  PETSTORE_NO_PASSWORD: {
    subject: 'PostgreSQL asks for a password and none was given',
    advice: 'put the password in the connection URL (postgresql://user:password@host:port/database, percent-encoded) or set PGPASSWORD',
    isMidRequest: false,
  },
  PETSTORE_CONNECTION_LOST: { advice: 'check that PostgreSQL is running and reachable, then retry', isMidRequest: true },
  PETSTORE_STATEMENT_TIMEOUT: {
    advice: 'check that PostgreSQL is running and not stalled (pg_stat_activity, the server log), then retry; the bound is --statement-timeout',
    isMidRequest: true,
  },
  PETSTORE_REQUEST_DEADLINE: {
    advice: 'check that PostgreSQL is running and not stalled, then retry; the bound is --request-deadline',
    isMidRequest: true,
  },
};

function isPoolFailureCode(code: string): code is PoolFailureCode {
  return Object.hasOwn(POOL_OUTAGES, code);
}

/** A failure with no SQLSTATE and no socket code: the driver lost or could not get a connection. */
const DRIVER_OUTAGE: Outage = {
  reason: 'the database connection failed or was closed',
  advice: 'check that PostgreSQL is running and reachable, then retry',
  isMidRequest: true,
};

/** What the storage was doing when the database failed, as said in messages. */
export type DatabaseAction = 'prepare the pets table' | 'store the pet' | 'store the pet with its idempotency key' | 'read the pet' | 'list pets' | 'reach the pets table';

/** What a create cut off mid-flight should do next: without a key, look before creating again; with one, repeat it. */
const DOUBTS: Partial<Record<DatabaseAction, string>> = {
  'store the pet': ' The pet may have been stored before the connection broke; list pets before creating it again.',
  'store the pet with its idempotency key': ' The pet may have been stored before the connection broke; repeat the create with the same idempotency key to receive it.',
};

/** What a create whose statement never left the process can be sure of. */
const CERTAINTIES: Partial<Record<DatabaseAction, string>> = {
  'store the pet': ' The pet was never sent to PostgreSQL, so it was not stored; creating it again is safe.',
  'store the pet with its idempotency key': ' The pet was never sent to PostgreSQL, so it was not stored; creating it again is safe.',
};

/** Errors that signal a defect in code rather than a database that is out of reach. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError];

function codeOf(error: object): string | undefined {
  const code: unknown = Object.getOwnPropertyDescriptor(error, 'code')?.value;
  return typeof code === 'string' ? code : undefined;
}

/** SQLSTATEs are five digits or capitals; no class starts with E, which Node's socket codes (EPIPE) do. */
export function isSqlState(code: string): boolean {
  return /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code);
}

function outageOf(error: Error, code: string | undefined): Outage | undefined {
  if (code !== undefined && isPoolFailureCode(code)) return { reason: error.message, ...POOL_OUTAGES[code] };
  if (code === undefined) return PROGRAMMING_ERRORS.some((kind) => error instanceof kind) ? undefined : DRIVER_OUTAGE;
  if (isSqlState(code)) return SQLSTATE_OUTAGES[code] ?? SQLSTATE_OUTAGES[code.slice(0, 2)];
  return SYSTEM_OUTAGES[code] ?? (code.startsWith('E') ? DRIVER_OUTAGE : undefined);
}

/**
 * Maps an error from the query function to what the storage throws. A database that cannot be
 * reached or cannot serve becomes `unavailable` (503) with a reason and advice but no addresses or
 * credentials (the message reaches clients; the original stays in `cause` for the log). Any other
 * SQLSTATE becomes `internal_error`; anything else is rethrown as it is.
 */
export function databaseFailure(error: unknown, action: DatabaseAction): unknown {
  if (error instanceof PetstoreError || !(error instanceof Error)) return error;
  const code = codeOf(error);
  const outage = outageOf(error, code);
  if (outage !== undefined) {
    const shownCode = code === undefined ? '' : `${code}: `;
    const isUnsent = error instanceof PoolFailure && error.isUnsent;
    // A statement cut off mid-flight may have committed; saying so stops a blind retry from duplicating a pet.
    const doubt = isUnsent ? CERTAINTIES[action] ?? '' : outage.isMidRequest ? DOUBTS[action] ?? '' : '';
    const subject = outage.subject ?? 'PostgreSQL is unavailable';
    return new PetstoreError('unavailable', `Cannot ${action}: ${subject} (${shownCode}${outage.reason}); ${outage.advice}.${doubt}`, {
      cause: error,
    });
  }
  if (code !== undefined && isSqlState(code)) {
    return new PetstoreError('internal_error', `Cannot ${action}: PostgreSQL failed with SQLSTATE ${code}: ${error.message}`, { cause: error });
  }
  return error;
}

/**
 * Maps a failed readiness probe to `unavailable`, as `checkReady` must answer: an outage keeps its
 * reason and advice; anything else (a table dropped or altered since the start, a failing query
 * function) is reported with its message, naming the table.
 */
export function readinessFailure(error: unknown, table: string): PetstoreError {
  const failure = databaseFailure(error, 'reach the pets table');
  if (failure instanceof PetstoreError && failure.code === 'unavailable') return failure;
  const code = error instanceof Error ? codeOf(error) : undefined;
  const shown = `${code === undefined ? '' : `${code}: `}${error instanceof Error ? error.message : String(error)}`;
  return new PetstoreError(
    'unavailable',
    `Cannot reach the pets table: reading table ${table} failed (${shown}); it may have been dropped or altered since the server started. `
    + 'Restore it, or restart the server to create it again.',
    { cause: error },
  );
}
