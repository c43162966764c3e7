import { stringHeapBytes } from '../../lib/capacity.js';
import type { Pet } from '../../lib/index.js';

/** Default number of serialised pets kept. */
const DEFAULT_CAPACITY = 50_000;

/** Default number of full list pages whose JSON is kept. */
const DEFAULT_PAGE_CAPACITY = 1_024;

/**
 * Default bytes of each cache (decided): 8 MiB of pets' JSON holds about 50,000 typical pets (about
 * 160 bytes each with their slot) and 8 MiB of pages about 1,000 pages of 100 typical pets; the
 * worst pets (one emoji and 255 escaped control characters: 3 KiB of text each) fill them ten to
 * twenty times sooner instead of pinning 165 MB.
 */
export const DEFAULT_JSON_CACHE_BYTES = 8 * 1_048_576;

/** Heap bytes of a Map entry beyond its value: key, value and chain slots, hash buckets and growth slack. */
const ENTRY_OVERHEAD = 48;

/** Heap bytes of a cached page beyond its body's bytes: the Uint8Array and its ArrayBuffer, the record of ids and the key. */
const PAGE_OVERHEAD = 256;

/** The bounds of one JSON cache; each generation holds half of them. */
export interface JsonCacheLimits {
  /** Most entries kept. */
  maxEntries?: number;
  /** Most bytes kept, as the cache accounts them (heap bytes of a text, bytes of a page body, plus each entry's overhead). */
  maxBytes?: number;
}

/**
 * A cache of values that never go stale, bounded by entries and by bytes in two generations: when
 * the current one is full it becomes the previous one (the older one is dropped), and a value found
 * in the previous one moves back into the current one. Evicting from one Map in insertion order
 * instead made every insert past the bound walk V8's deleted slots: O(1) beats exact LRU. A value
 * larger than a generation is not kept.
 */
class TwoGenerations<Key, Value> {
  #current = new Map<Key, Value>();
  #previous = new Map<Key, Value>();
  #currentBytes = 0;
  #previousBytes = 0;
  readonly #entriesPerGeneration: number;
  readonly #bytesPerGeneration: number;
  readonly #sizeOf: (value: Value) => number;

  constructor(maxEntries: number, maxBytes: number, sizeOf: (value: Value) => number) {
    this.#entriesPerGeneration = Math.max(1, Math.floor(maxEntries / 2));
    this.#bytesPerGeneration = Math.floor(maxBytes / 2);
    this.#sizeOf = sizeOf;
  }

  /** Bytes held, as accounted: never more than the cache's `maxBytes`. */
  get bytes(): number {
    return this.#currentBytes + this.#previousBytes;
  }

  /** The value under `key`, moved into the current generation when found in the previous one. */
  get(key: Key): Value | undefined {
    const current = this.#current.get(key);
    if (current !== undefined) return current;
    const previous = this.#previous.get(key);
    if (previous !== undefined) this.set(key, previous);
    return previous;
  }

  /** Keeps `value` under `key` in the current generation, which first becomes the previous one when it has no room left. */
  set(key: Key, value: Value): void {
    const bytes = this.#sizeOf(value);
    if (bytes > this.#bytesPerGeneration) return;
    if (this.#current.size >= this.#entriesPerGeneration || this.#currentBytes + bytes > this.#bytesPerGeneration) {
      this.#previous = this.#current;
      this.#previousBytes = this.#currentBytes;
      this.#current = new Map();
      this.#currentBytes = 0;
    }
    const replaced = this.#current.get(key);
    if (replaced !== undefined) this.#currentBytes -= this.#sizeOf(replaced);
    this.#current.set(key, value);
    this.#currentBytes += bytes;
  }
}

/**
 * Pets as JSON text, serialised once and then reused: pets never change after creation (the spec
 * has no update operation), so a pet's text is valid for as long as the pet exists. Bounded by
 * entries (`jsonCacheSize`) and by bytes.
 */
export class PetJsonCache {
  readonly #texts: TwoGenerations<number, string>;

  constructor(capacity: number = DEFAULT_CAPACITY, limits: Pick<JsonCacheLimits, 'maxBytes'> = {}) {
    this.#texts = new TwoGenerations(capacity, limits.maxBytes ?? DEFAULT_JSON_CACHE_BYTES, (text) => stringHeapBytes(text) + ENTRY_OVERHEAD);
  }

  /** Bytes the cache holds, as accounted. */
  get bytes(): number {
    return this.#texts.bytes;
  }

  /** The JSON text of one pet. */
  pet(pet: Pet): string {
    const cached = this.#texts.get(pet.id);
    if (cached !== undefined) return cached;
    const text = JSON.stringify(pet);
    this.#texts.set(pet.id, text);
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
 * that lost pets still gets a rebuilt page. Pages that may still grow are never kept. Bounded by
 * pages and by bytes.
 */
export class PageJsonCache {
  readonly #pets: PetJsonCache;
  readonly #pages: TwoGenerations<string, CachedPage>;

  constructor(pets: PetJsonCache, limits: JsonCacheLimits = {}) {
    this.#pets = pets;
    const maxBytes = limits.maxBytes ?? DEFAULT_JSON_CACHE_BYTES;
    this.#pages = new TwoGenerations(limits.maxEntries ?? DEFAULT_PAGE_CAPACITY, maxBytes, (page) => page.body.byteLength + PAGE_OVERHEAD);
  }

  /** Bytes the cache holds, as accounted. */
  get bytes(): number {
    return this.#pages.bytes;
  }

  /** The body of a page of `pets` answering the query `key`; `isFull` when more pets follow it. */
  body(key: string, pets: readonly Pet[], isFull: boolean): Uint8Array | string {
    if (!isFull) return this.#pets.pets(pets);
    const first = pets[0] as Pet;
    const last = pets[pets.length - 1] as Pet;
    const cached = this.#pages.get(key);
    if (cached !== undefined && cached.firstId === first.id && cached.lastId === last.id && cached.count === pets.length) return cached.body;
    const page: CachedPage = { firstId: first.id, lastId: last.id, count: pets.length, body: encoder.encode(this.#pets.pets(pets)) };
    this.#pages.set(key, page);
    return page.body;
  }
}
