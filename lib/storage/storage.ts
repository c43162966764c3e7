import type { StorageUsage } from '../capacity.js';
import type { NewPet, Pet, PetStatus } from '../pet.js';

/** What the engine asks a storage to list: pets with `status` (any when undefined) and id > `after`, ascending, at most `limit`. */
export interface StorageListQuery {
  status: PetStatus | undefined;
  after: number;
  limit: number;
}

/**
 * Where pets live. Implementations must assign ids atomically: each `insert` gets a positive safe
 * integer id, unique and never reused (also across restarts), greater than every id handed out
 * before it by the same allocator. Returned pets must not share mutable state with the store.
 */
export interface PetStorage {
  /** Stores a validated new pet under a freshly allocated id and resolves once it is stored. */
  insert(pet: NewPet): Promise<Pet>;
  /** The pet with this id, or undefined. */
  get(id: number): Promise<Pet | undefined>;
  /** Pets matching the query in ascending id order, in a new array the caller may change; shaped so an index answers it in O(limit + log n). */
  list(query: StorageListQuery): Promise<Pet[]>;
  /**
   * Resolves when the storage can serve reads and writes now; rejects with a `PetstoreError('unavailable')`
   * whose message names the problem and what an operator can do (a future `/readyz` shows it). Optional:
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
