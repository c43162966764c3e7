/** A small seeded pseudo-random generator (sfc32), so every fuzzed case can be replayed from its seed. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number, stream = 0) {
    this.#a = 0x9e3779b9;
    this.#b = seed >>> 0;
    this.#c = (stream * 0x85ebca6b) >>> 0;
    this.#d = 1;
    // Discard the first outputs: sfc32 needs a few rounds to mix a small seed.
    for (let round = 0; round < 15; round++) this.next();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  next(): number {
    const result = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + result) | 0;
    return result >>> 0;
  }

  /** An integer in [0, bound). */
  below(bound: number): number {
    return Math.floor((this.next() / 0x1_0000_0000) * bound);
  }

  /** An integer in [low, high]. */
  between(low: number, high: number): number {
    return low + this.below(high - low + 1);
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() / 0x1_0000_0000 < probability;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
}

/** A fresh 32-bit seed from the clock and Math.random, for runs that were not given one. */
export function freshSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x1_0000_0000)) >>> 0;
}
