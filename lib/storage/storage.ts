import type { StorageUsage } from '../capacity.js';
import type { NewPet, Pet, PetStatus } from '../validate.js';

/** What the engine asks a storage to list: pets with `status` (any when undefined) and id > `after`, ascending, at most `limit`. */
export interface StorageListQuery {
  status: PetStatus | undefined;
  after: number;
  limit: number;
}

/** An idempotency key and the fingerprint of the create that first used it, stored with its pet [draft-ietf-httpapi-idempotency-key-header-07 §2]. */
export interface IdempotencyRecord {
  /** The client's key: 1 to 255 printable ASCII characters. */
  key: string;
  /** The canonical form of the request's NewPet (fingerprintNewPet); the storage keeps it as given and never interprets it. */
  fingerprint: string;
}

/** What `insertOnce` did: stored a new pet now, or found the key already stored. */
export interface InsertOnceResult {
  /** The pet stored under the key: the one just created, or the earlier one. */
  pet: Pet;
  /** The fingerprint stored with the key: the one given, or the earlier one. */
  fingerprint: string;
  /** Whether the key was already stored, so no pet was created. */
  isReplay: boolean;
}

/**
 * Where pets live: a storage owes `insert`, `get` and `list`, and may offer `insertOnce`, `checkReady`,
 * `usage` and `close`, each for the engine (docs/embedding.md). Implementations must assign ids atomically: each `insert` gets a positive safe
 * integer id, unique and never reused (also across restarts), greater than every id handed out
 * before it by the same allocator. Returned pets must not share mutable state with the store.
 */
export interface PetStorage {
  /** Stores a validated new pet under a freshly allocated id and resolves once it is stored. */
  insert(pet: NewPet): Promise<Pet>;
  /**
   * Stores a pet together with its idempotency key and fingerprint in one atomic step, unless the key
   * is stored already: then it stores nothing and resolves with the earlier pet and fingerprint.
   * Concurrent calls with one key store one pet; a crash never leaves a pet without its key or a key
   * without its pet; a key is remembered as long as its pet. Optional: the engine refuses a create
   * with a key (`idempotency_unsupported`) on a storage without it, rather than risk a duplicate.
   */
  insertOnce?(pet: NewPet, idempotency: IdempotencyRecord): Promise<InsertOnceResult>;
  /** The pet with this id, or undefined. */
  get(id: number): Promise<Pet | undefined>;
  /** Pets matching the query in ascending id order, in a new array the caller may change; shaped so an index answers it in O(limit + log n). */
  list(query: StorageListQuery): Promise<Pet[]>;
  /**
   * Resolves when the storage can serve reads and writes now; rejects with a `PetstoreError('unavailable')`
   * whose message names the problem and what an operator can do (a server's readiness check shows it). Optional:
   * a storage without it is always ready. It may try to repair a passing fault, such as a full disk freed since.
   */
  checkReady?(): Promise<void>;
  /**
   * How many pets the storage holds and their heap bytes (petHeapBytes); only for storages that keep
   * their pets in the process's heap, where an engine's `capacity` then guards the heap. Optional.
   */
  usage?(): StorageUsage;
  /** Flushes and releases resources; optional. */
  close?(): Promise<void>;
}
