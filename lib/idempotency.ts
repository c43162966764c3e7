import { PetstoreError } from './errors.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.js';
import type { NewPet, Pet } from './validate.js';
import type { InsertOnceResult, PetStorage } from './storage/storage.js';

/** The last fingerprint written directly and the fields it was written from: the fingerprint is a function of these three values alone. */
let lastFingerprinted: { readonly name: string; readonly categoryId: number; readonly status: NewPet['status']; readonly fingerprint: string } | undefined;

/**
 * The fingerprint of a create [draft-ietf-httpapi-idempotency-key-header-07 §2.4]: the validated
 * NewPet in canonical JSON (RFC 8785: members sorted by name, no white space), so the key order and
 * spacing of the body a client sent never make a retry look like another request.
 */
export function fingerprintNewPet(pet: NewPet): string {
  const { categoryId, name, status } = pet;
  // A keyed create asks twice for the same pet's (the engine, then a storage that checks whether it is the pet's own).
  const last = lastFingerprinted;
  if (last !== undefined && last.name === name && last.categoryId === categoryId && last.status === status) return last.fingerprint;
  // The same text written directly for a validated pet (one stringify of the name, no object to build):
  // a safe integer prints as JSON prints it, -0 as 0, and a status of the spec's list needs no escape.
  if (Number.isSafeInteger(categoryId) && typeof name === 'string') {
    const fingerprint = status === undefined ? `{"categoryId":${categoryId},"name":${JSON.stringify(name)}}`
      : status === 'available' || status === 'pending' || status === 'sold' ? `{"categoryId":${categoryId},"name":${JSON.stringify(name)},"status":"${status}"}`
        : undefined;
    if (fingerprint !== undefined) {
      lastFingerprinted = { name, categoryId, status, fingerprint };
      return fingerprint;
    }
  }
  const canonical = { categoryId: pet.categoryId, name: pet.name, ...(pet.status === undefined ? {} : { status: pet.status }) };
  return JSON.stringify(canonical);
}

/** Printable ASCII (0x20–0x7E), the characters a Structured Field String holds [RFC 8941 §3.3.3]; a regular expression tests a UUID faster than a loop. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Checks an idempotency key given to the engine: 1 to MAX_IDEMPOTENCY_KEY_LENGTH printable ASCII
 * characters, the same keys the HTTP header can carry; anything else is an `invalid_idempotency_key` PetstoreError.
 */
export function validateIdempotencyKey(key: unknown): string {
  const expected = `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, such as a UUID`;
  if (typeof key !== 'string') {
    const given = key === null ? 'null' : typeof key;
    throw new PetstoreError('invalid_idempotency_key', `Cannot create pet: \`idempotencyKey\` must be a string of ${expected}, not ${given}`);
  }
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE_ASCII.test(key)) {
    const found = key.length === 0 ? 'it is empty' : key.length > MAX_IDEMPOTENCY_KEY_LENGTH ? `it has ${key.length}` : 'it has a character outside 0x20–0x7E';
    throw new PetstoreError('invalid_idempotency_key', `Cannot create pet: \`idempotencyKey\` must be ${expected} (${found})`);
  }
  return key;
}

/** Seconds a client waits before repeating a create whose key is in flight: the fewest HTTP can ask for [RFC 9110 §10.2.3]. */
export const IN_FLIGHT_RETRY_AFTER = 1;

/** The refusal of a create with a key on a storage that cannot keep keys (no insertOnce): a 501, rather than a silent duplicate on retry. */
export function idempotencyUnsupportedError(): PetstoreError {
  return new PetstoreError(
    'idempotency_unsupported',
    'Cannot create pet: this server\'s storage cannot remember idempotency keys; send the create without an idempotency key '
      + '(a retry may then store a second pet), or configure a storage that has insertOnce()',
  );
}

/** The 409 of a create whose key is in flight [draft-ietf-httpapi-idempotency-key-header-07 §2.7]; HTTP adds IN_FLIGHT_RETRY_AFTER. */
export function keyInFlightError(): PetstoreError {
  return new PetstoreError(
    'idempotency_key_in_use',
    `Cannot create pet: a create with this idempotency key is still in progress; repeat the request after ${IN_FLIGHT_RETRY_AFTER} second to receive its pet`,
  );
}

/** The 422 of a key already used for another pet [draft-ietf-httpapi-idempotency-key-header-07 §2.7]; `id` is the pet the key holds. */
export function keyReusedError(id: number): PetstoreError {
  return new PetstoreError(
    'idempotency_key_reused',
    `Cannot create pet: this idempotency key was already used to create pet ${id} with a different body; `
      + `use a new key for a new pet, or repeat the original body to receive pet ${id}`,
  );
}

/** The idempotency keys whose create is under way, per storage: two stores over one storage share them. */
const keysInFlight = new WeakMap<PetStorage, Set<string>>();

/** The keys whose create is under way in this process over one storage. */
export function keysInFlightOf(storage: PetStorage): Set<string> {
  let keys = keysInFlight.get(storage);
  if (keys === undefined) keysInFlight.set(storage, (keys = new Set()));
  return keys;
}

/**
 * Stores a validated pet once per idempotency key [draft-ietf-httpapi-idempotency-key-header-07
 * §2.6, §2.7]: the storage stores it with the key and fingerprint in one step, or hands back what
 * the key holds. A key still in flight in this process is a 409 (the draft's answer; across
 * processes the storage decides, and the later create replays once the first commits); a key used
 * with another pet is a 422. `seal` checks and freezes what the storage answers, as every create does.
 */
export async function insertOncePerKey(
  storage: PetStorage, inFlight: Set<string>, pet: NewPet, key: string, seal: (stored: Pet) => Pet,
): Promise<{ pet: Pet; isReplay: boolean }> {
  if (storage.insertOnce === undefined) throw idempotencyUnsupportedError();
  // One lookup both asks and marks: a key already in flight leaves the set as it was.
  const keysBefore = inFlight.size;
  inFlight.add(key);
  if (inFlight.size === keysBefore) throw keyInFlightError();
  const fingerprint = fingerprintNewPet(pet);
  let result: InsertOnceResult;
  try {
    result = await storage.insertOnce(pet, { key, fingerprint });
  } finally {
    inFlight.delete(key);
  }
  const stored = seal(result.pet);
  if (result.isReplay && result.fingerprint !== fingerprint) throw keyReusedError(stored.id);
  return { pet: stored, isReplay: result.isReplay };
}
