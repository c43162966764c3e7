import { isUnexpectedError, PetstoreError, toErrorBody } from '../../lib/index.js';
import type { HeaderList } from '../../lib/index.js';
import { jsonResponse } from './response.js';
import type { BareResponse } from './response.js';

/** Options of errorResponse. */
export interface ErrorResponseOptions {
  /** Headers every answer of the operation carries, errors included (the deprecation of `getPet`). */
  headers?: HeaderList;
  /** Whether the request is a HEAD, answered without a body. */
  isHead?: boolean;
  /** Receives unexpected errors (the 500s) and storage failures (the 503s with a cause), whose detail never reaches the client. */
  logError: (error: unknown) => void;
}

/** A 503 caused by the storage (a database down, a disk refusing writes): the client gets the advice, the operator the cause. */
function hasOperationalCause(error: unknown): boolean {
  return error instanceof PetstoreError && error.status === 503 && error.cause !== undefined;
}

/** Whether an error's detail belongs in the log: an unexpected one (a 500), or a storage failure with its cause (a 503). */
export function isLoggedError(error: unknown): boolean {
  return isUnexpectedError(error) || hasOperationalCause(error);
}

/**
 * The one place a thrown value becomes an answer [spec 7]: the Error body with `status` equal to the
 * HTTP status, the error's own headers (`Allow`, a challenge, `Connection: close`) and the operation's.
 * Anything but a PetstoreError below 500 becomes a generic 500 whose detail goes to `logError` only.
 */
export function errorResponse(error: unknown, options: ErrorResponseOptions): BareResponse {
  if (isLoggedError(error)) options.logError(error);
  const body = toErrorBody(error);
  const ownHeaders = error instanceof PetstoreError && body.code === error.code ? error.headers : [];
  const headers = options.headers === undefined ? ownHeaders : [...ownHeaders, ...options.headers];
  return jsonResponse(body.status, JSON.stringify(body), headers, options.isHead);
}

/** Default error log of the adapters: the stack on the console. */
export function logToConsole(error: unknown): void {
  console.error(error);
}
