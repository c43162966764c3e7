// The engine: the interface's three operations over a storage, in the spec's words.

/** Creates the in-process engine over a storage (a fresh in-memory one by default). */
export { createPetstore } from './petstore.js';
/** The engine createPetstore returns: the three operations, paging, readiness and close. */
export type { Petstore } from './petstore.js';
/** Options of createPetstore. */
export type { PetstoreOptions } from './petstore.js';
/** The spec's three operations, shared by the engine and the HTTP client [spec 4]. */
export type { PetstoreApi } from './petstore.js';
/** The query of listPets [spec 4.1]. */
export type { ListPetsQuery } from './petstore.js';
/** One page of listPets, with the query it answered and that of the next page. */
export type { PetPage } from './petstore.js';
/** A listPets query as the engine applies it: limit clamped, defaults filled in. */
export type { EffectiveListQuery } from './petstore.js';
/** A pet as stored and answered [spec 2]. */
export type { Pet } from './pet.js';
/** The body of createPet [spec 2]. */
export type { NewPet } from './pet.js';
/** Options of createPet: the caller's idempotency key (draft-ietf-httpapi-idempotency-key-header-07). */
export type { CreatePetOptions } from './petstore.js';
/** What createPetOutcome did: the pet, and whether it replays an earlier create with the same key. */
export type { CreatePetOutcome } from './petstore.js';
/** The fingerprint of a create: the validated NewPet in canonical JSON, so key order and spacing do not count. */
export { fingerprintNewPet } from './idempotency.js';
/** Checks an idempotency key given to the engine, or throws the 400 `invalid_idempotency_key`. */
export { validateIdempotencyKey } from './idempotency.js';
/** The longest idempotency key, in characters. */
export { MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.js';
/** The seconds a 409 for a key in flight asks a client to wait before repeating the create. */
export { IN_FLIGHT_RETRY_AFTER } from './idempotency.js';
/** One of the three states of a pet [spec 2, 3]. */
export type { PetStatus } from './pet.js';
/** Narrows input from outside the program (`unknown`) to a NewPet, or throws the 400 createPet would [spec 4.2]. */
export { validateNewPet } from './validate.js';
/** The three values of PetStatus, in the spec's order [spec 2]. */
export { PET_STATUSES } from './pet.js';
/** The page size listPets answers without a `limit` [spec 4.1]. */
export { DEFAULT_LIMIT } from './limits.js';
/** The smallest `limit` listPets applies [spec 4.1]. */
export { MIN_LIMIT } from './limits.js';
/** The largest `limit` listPets applies [spec 4.1]. */
export { MAX_LIMIT } from './limits.js';
/** The longest `name` a pet may have [spec 2]. */
export { MAX_NAME_LENGTH } from './limits.js';
/** The path segment of the interface's version, `/v1` [spec 1]. */
export { VERSION_PATH } from './versioning.js';
/** The interface's version [spec 1]. */
export { INTERFACE_VERSION } from './versioning.js';
/** When getPet was deprecated, in seconds since the epoch [spec 4.3, 8]. */
export { GET_PET_DEPRECATED_AT } from './versioning.js';
/** When getPet goes away, as an IMF-fixdate (RFC 9110 §5.6.7) [spec 4.3, 8]. */
export { GET_PET_SUNSET } from './versioning.js';
/** The one error class: an expected failure with the spec's code, message and status [spec 7]. */
export { PetstoreError } from './errors.js';
/** Every code an Error body can carry, with its status. */
export { ERROR_CODES } from './errors.js';
/** Turns any thrown value into the Error body, hiding the detail of an unexpected one. */
export { toErrorBody } from './errors.js';
/** Whether a thrown value is an unexpected failure, whose detail belongs in the log only. */
export { isUnexpectedError } from './errors.js';
/** The Error body [spec 2, 7]. */
export type { ErrorBody } from './errors.js';
/** A code of the Error body. */
export type { ErrorCode } from './errors.js';
/** One problem with one field, listed in an Error body's `details`. */
export type { ErrorDetail } from './errors.js';
/** Options of PetstoreError beyond its code and message. */
export type { PetstoreErrorOptions } from './errors.js';
/** The contract every storage implements. */
export type { PetStorage } from './storage/storage.js';
/** A storage's pool of database connections at one moment, as metrics show it. */
export type { ConnectionPoolStats } from './storage/storage.js';
/** What the engine asks a storage to list. */
export type { StorageListQuery } from './storage/storage.js';
/** An idempotency key and its fingerprint, as PetStorage.insertOnce stores them with a pet. */
export type { IdempotencyRecord } from './storage/storage.js';
/** What PetStorage.insertOnce did: the pet, its fingerprint, and whether the key was stored already. */
export type { InsertOnceResult } from './storage/storage.js';
/** The reference storage: pets in memory. */
export { createMemoryStorage } from './storage/memory/memory-storage.js';
/** The most a storage may hold, by count and by heap bytes: createPetstore's `capacity`. */
export type { Capacity } from './capacity.js';
/** Which bound of a capacity was passed. */
export type { CapacityBound } from './capacity.js';
/** How many pets a storage keeps in the heap, and their heap bytes. */
export type { StorageUsage } from './capacity.js';
/** The 507 `insufficient_storage` of a create past the capacity, or of a data file that cannot fit, naming the bound. */
export { CapacityError } from './capacity.js';
/** The heap bytes of a pet, as a capacity counts them. */
export { petHeapBytes } from './capacity.js';
/** The heap bytes of the largest valid pet (1,168). */
export { WORST_CASE_PET_HEAP_BYTES } from './capacity.js';
/** Creates pets from a JSON array in an empty store. */
export { seedPets } from './seed.js';
/** What seedPets did. */
export type { SeedReport } from './seed.js';
