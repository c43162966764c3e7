import { base64UrlOf } from './base64.js';
import { headerOf } from './request.js';
import type { RequestHeaders } from './request.js';

/** The header that carries a request's id, in the answer and, when a client or proxy chose it, in the request. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming id worth keeping: 1 to 128 visible ASCII characters (0x21–0x7E), so it is safe in a header and a log line. */
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Random bytes in the prefix of the ids this process makes: 96 bits, so two processes' ids do not collide. */
const PREFIX_BYTES = 12;

let prefix: string | undefined;
let counter = 0;

/** Random bytes in base64url; `crypto.getRandomValues` exists in Node, Deno, Bun and edge workers. */
function randomPrefix(): string {
  return base64UrlOf(globalThis.crypto.getRandomValues(new Uint8Array(PREFIX_BYTES)));
}

/**
 * A new request id: a random prefix drawn once per process, then a counter (`p5GJ1t2VtbRXoqcN-1a`).
 * Unique without a random draw per request, which measured six times dearer than this (`randomUUID`).
 * The prefix is drawn at the first call, not at import: edge workers refuse randomness at start-up.
 */
export function newRequestId(): string {
  prefix ??= `${randomPrefix()}-`;
  counter++;
  return prefix + counter.toString(36);
}

/** The id of a request: the one it carries when valid (a proxy's or a client's), otherwise a new one. */
export function requestIdOf(headers: RequestHeaders): string {
  const incoming = headerOf(headers, 'x-request-id');
  return incoming !== undefined && VALID_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}
