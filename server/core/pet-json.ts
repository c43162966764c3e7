import type { Pet } from '../../lib/index.js';

/** Default number of serialised pets kept (about 100 bytes each). */
const DEFAULT_CAPACITY = 50_000;

/**
 * Pets as JSON text, serialised once and then reused: pets never change after creation (the spec
 * has no update operation), so a pet's text is valid for as long as the pet exists. Bounded by two
 * generations: when the current one is full it becomes the previous one (the older one is dropped),
 * and a text found in the previous one moves back into the current one. Evicting from one Map in
 * insertion order instead made every insert past the bound walk V8's deleted slots: O(1) beats exact LRU.
 */
export class PetJsonCache {
  #current = new Map<number, string>();
  #previous = new Map<number, string>();
  readonly #generationSize: number;

  constructor(capacity: number = DEFAULT_CAPACITY) {
    this.#generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  /** The JSON text of one pet. */
  pet(pet: Pet): string {
    const cached = this.#current.get(pet.id);
    if (cached !== undefined) return cached;
    const text = this.#previous.get(pet.id) ?? JSON.stringify(pet);
    if (this.#current.size >= this.#generationSize) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(pet.id, text);
    return text;
  }

  /** The JSON text of an array of pets, joined from the cached texts of its members. */
  pets(pets: readonly Pet[]): string {
    if (pets.length === 0) return '[]';
    const texts = new Array<string>(pets.length);
    for (let index = 0; index < pets.length; index++) texts[index] = this.pet(pets[index] as Pet);
    return `[${texts.join(',')}]`;
  }
}

const encoder = new TextEncoder();

/** Default number of full list pages whose JSON is kept (up to about 6.5 KB each at 100 pets). */
const DEFAULT_PAGE_CAPACITY = 1_024;

/** A full page's body and the ids that identify its pets. */
interface CachedPage {
  firstId: number;
  lastId: number;
  count: number;
  body: Uint8Array;
}

/**
 * Bodies of full list pages, as bytes ready to send. A page with more matching pets after it can
 * never change: pets are never updated or removed, and every new pet gets an id above all existing
 * ones, so it lands after such a page. The store is still asked for the page on every request; its
 * body is reused only while the same pets come back (same first id, last id and count), so a store
 * that lost pets still gets a rebuilt page. Pages that may still grow are never kept.
 */
export class PageJsonCache {
  readonly #pets: PetJsonCache;
  #current = new Map<string, CachedPage>();
  #previous = new Map<string, CachedPage>();
  readonly #generationSize: number;

  constructor(pets: PetJsonCache, capacity: number = DEFAULT_PAGE_CAPACITY) {
    this.#pets = pets;
    this.#generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  /** The body of a page of `pets` answering the query `key`; `isFull` when more pets follow it. */
  body(key: string, pets: readonly Pet[], isFull: boolean): Uint8Array | string {
    if (!isFull) return this.#pets.pets(pets);
    const first = pets[0] as Pet;
    const last = pets[pets.length - 1] as Pet;
    const cached = this.#current.get(key) ?? this.#previous.get(key);
    if (cached !== undefined && cached.firstId === first.id && cached.lastId === last.id && cached.count === pets.length) return cached.body;
    const page: CachedPage = { firstId: first.id, lastId: last.id, count: pets.length, body: encoder.encode(this.#pets.pets(pets)) };
    if (this.#current.size >= this.#generationSize) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, page);
    return page.body;
  }
}
