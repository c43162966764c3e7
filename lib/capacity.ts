import { PetstoreError } from './errors.js';
import { fingerprintNewPet } from './idempotency.js';
import type { NewPet } from './validate.js';
import type { IdempotencyRecord, PetStorage } from './storage/storage.js';

/**
 * Heap bytes of a stored pet beyond its name (measured on Node 20, 64-bit): the frozen object with
 * its four fields, and its slots in the two ordered arrays of PetIndex, growth slack included.
 */
export const PET_FIXED_HEAP_BYTES = 112;

/**
 * Heap bytes of one entry of a JavaScript Map beyond its key and value (measured on Node 20, 64-bit):
 * three slots and half a bucket, 28 bytes, doubled right after the table grows (it doubles when
 * full), rounded up to 64.
 */
export const MAP_ENTRY_HEAP_BYTES = 64;

/** Heap bytes of a string's header; its characters take one byte each when all are Latin-1, two otherwise. */
const STRING_HEADER_BYTES = 16;

/** Heap bytes of a number V8 cannot keep as a small integer (a `categoryId` beyond 32 bits). */
const HEAP_NUMBER_BYTES = 16;

/** Largest pet in heap bytes: a name of 256 code points outside the BMP (512 UTF-16 units) and a `categoryId` beyond 32 bits. */
export const WORST_CASE_PET_HEAP_BYTES = PET_FIXED_HEAP_BYTES + STRING_HEADER_BYTES + 1024 + HEAP_NUMBER_BYTES;

/** A character beyond Latin-1, which makes V8 keep the whole string two bytes per UTF-16 unit. */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/** Heap bytes of a string: header and characters, rounded up to V8's 8-byte allocation unit. */
export function stringHeapBytes(text: string): number {
  const width = BEYOND_LATIN1.test(text) ? 2 : 1;
  return Math.ceil((STRING_HEADER_BYTES + text.length * width) / 8) * 8;
}

/** Whether V8 keeps this number inline as a small integer (31 bits and a sign), with no heap object of its own. */
function isSmallInteger(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
}

/**
 * The heap bytes a pet takes in an in-memory index, as PetIndex accounts them: measured within 5%
 * above what V8 uses (a name of 5 ASCII letters: 144 accounted, 138 measured; of 256 emoji: 1,152
 * and 1,149).
 */
export function petHeapBytes(pet: NewPet): number {
  return PET_FIXED_HEAP_BYTES + stringHeapBytes(pet.name) + (isSmallInteger(pet.categoryId) ? 0 : HEAP_NUMBER_BYTES);
}

/**
 * The heap bytes an idempotency key takes in an in-memory storage beside its pet: the key's string
 * and its map entry, and the fingerprint with an entry of its own only when it is not the pet's own
 * (fingerprintNewPet of the stored pet, which a storage can compute again instead of keeping it).
 * A 255-character key: 336 bytes; a UUID: 120.
 */
export function keyHeapBytes(pet: NewPet, idempotency: IdempotencyRecord): number {
  const own = fingerprintNewPet(pet) === idempotency.fingerprint;
  return stringHeapBytes(idempotency.key) + MAP_ENTRY_HEAP_BYTES + (own ? 0 : stringHeapBytes(idempotency.fingerprint) + MAP_ENTRY_HEAP_BYTES);
}

/** Largest heap bytes of a keyed create beside its pet: a 255-character key, and the pet's own fingerprint (the engine's). */
export const WORST_CASE_KEY_HEAP_BYTES = 272 + MAP_ENTRY_HEAP_BYTES;

/** How much a storage holds, for storages that keep their pets in the process's heap. */
export interface StorageUsage {
  /** Pets held. */
  pets: number;
  /** Heap bytes of those pets and of their idempotency keys, as petHeapBytes and keyHeapBytes account them. */
  bytes: number;
}

/** The most a storage may hold; either bound may be left out. */
export interface Capacity {
  /** Largest number of pets. */
  maxPets?: number;
  /** Largest heap bytes of the pets and their idempotency keys, as petHeapBytes and keyHeapBytes account them. */
  maxBytes?: number;
}

/** Which bound of a capacity was passed. */
export type CapacityBound = keyof Capacity;

/** A 507 `insufficient_storage`: a create, or a data file on open, passed a bound of the capacity, which it names for the operator. */
export class CapacityError extends PetstoreError {
  readonly bound: CapacityBound;
  /** For a data file refused on open by `maxBytes`: the heap bytes its pets need (at least), as the message says. */
  readonly neededBytes: number | undefined;

  constructor(bound: CapacityBound, message: string, neededBytes?: number) {
    super('insufficient_storage', message);
    this.name = 'CapacityError';
    this.bound = bound;
    this.neededBytes = neededBytes;
  }
}

