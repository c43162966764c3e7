import { isUnexpectedError, PetstoreError, toErrorBody } from '../../lib/index.js';
import type { HeaderList } from '../../lib/index.js';
import { jsonResponse } from './response.js';
import type { BareResponse } from './response.js';

const NO_HEADERS: HeaderList = [];

/** A 503 caused by the storage (a database down, a disk refusing writes): the client gets the advice, the operator the cause. */
function hasOperationalCause(error: unknown): boolean {
  return error instanceof PetstoreError && error.status === 503 && error.cause !== undefined;
}

/** Whether an error's detail belongs in the log: an unexpected one (a 500), or a storage failure with its cause (a 503). */
export function isLoggedError(error: unknown): boolean {
  return isUnexpectedError(error) || hasOperationalCause(error);
}

/**
 * The one place a thrown value becomes an answer [spec 7], without side effects: the Error body with
 * `status` equal to the HTTP status, the error's own headers (`Allow`, a challenge) and `headers`.
 * Anything but a PetstoreError below 500 becomes a generic 500; whoever calls this decides whether
 * the detail goes to a log (`isLoggedError`). A 413 ends its connection: the body it refused is
 * still arriving, and reading it would be the work the limit exists to avoid.
 */
export function errorResponse(error: unknown, headers: HeaderList = NO_HEADERS): BareResponse {
  const body = toErrorBody(error);
  const ownHeaders = error instanceof PetstoreError && body.code === error.code ? error.headers : NO_HEADERS;
  const response = jsonResponse(body.status, JSON.stringify(body), ownHeaders.length === 0 ? headers : [...ownHeaders, ...headers]);
  return body.code === 'payload_too_large' ? { ...response, closesConnection: true } : response;
}

/** Default error log of the adapters: the stack on the console. */
export function logToConsole(error: unknown): void {
  console.error(error);
}
