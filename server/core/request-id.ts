import { base64UrlOf } from './base64.js';
import { headerOf } from './request.js';
import type { RequestHeaders } from './request.js';

/** The header that carries a request's id, in the answer and, when a client or proxy chose it, in the request. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An incoming id worth keeping: 1 to 64 letters, digits and `. _ : -`. That holds a UUID, a W3C trace
 * id, a ULID, nginx's `$request_id` and this process's own ids, and nothing that could split a header
 * or a log line; a JWT (longer) and tokens with `+ / = ~` do not fit.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The fewest characters an id must share with the request's credential to count as (part of) it. */
const CREDENTIAL_OVERLAP = 8;

/** Random bytes in the prefix of the ids this process makes: 96 bits, so two processes' ids do not collide. */
const PREFIX_BYTES = 12;

let prefix: string | undefined;
let counter = 0;

/**
 * A new request id: a random prefix drawn once per process, then a counter (`p5GJ1t2VtbRXoqcN-1a`).
 * Unique without a random draw per request, which measured six times dearer than this (`randomUUID`).
 * The prefix is drawn at the first call, not at import: edge workers refuse randomness at start-up
 * (`crypto.getRandomValues` exists in Node, Deno, Bun and edge workers).
 */
export function newRequestId(): string {
  prefix ??= `${base64UrlOf(globalThis.crypto.getRandomValues(new Uint8Array(PREFIX_BYTES)))}-`;
  counter++;
  return prefix + counter.toString(36);
}

/**
 * Whether an id holds the request's own credential, or is part of it: a client that sent its key in
 * the wrong header must not have it echoed and logged.
 */
function holdsCredential(id: string, authorization: string | undefined): boolean {
  if (authorization === undefined) return false;
  const token = authorization.replace(/^\S+ +/, '').trim();
  const [shorter, longer] = id.length <= token.length ? [id, token] : [token, id];
  return shorter.length >= CREDENTIAL_OVERLAP && longer.includes(shorter);
}

/**
 * The id of a request: the one it carries when of the safe form, not its credential and holding no
 * run of an API key (`holdsKey`, the keyring's), a proxy's or a client's; otherwise a new one. An id
 * holding a key, whole or less a character or beside other text, is replaced whatever `Authorization`
 * the request carries, none or a wrong one or another key.
 */
export function requestIdOf(headers: RequestHeaders, holdsKey?: (id: string) => boolean): string {
  const incoming = headerOf(headers, 'x-request-id');
  if (incoming === undefined || !SAFE_REQUEST_ID.test(incoming)) return newRequestId();
  const isKept = !holdsCredential(incoming, headerOf(headers, 'authorization')) && holdsKey?.(incoming) !== true;
  return isKept ? incoming : newRequestId();
}
