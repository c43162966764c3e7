import { createHash } from 'node:crypto';

/** Caches may keep the answer but must ask again before using it (RFC 9111 §5.2.2.4), so an edit shows at once and costs a 304 otherwise. */
export const REVALIDATE = 'no-cache';

/** A strong entity tag for a text: the base64url SHA-256 of its UTF-8 bytes, quoted [RFC 9110 §8.8.3]. */
export function entityTagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url')}"`;
}

/**
 * Whether an `If-None-Match` value matches an entity tag [RFC 9110 §13.1.2]: `*` matches any representation, otherwise any listed
 * tag by weak comparison (a `W/` prefix is ignored); a value holding no entity tag matches nothing, so the full answer is sent.
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
