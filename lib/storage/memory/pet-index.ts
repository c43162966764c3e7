import { petHeapBytes } from '../../capacity.js';
import type { StorageUsage } from '../../capacity.js';
import type { Pet, PetStatus } from '../../validate.js';
import type { StorageListQuery } from '../storage.js';

/** Position of the first pet in an id-ascending array whose id is greater than `after`. */
function firstAfter(pets: readonly Pet[], after: number): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((pets[middle] as Pet).id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Frozen pets in ascending id order, with one ordered array per status: `get` and `list` cost
 * O(log n + limit) whatever the size, and a pet costs two array slots beyond its own object.
 */
export class PetIndex {
  readonly #all: Pet[] = [];
  readonly #byStatus: Record<PetStatus, Pet[]> = { available: [], pending: [], sold: [] };
  /** Heap bytes of the pets, counted from the first call of usage() on: a storage without a capacity never asks. */
  #bytes: number | undefined;

  /** Number of pets held. */
  get size(): number {
    return this.#all.length;
  }

  /** Pets held and their heap bytes as petHeapBytes accounts them; the first call counts every pet, later ones only add. */
  usage(): StorageUsage {
    if (this.#bytes === undefined) {
      let bytes = 0;
      for (const pet of this.#all) bytes += petHeapBytes(pet);
      this.#bytes = bytes;
    }
    return { pets: this.#all.length, bytes: this.#bytes };
  }

  /** Highest id held, or 0 when empty. */
  get lastId(): number {
    return this.#all.at(-1)?.id ?? 0;
  }

  /** Appends a frozen pet; its id must be greater than every id held. */
  append(pet: Pet): void {
    if (pet.id <= this.lastId) throw new RangeError(`PetIndex.append: id ${pet.id} is not above the last id ${this.lastId}`);
    this.#all.push(pet);
    if (this.#bytes !== undefined) this.#bytes += petHeapBytes(pet);
    if (pet.status !== undefined) this.#byStatus[pet.status].push(pet);
  }

  /** The pet with this id, or undefined. */
  get(id: number): Pet | undefined {
    const all = this.#all;
    const first = all[0];
    if (first === undefined) return undefined;
    // Ids handed out by one allocator are usually dense, so the position is usually id - firstId.
    const guess = all[id - first.id];
    if (guess !== undefined && guess.id === id) return guess;
    const found = all[firstAfter(all, id - 1)];
    return found !== undefined && found.id === id ? found : undefined;
  }

  /** Pets with the status (any when undefined) and id above `after`, ascending, at most `limit`. */
  list(query: StorageListQuery): Pet[] {
    const pets = query.status === undefined ? this.#all : this.#byStatus[query.status];
    const start = query.after <= 0 ? 0 : firstAfter(pets, query.after);
    return pets.slice(start, start + query.limit);
  }
}
