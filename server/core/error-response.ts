import { isUnexpectedError, PetstoreError, toErrorBody } from '../../lib/index.js';
import { HttpError } from './http-error.js';
import { jsonResponse } from './response.js';
import type { BareResponse, HeaderList } from './response.js';

const NO_HEADERS: HeaderList = [];

/**
 * Seconds a 503 asks the client to wait before trying again [RFC 9110 §10.2.3] (decided): the
 * smallest whole number HTTP can ask for. An outage the storage reports (a database restarting or
 * failing over, a disk refusing writes) is answered at once, so without a hint clients would retry
 * at once and add load to a store that is recovering; one second spaces them out while an outage of
 * a few seconds still costs a client only a few attempts.
 */
export const UNAVAILABLE_RETRY_AFTER = 1;

/** The `Retry-After` every 503 carries. */
const UNAVAILABLE_HEADERS: HeaderList = ['Retry-After', String(UNAVAILABLE_RETRY_AFTER)];

/** A 503 caused by the storage (a database down, a disk refusing writes): the client gets the advice, the operator the cause. */
function hasOperationalCause(error: unknown): boolean {
  return error instanceof PetstoreError && error.status === 503 && error.cause !== undefined;
}

/** Whether an error's detail belongs in the log: an unexpected one (a 500), or a storage failure with its cause (a 503). */
export function isLoggedError(error: unknown): boolean {
  return isUnexpectedError(error) || hasOperationalCause(error);
}

/** The headers an error's answer carries of its own: an HttpError's (`Allow`, a challenge), and every 503's `Retry-After`. */
function ownHeadersOf(error: unknown, code: string): HeaderList {
  const headers = error instanceof HttpError && code === error.code ? error.headers : NO_HEADERS;
  if (code !== 'unavailable' || headers.some((name, index) => index % 2 === 0 && name.toLowerCase() === 'retry-after')) return headers;
  return headers.length === 0 ? UNAVAILABLE_HEADERS : [...UNAVAILABLE_HEADERS, ...headers];
}

/**
 * The one place a thrown value becomes an answer [spec 7], without side effects: the Error body with
 * `status` equal to the HTTP status, the error's own headers (an HttpError's `Allow` or challenge, a
 * 503's `Retry-After`) and `headers`. Anything but a PetstoreError, and a 500 that does not expose its message, becomes a generic 500;
 * whoever calls this decides whether the detail goes to a log (`isLoggedError`). A 413 ends its
 * connection: the body it refused is still arriving, and reading it would be the work the limit
 * exists to avoid.
 */
export function errorResponse(error: unknown, headers: HeaderList = NO_HEADERS): BareResponse {
  const body = toErrorBody(error);
  const ownHeaders = ownHeadersOf(error, body.code);
  const response = jsonResponse(body.status, JSON.stringify(body), ownHeaders.length === 0 ? headers : [...ownHeaders, ...headers]);
  return body.code === 'payload_too_large' ? { ...response, closesConnection: true } : response;
}

/** Default error log of the adapters: the stack on the console. */
export function logToConsole(error: unknown): void {
  console.error(error);
}
