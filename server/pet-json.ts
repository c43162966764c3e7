import type { Pet } from '../lib/index.js';

/** Default number of serialised pets kept (about 100 bytes each). */
const DEFAULT_CAPACITY = 50_000;

/**
 * Pets as JSON text, serialised once and then reused: pets never change after creation (the spec
 * has no update operation), so a pet's text is valid for as long as the pet exists. Bounded: when
 * full, the oldest entry is dropped (a Map iterates in insertion order).
 */
export class PetJsonCache {
  readonly #texts = new Map<number, string>();
  readonly #capacity: number;

  constructor(capacity: number = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  /** The JSON text of one pet. */
  pet(pet: Pet): string {
    let text = this.#texts.get(pet.id);
    if (text === undefined) {
      text = JSON.stringify(pet);
      if (this.#texts.size >= this.#capacity) this.#texts.delete(this.#texts.keys().next().value as number);
      this.#texts.set(pet.id, text);
    }
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
