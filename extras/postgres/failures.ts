import { PetstoreError } from '../../lib/errors.js';

/** Why a database cannot serve now, and what a person can do about it. */
interface Outage {
  reason: string;
  advice: string;
  /** Whether the connection broke after the statement may have reached the server. */
  isMidRequest: boolean;
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
    reason: 'another session held the insert lock of the pets table past lock_timeout',
    advice: 'look in pg_locks for a session holding the advisory lock with classid 1348826227',
    isMidRequest: false,
  },
  '53300': { reason: 'the database has no free connection slots', advice: 'lower the pool size per process or raise max_connections', isMidRequest: false },
  '08': { reason: 'the connection to the database failed', advice: START_OR_FIX_URL, isMidRequest: false },
  '28': { reason: 'the database refused the credentials', advice: 'check the user and password in the connection URL', isMidRequest: false },
  '53': { reason: 'the database server ran out of resources (disk, memory or connections)', advice: 'check the PostgreSQL server log', isMidRequest: true },
};

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

/** Errors that signal a defect in code rather than a database that is out of reach. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError];

function codeOf(error: object): string | undefined {
  const code: unknown = Object.getOwnPropertyDescriptor(error, 'code')?.value;
  return typeof code === 'string' ? code : undefined;
}

/** SQLSTATEs are five digits or capitals; no class starts with E, which Node's socket codes (EPIPE) do. */
function isSqlState(code: string): boolean {
  return /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code);
}

function outageOf(error: Error, code: string | undefined): Outage | undefined {
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
    // A statement cut off mid-flight may have committed; saying so stops a blind retry from duplicating a pet.
    const doubt = outage.isMidRequest ? DOUBTS[action] ?? '' : '';
    return new PetstoreError('unavailable', `Cannot ${action}: PostgreSQL is unavailable (${shownCode}${outage.reason}); ${outage.advice}.${doubt}`, {
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
