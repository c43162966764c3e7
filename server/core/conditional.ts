import type { HeaderList } from '../../lib/index.js';
import { headerOf } from './request.js';
import type { RequestHeaders } from './request.js';
import type { BareResponse } from './response.js';
import { base64UrlOf } from './base64.js';
import { sha256 } from './sha256.js';

/** A text served as it is, with a validator: its bytes, encoded once, and the headers of its 200. */
export interface Representation {
  /** The strong entity tag of the bytes, quoted, as `ETag` carries it. */
  readonly entityTag: string;
  readonly bytes: Uint8Array;
  /** Every header of the 200, `ETag` and `Content-Length` included. */
  readonly headers: HeaderList;
  /** The headers a 304 repeats [RFC 9110 §15.4.5]: `ETag` and `Cache-Control`. */
  readonly notModifiedHeaders: HeaderList;
}

/** Caches may keep the answer but must ask again before using it (RFC 9111 §5.2.2.4), so an edit shows at once and costs a 304 otherwise. */
const REVALIDATE = 'no-cache';

/** A strong entity tag for a text: the base64url SHA-256 of its UTF-8 bytes, quoted [RFC 9110 §8.8.3]. */
export function entityTagOf(text: string): string {
  return `"${base64UrlOf(sha256(text))}"`;
}

/**
 * Whether an `If-None-Match` value matches an entity tag [RFC 9110 §13.1.2]: `*` matches any current
 * representation; otherwise any listed tag does, by weak comparison (a `W/` prefix is ignored). A
 * value holding no entity tag matches nothing, so the full answer is sent.
 */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, entityTag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = entityTag.startsWith('W/') ? entityTag.slice(2) : entityTag;
  for (const [, listed] of ifNoneMatch.matchAll(/(?:W\/)?("[^"]*")/g)) {
    if (listed === opaque) return true;
  }
  return false;
}

/** A text as a representation of `contentType`, with the headers its 200 carries beside the common ones. */
export function createRepresentation(text: string, contentType: string, headers: HeaderList = []): Representation {
  const bytes = new TextEncoder().encode(text);
  const entityTag = entityTagOf(text);
  return {
    entityTag,
    bytes,
    headers: ['Content-Type', contentType, 'Cache-Control', REVALIDATE, 'X-Content-Type-Options', 'nosniff', ...headers, 'ETag', entityTag, 'Content-Length', String(bytes.length)],
    notModifiedHeaders: ['ETag', entityTag, 'Cache-Control', REVALIDATE],
  };
}

/**
 * The answer to a GET or HEAD of a representation: 304 without a body when the request's
 * `If-None-Match` matches [RFC 9110 §13.2.2: evaluated for GET and HEAD], otherwise 200.
 */
export function representationResponse(representation: Representation, requestHeaders: RequestHeaders): BareResponse {
  if (matchesIfNoneMatch(headerOf(requestHeaders, 'if-none-match'), representation.entityTag)) {
    return { status: 304, headers: representation.notModifiedHeaders, body: '' };
  }
  return { status: 200, headers: representation.headers, body: representation.bytes };
}
