import { limitCapacity } from './capacity.js';
import type { Capacity } from './capacity.js';
import { PetstoreError } from './errors.js';
import { insertOncePerKey, keysInFlightOf, validateIdempotencyKey } from './idempotency.js';
import type { NewPet, Pet, PetStatus } from './validate.js';
import { createMemoryStorage } from './storage/memory/memory-storage.js';
import type { PetStorage } from './storage/storage.js';
import { freezePet, validateListQuery, validateNewPet, validatePetId } from './validate.js';

/** Query of `listPets` [spec 4.1]; `after` is the decided cursor extension. */
export interface ListPetsQuery {
  limit?: number;
  status?: PetStatus;
  after?: number;
}

/** A `listPets` query as the engine applies it: `limit` clamped, defaults filled in. */
export type EffectiveListQuery = Required<Pick<ListPetsQuery, 'limit' | 'after'>> & Pick<ListPetsQuery, 'status'>;

/** One page of `listPets`: the query that was answered, and the query of the following page when more pets match. */
export interface PetPage {
  pets: Pet[];
  query: EffectiveListQuery;
  next: EffectiveListQuery | undefined;
}

/** Options of createPet beyond the pet itself. */
export interface CreatePetOptions {
  /**
   * The caller's idempotency key [draft-ietf-httpapi-idempotency-key-header-07]: a create repeated
   * with the same key and the same pet answers the first pet again instead of creating another.
   * 1 to 255 printable ASCII characters; a fresh UUID per intended pet is the usual choice.
   */
  idempotencyKey?: string;
}

/** What a create did: the pet, and whether it was created earlier under the same idempotency key. */
export interface CreatePetOutcome {
  pet: Pet;
  /** Whether this answer replays an earlier create with the same idempotency key: no pet was created now. */
  isReplay: boolean;
}

/** The spec's three operations, shared by the in-process store and the HTTP client. */
export interface PetstoreApi {
  listPets(query?: ListPetsQuery): Promise<Pet[]>;
  createPet(input: NewPet, options?: CreatePetOptions): Promise<Pet>;
  getPet(id: number): Promise<Pet>;
}

/** Options of createPetstore. */
export interface PetstoreOptions {
  /** Where pets are kept; defaults to a fresh in-memory storage. */
  storage?: PetStorage;
  /**
   * The most the storage may hold (pets, heap bytes); past it `createPet` is refused with a 507
   * `insufficient_storage` while reads go on. Needs a storage with `usage` (memory, file). Default: no bound.
   */
  capacity?: Capacity;
}

/** The in-process engine: the spec's three operations plus the paging and lifecycle the server needs. */
export interface Petstore extends PetstoreApi {
  /** `listPets` plus the effective query and that of the following page; `query` is checked as untrusted. */
  listPetsPage(query?: unknown): Promise<PetPage>;
  /** `createPet` plus whether the answer is a replay of an earlier create with the same idempotency key (HTTP marks it `Idempotent-Replayed`). */
  createPetOutcome(input: NewPet, options?: CreatePetOptions): Promise<CreatePetOutcome>;
  /** Resolves when the storage can serve reads and writes now (always, for a storage without `checkReady`); rejects with `unavailable` saying why not. */
  checkReady(): Promise<void>;
  /** Flushes and closes the storage. */
  close(): Promise<void>;
}

/** The pet as the engine hands it out: frozen, so no caller can change what the store holds. */
function sealed(pet: Pet): Pet {
  return Object.isFrozen(pet) ? pet : freezePet(pet.id, pet);
}

/** The stored pet, unless its id breaks the id policy: a defect in the storage, not in the request. */
function checkAssignedId(pet: Pet): Pet {
  if (Number.isSafeInteger(pet.id) && pet.id > 0) return pet;
  throw new PetstoreError('internal_error', `Storage defect: insert returned id ${String(pet.id)}, not a positive safe integer`);
}

/** One page of listPets and whether a next one exists [spec 4.1]; `query` is checked as untrusted. */
async function listPetsPage(storage: PetStorage, query?: unknown): Promise<PetPage> {
  const wanted = validateListQuery(query);
  // One pet beyond the page tells whether a next page exists without a second query.
  const pets = await storage.list({ status: wanted.status, after: wanted.after, limit: wanted.limit + 1 });
  const hasMore = pets.length > wanted.limit;
  if (hasMore) pets.length = wanted.limit;
  // A storage hands out frozen pets or fresh ones, never a mix: the first pet decides for the page
  // (Object.isFrozen walks every property, too slow to ask of each pet of every page).
  const first = pets[0];
  if (first !== undefined && !Object.isFrozen(first)) {
    for (let index = 0; index < pets.length; index++) pets[index] = freezePet((pets[index] as Pet).id, pets[index] as Pet);
  }
  const answered: EffectiveListQuery = { limit: wanted.limit, after: wanted.after };
  if (wanted.status !== undefined) answered.status = wanted.status;
  const last = pets.at(-1);
  if (!hasMore || last === undefined) return { pets, query: answered, next: undefined };
  return { pets, query: answered, next: { ...answered, after: last.id } };
}

/**
 * createPet [spec 4.2] and whether it replayed: validates the input (a JavaScript caller's is
 * unchecked), then stores it under a new id, once per idempotency key when one is given.
 *
 * With a key, `insertOncePerKey` (idempotency.ts) stores it once. Both forms are one async
 * function, so a keyed create waits on no more promises than a plain one.
 */
async function createPetOutcome(storage: PetStorage, inFlight: Set<string>, input: NewPet, options: CreatePetOptions = {}): Promise<CreatePetOutcome> {
  const key = options.idempotencyKey === undefined ? undefined : validateIdempotencyKey(options.idempotencyKey);
  const pet: NewPet = validateNewPet(input);
  if (key === undefined) return { pet: sealed(checkAssignedId(await storage.insert(pet))), isReplay: false };
  // Awaited, not returned: a promise handed back from an async function costs two more turns of the microtask queue.
  return await insertOncePerKey(storage, inFlight, pet, key, (stored) => sealed(checkAssignedId(stored)));
}

/** getPet [spec 4.3, deprecated]: the pet with this id, or a `not_found` PetstoreError. */
async function getPet(storage: PetStorage, id: number): Promise<Pet> {
  const wanted = validatePetId(id);
  const pet = Number.isSafeInteger(wanted) && wanted > 0 ? await storage.get(wanted) : undefined;
  if (pet === undefined) throw new PetstoreError('not_found', `Pet ${wanted} was not found`);
  return sealed(pet);
}

/** Creates the engine over a storage (in-memory by default): the spec's operations bound to it. */
export function createPetstore(options: PetstoreOptions = {}): Petstore {
  const given = options.storage ?? createMemoryStorage();
  const storage = options.capacity === undefined ? given : limitCapacity(given, options.capacity, 'createPetstore');
  // Of the storage given, not of its capacity's wrapper: two stores over one storage share them, with a capacity or without.
  const inFlight = keysInFlightOf(given);
  return {
    listPetsPage: (query) => listPetsPage(storage, query),
    // listPets [spec 4.1]: ascending ids, `limit` clamped to 1..100 (default 20), optional `status` filter and `after` cursor.
    listPets: async (query) => (await listPetsPage(storage, query)).pets,
    createPet: async (input, createOptions) => (await createPetOutcome(storage, inFlight, input, createOptions)).pet,
    createPetOutcome: (input, createOptions) => createPetOutcome(storage, inFlight, input, createOptions),
    getPet: (id) => getPet(storage, id),
    checkReady: async () => void (await storage.checkReady?.()),
    close: async () => void (await storage.close?.()),
  };
}
