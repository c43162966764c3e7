import type { PetStorage } from '../../lib/index.js';

/** A storage whose every operation rejects with `error`: how tests make a store fail on demand. */
export function failingStorage(error: unknown): PetStorage {
  return {
    insert: async () => { throw error; },
    get: async () => { throw error; },
    list: async () => { throw error; },
  };
}
