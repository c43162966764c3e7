import { PetstoreError } from './errors.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.js';
import type { NewPet } from './pet.js';

/**
 * The fingerprint of a create [draft-ietf-httpapi-idempotency-key-header-07 §2.4]: the validated
 * NewPet in canonical JSON (RFC 8785: members sorted by name, no white space), so the key order and
 * spacing of the body a client sent never make a retry look like another request.
 */
export function fingerprintNewPet(pet: NewPet): string {
  const canonical = { categoryId: pet.categoryId, name: pet.name, ...(pet.status === undefined ? {} : { status: pet.status }) };
  return JSON.stringify(canonical);
}

/** Whether every character of `key` is printable ASCII (0x20–0x7E), the characters a Structured Field String holds [RFC 8941 §3.3.3]. */
function isPrintableAscii(key: string): boolean {
  for (let index = 0; index < key.length; index++) {
    const unit = key.charCodeAt(index);
    if (unit < 0x20 || unit > 0x7e) return false;
  }
  return true;
}

/**
 * Checks an idempotency key given to the engine: 1 to MAX_IDEMPOTENCY_KEY_LENGTH printable ASCII
 * characters, the same keys the HTTP header can carry; anything else is an `invalid_idempotency_key` PetstoreError.
 */
export function validateIdempotencyKey(key: unknown): string {
  const expected = `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, such as a UUID`;
  if (typeof key !== 'string') throw new PetstoreError('invalid_idempotency_key', `Cannot create pet: \`idempotencyKey\` must be a string of ${expected}, not ${key === null ? 'null' : typeof key}`);
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !isPrintableAscii(key)) {
    const found = key.length === 0 ? 'it is empty' : key.length > MAX_IDEMPOTENCY_KEY_LENGTH ? `it has ${key.length}` : 'it has a character outside 0x20–0x7E';
    throw new PetstoreError('invalid_idempotency_key', `Cannot create pet: \`idempotencyKey\` must be ${expected} (${found})`);
  }
  return key;
}
