import { PetstoreError } from '../../lib/index.js';

/** How much an event matters, from the most to the least: a writer shows those at or above its level. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** One structured event; the writer adds `time`. Never carries a key or an `Authorization` value. */
export interface LogEntry {
  level: LogLevel;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/** Receives structured events: what a process writes as one JSON line each. */
export type Logger = (entry: LogEntry) => void;

/** The text of a thrown value for a log: an Error's stack (which starts with its message), anything else as text. */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.stack ?? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'a value that cannot be turned into text';
  }
}

/** The `msg` of a storage failure's event: one per failed request, so an outage repeats it. */
export const STORAGE_FAILED_MSG = 'The storage failed; answered 503 unavailable';

/** The `msg` of an unexpected error's event: one per failed request, so a bug on a hot path repeats it. */
export const UNEXPECTED_ERROR_MSG = 'Unexpected error; answered 500 internal_error';

/**
 * The event for an error whose detail goes to the log rather than to the client: an unexpected one
 * (answered 500) with its stack, or a storage failure (answered 503) with its cause.
 */
export function errorEntry(error: unknown, requestId: string): LogEntry {
  if (error instanceof PetstoreError && error.status === 503) {
    // The cause's own code (a SQLSTATE, a system error's ENOSPC) lets a reader of the log group failures by what caused them.
    const code: unknown = typeof error.cause === 'object' && error.cause !== null ? Object.getOwnPropertyDescriptor(error.cause, 'code')?.value : undefined;
    const causeCode = typeof code === 'string' ? { causeCode: code } : {};
    return { level: 'warn', msg: STORAGE_FAILED_MSG, requestId, error: error.message, cause: describeError(error.cause), ...causeCode };
  }
  return { level: 'error', msg: UNEXPECTED_ERROR_MSG, requestId, error: describeError(error) };
}
