import type { HeaderList } from '../../server/core/index.js';
import { sha256Base64 } from './digest.js';

/** A text served as it is, with a validator: its bytes, encoded once, and the headers of its 200. */
export interface Representation {
  /** The strong entity tag of the bytes, quoted, as `ETag` carries it. */
  readonly entityTag: string;
  readonly bytes: Uint8Array;
  /** Every header of the 200, `ETag` and `Content-Length` included. */
  readonly headers: HeaderList;
  /** The headers a 304 repeats [RFC 9110 §15.4.5]: `ETag`, `Cache-Control` and `Vary`. */
  readonly notModifiedHeaders: HeaderList;
}

/** Caches may keep the answer but must ask again before using it (RFC 9111 §5.2.2.4), so an edit shows at once and costs a 304 otherwise. */
export const REVALIDATE = 'no-cache';

/** A strong entity tag for a text: the base64url SHA-256 of its UTF-8 bytes, quoted [RFC 9110 §8.8.3]. */
export function entityTagOf(text: string): string {
  return `"${sha256Base64(text, 'base64url')}"`;
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

/** The headers of a representation's 200: those that describe it, then its validator and its length. */
export function representationHeaders(descriptive: HeaderList, entityTag: string, bytes: Uint8Array): HeaderList {
  return [...descriptive, 'ETag', entityTag, 'Content-Length', String(bytes.length)];
}