/** Why a capacity cannot be used, or undefined when it can. */
export function capacityProblem(capacity: Capacity): string | undefined {
  for (const name of ['maxPets', 'maxBytes'] as const) {
    const value = capacity[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) return `\`capacity.${name}\` must be a non-negative integer`;
  }
  return undefined;
}

/** A byte count in the unit memory is sized in, MiB: one decimal below 100 MiB. */
export function megabytes(bytes: number): string {
  const mebibytes = bytes / 1_048_576;
  return mebibytes < 100 ? `${mebibytes.toFixed(1)} MiB` : `${Math.ceil(mebibytes).toLocaleString('en-US')} MiB`;
}

const EMPTY: StorageUsage = { pets: 0, bytes: 0 };

/** The inserts admitted and still under way, per storage: two stores over one storage count each other's. */
const pendingInserts = new WeakMap<PetStorage, StorageUsage>();

function pendingOf(storage: PetStorage): StorageUsage {
  let pending = pendingInserts.get(storage);
  if (pending === undefined) pendingInserts.set(storage, (pending = { pets: 0, bytes: 0 }));
  return pending;
}

/** The 507 of a create past the capacity [RFC 4918 §11.5]; reads go on. */
function storeFull(bound: CapacityBound, reason: string): CapacityError {
  return new CapacityError(bound, `Cannot create pet: the store is full: ${reason}. Reads still work; the operator can raise the capacity`);
}

/** The 507 `insufficient_storage` refusing one more pet of `bytes` heap bytes in a store using `used` of `capacity`, or undefined when it fits. */
export function overflowError(capacity: Capacity, used: StorageUsage, bytes: number): CapacityError | undefined {
  if (capacity.maxPets !== undefined && used.pets >= capacity.maxPets) {
    return storeFull('maxPets', `it holds ${used.pets.toLocaleString('en-US')} pets, its capacity (\`capacity.maxPets\`)`);
  }
  if (capacity.maxBytes !== undefined && used.bytes + bytes > capacity.maxBytes) {
    const reason = `its pets take ${megabytes(used.bytes)} of the ${megabytes(capacity.maxBytes)} of memory set aside for them (\`capacity.maxBytes\`)`;
    return storeFull('maxBytes', reason);
  }
  return undefined;
}

/**
 * The storage with `capacity` enforced on insert: past it, a create is refused with a 507
 * `insufficient_storage`, and reads go on. Creates under way count too, so concurrent creates
 * cannot overshoot, also those of another store over the same storage. A create with an idempotency
 * key counts its key too (keyHeapBytes). The storage must report its usage: the bounds guard the process's heap, and a
 * storage without `usage` (PostgreSQL) keeps its pets elsewhere.
 */
export function limitCapacity(storage: PetStorage, capacity: Capacity, caller: string): PetStorage {
  const problem = capacityProblem(capacity);
  if (problem !== undefined) throw new TypeError(`${caller}: ${problem}`);
  if (storage.usage === undefined) throw new TypeError(`${caller}: \`capacity\` needs a storage that reports its \`usage\` (one that keeps pets in memory)`);
  const usage = (): StorageUsage => storage.usage?.() ?? EMPTY;
  const pending = pendingOf(storage);
  /** Runs an insert of `bytes` heap bytes when it fits beside the stored pets and the inserts in flight, counting it as in flight meanwhile. */
  async function admitted<T>(bytes: number, insert: () => Promise<T>): Promise<T> {
    const used = usage();
    const overflow = overflowError(capacity, { pets: used.pets + pending.pets, bytes: used.bytes + pending.bytes }, bytes);
    if (overflow !== undefined) throw overflow;
    pending.pets++;
    pending.bytes += bytes;
    try {
      return await insert();
    } finally {
      pending.pets--;
      pending.bytes -= bytes;
    }
  }
  const limited: PetStorage = {
    insert: (pet) => admitted(petHeapBytes(pet), () => storage.insert(pet)),
    get: (id) => storage.get(id),
    list: (query) => storage.list(query),
    usage,
  };
  // Kept where the storage has it, or every create with an idempotency key would be refused. At
  // capacity a keyed create is refused before the storage is asked, also when its key is stored
  // already: whether it is cannot be known without asking, and asking may store.
  const { insertOnce } = storage;
  if (insertOnce !== undefined) {
    limited.insertOnce = (pet, idempotency) => admitted(petHeapBytes(pet) + keyHeapBytes(pet, idempotency), () => insertOnce.call(storage, pet, idempotency));
  }
  if (storage.checkReady !== undefined) limited.checkReady = () => storage.checkReady?.() ?? Promise.resolve();
  if (storage.close !== undefined) limited.close = () => storage.close?.() ?? Promise.resolve();
  return limited;
}
