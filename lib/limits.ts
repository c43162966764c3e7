/** Number of pets `listPets` returns when no `limit` is given [spec 4.1]. */
export const DEFAULT_LIMIT = 20;

/** Smallest page size `listPets` answers with; smaller limits are clamped up to it [spec 4.1]. */
export const MIN_LIMIT = 1;

/** Largest page size `listPets` answers with; larger limits are clamped down to it [spec 4.1, 8]. */
export const MAX_LIMIT = 100;

/** Longest accepted pet name, in Unicode code points (decided: the spec gives no bound). */
export const MAX_NAME_LENGTH = 256;

/** Largest integer that survives a round trip through a JSON number in JavaScript (2^53 - 1): the bound of ids and category ids. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;

/**
 * Longest accepted idempotency key, in characters (decided: draft-ietf-httpapi-idempotency-key-header-07
 * gives no bound; Stripe's is the same 255), so a remembered key costs a bounded number of bytes.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
