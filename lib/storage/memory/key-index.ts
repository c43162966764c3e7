import { keyHeapBytes } from '../../capacity.js';
import { fingerprintNewPet } from '../../idempotency.js';
import type { Pet } from '../../validate.js';
import type { IdempotencyRecord } from '../storage.js';

/**
 * Entries per Map of a KeyIndex. A V8 Map holds at most 2^24 entries (16,777,216) and throws past
 * them; shards of 2^20 keep every map far below that whatever the heap, and keep the table a map
 * allocates when it doubles (28 bytes a slot) at most 56 MiB.
 */
export const KEY_SHARD_SIZE = 1 << 20;

/** A map from string to value split over Maps of at most `shardSize` entries, so it has no bound of its own below the heap. */
export class ShardedMap<Value> {
  readonly #shardSize: number;
  readonly #shards: Map<string, Value>[] = [new Map()];
  #size = 0;

  constructor(shardSize: number = KEY_SHARD_SIZE) {
    if (!(Number.isSafeInteger(shardSize) && shardSize > 0)) throw new RangeError(`ShardedMap: \`shardSize\` must be a positive integer, not ${shardSize}`);
    this.#shardSize = shardSize;
  }

  /** Entries held. */
  get size(): number {
    return this.#size;
  }

  /** The value of `key`, or undefined. */
  get(key: string): Value | undefined {
    const shards = this.#shards;
    for (let index = shards.length - 1; index >= 0; index--) {
      const value = (shards[index] as Map<string, Value>).get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** Adds `key`, which must not be held yet (get it first): to the newest map, or to a new one when that is full. */
  add(key: string, value: Value): void {
    let last = this.#shards.at(-1) as Map<string, Value>;
    if (last.size >= this.#shardSize) this.#shards.push((last = new Map()));
    last.set(key, value);
    this.#size++;
  }

  /** Removes `key`; whether it was held. */
  delete(key: string): boolean {
    for (const shard of this.#shards) {
      if (shard.delete(key)) {
        this.#size--;
        return true;
      }
    }
    return false;
  }

  /** Every entry, shard after shard. */
  *entries(): IterableIterator<[string, Value]> {
    for (const shard of this.#shards) yield* shard.entries();
  }

  /** Maps in use (for tests). */
  get shardCount(): number {
    return this.#shards.length;
  }
}

/** What a remembered key gives back: its pet and the fingerprint stored with it. */
export interface KeyedPet {
  readonly pet: Pet;
  readonly fingerprint: string;
}

/**
 * The idempotency keys of a storage that keeps pets in memory: each key with its pet. The
 * fingerprint the engine stores is the pet's own (fingerprintNewPet of the stored pet), so it is
 * computed again when asked for instead of being kept; only another fingerprint (from a caller other
 * than the engine) is kept, in a map of its own. Heap bytes are accounted as keyHeapBytes does, from
 * the first call of `bytes()` on (a storage without a capacity never asks).
 */
export class KeyIndex {
  readonly #pets: ShardedMap<Pet>;
  readonly #otherFingerprints: ShardedMap<string>;
  #bytes: number | undefined;

  constructor(shardSize: number = KEY_SHARD_SIZE) {
    this.#pets = new ShardedMap(shardSize);
    this.#otherFingerprints = new ShardedMap(shardSize);
  }

  /** Keys held. */
  get size(): number {
    return this.#pets.size;
  }

  /** The pet and fingerprint stored with `key`, or undefined. */
  get(key: string): KeyedPet | undefined {
    const pet = this.#pets.get(key);
    if (pet === undefined) return undefined;
    return { pet, fingerprint: this.#otherFingerprints.get(key) ?? fingerprintNewPet(pet) };
  }

  /** Remembers a new key with its pet and fingerprint; the key must not be held yet. */
  add(pet: Pet, idempotency: IdempotencyRecord): void {
    const { key, fingerprint } = idempotency;
    const isOwn = fingerprintNewPet(pet) === fingerprint;
    this.#pets.add(key, pet);
    if (!isOwn) this.#otherFingerprints.add(key, fingerprint);
    if (this.#bytes !== undefined) this.#bytes += keyHeapBytes(pet, idempotency);
  }

  /** Forgets a key (a create that failed after remembering it). */
  delete(key: string): void {
    const pet = this.#pets.get(key);
    if (pet === undefined) return;
    const fingerprint = this.#otherFingerprints.get(key) ?? fingerprintNewPet(pet);
    this.#pets.delete(key);
    this.#otherFingerprints.delete(key);
    if (this.#bytes !== undefined) this.#bytes -= keyHeapBytes(pet, { key, fingerprint });
  }

  /** Heap bytes of the keys as keyHeapBytes accounts them; the first call counts every key, later ones only add. */
  bytes(): number {
    if (this.#bytes === undefined) {
      let bytes = 0;
      for (const [key, pet] of this.#pets.entries()) {
        bytes += keyHeapBytes(pet, { key, fingerprint: this.#otherFingerprints.get(key) ?? fingerprintNewPet(pet) });
      }
      this.#bytes = bytes;
    }
    return this.#bytes;
  }
}
