import type { PET_STATUSES } from './constants.js';

/** One of the spec's availability states [spec 2, PetStatus]. */
export type PetStatus = (typeof PET_STATUSES)[number];

/** The body for creating a pet [spec 2, NewPet]; `status` is absent when not given (no default). */
export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/** A stored pet: a NewPet plus the id the service assigned [spec 2, Pet]. */
export interface Pet extends NewPet {
  id: number;
}

/** Query of `listPets` [spec 4.1]; `after` is the decided cursor extension. */
export interface ListPetsQuery {
  limit?: number;
  status?: PetStatus;
  after?: number;
}

/** One page of `listPets`, with the query for the following page when more pets match. */
export interface PetPage {
  pets: Pet[];
  next: Required<Pick<ListPetsQuery, 'limit' | 'after'>> & Pick<ListPetsQuery, 'status'> | undefined;
}

/** The spec's three operations, shared by the in-process store and the HTTP client. */
export interface PetstoreApi {
  listPets(query?: ListPetsQuery): Promise<Pet[]>;
  createPet(input: unknown): Promise<Pet>;
  getPet(id: number): Promise<Pet>;
}

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
  /** Flushes and releases resources; optional. */
  close?(): Promise<void>;
}
