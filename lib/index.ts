// The engine: the interface's three operations over a storage, in the spec's words.

/** Creates the in-process engine over a storage (a fresh in-memory one by default). */
export { createPetstore } from './petstore.js';
/** The engine and its options, its operations [spec 4], listPets' query as sent and as applied [spec 4.1], a page, and createPet's options and outcome. */
export type { Petstore, PetstoreOptions, PetstoreApi, ListPetsQuery, PetPage, EffectiveListQuery, CreatePetOptions, CreatePetOutcome } from './petstore.js';
/** A pet as stored and answered, the body of createPet, and one of the three states of a pet [spec 2, 3]. */
export type { Pet, NewPet, PetStatus } from './validate.js';
/** The three values of PetStatus in the spec's order, the fields of a NewPet and those required [spec 2], and a pet as the engine hands it out (frozen). */
export { PET_STATUSES, NEW_PET_FIELDS, REQUIRED_NEW_PET_FIELDS, freezePet } from './validate.js';
/** A create's fingerprint (canonical JSON), a key's check and its errors, and the seconds a 409 for a key in flight asks a client to wait (draft 07). */
export { fingerprintNewPet, validateIdempotencyKey, IN_FLIGHT_RETRY_AFTER } from './idempotency.js';
export { idempotencyUnsupportedError, keyInFlightError, keyReusedError } from './idempotency.js';
/** Narrows `unknown` input to a NewPet or a listPets query, or throws the operation's 400 [spec 4.1, 4.2]; whether a value is a PetStatus. */
export { validateNewPet, validateListQuery, isPetStatus } from './validate.js';
/** listPets' default, smallest and largest `limit` [spec 4.1], the longest `name` [spec 2], the longest idempotency key, and the largest id. */
export { DEFAULT_LIMIT, MIN_LIMIT, MAX_LIMIT, MAX_NAME_LENGTH, MAX_IDEMPOTENCY_KEY_LENGTH, MAX_SAFE_ID } from './limits.js';
/** The version's path (`/v1`), the version, when getPet was deprecated (epoch seconds) and when it goes (IMF-fixdate, RFC 9110 §5.6.7) [spec 1, 4.3, 8]. */
export { VERSION_PATH, INTERFACE_VERSION, GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from './versioning.js';
/** The one error class [spec 7], every code with its status, any thrown value's Error body, and whether it is unexpected (its detail for the log only). */
export { PetstoreError, ERROR_CODES, toErrorBody, isUnexpectedError } from './errors.js';
/** The Error body [spec 2, 7], its code, one problem with one field, and the options of PetstoreError. */
export type { ErrorBody, ErrorCode, ErrorDetail, PetstoreErrorOptions } from './errors.js';
/** The contract every storage implements, what the engine asks a storage to list, a key and its fingerprint, and what insertOnce did. */
export type { PetStorage, StorageListQuery, IdempotencyRecord, InsertOnceResult } from './storage/storage.js';
/** The reference storage: pets in memory. */
export { createMemoryStorage } from './storage/memory/memory-storage.js';
/** What a storage that keeps its pets in the heap builds on: pets in id order and by status, and idempotency keys with their pets. */
export { PetIndex } from './storage/memory/pet-index.js';
export { KeyIndex } from './storage/memory/key-index.js';
/** The most a storage may hold (by count and heap bytes), which bound was passed, and what a storage keeps in the heap. */
export type { Capacity, CapacityBound, StorageUsage } from './capacity.js';
/** The 507 `insufficient_storage` past a capacity, the heap bytes of a pet and of the largest valid one (1,168), a create's error, megabytes for messages. */
export { CapacityError, petHeapBytes, WORST_CASE_PET_HEAP_BYTES, overflowError, megabytes } from './capacity.js';
/** Creates pets from a JSON array in an empty store, and what it did. */
export { seedPets, type SeedReport } from './seed.js';
