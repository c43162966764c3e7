import { PetIndex } from './pet-index.js';
import { freezePet } from '../../pet.js';
import type { NewPet, Pet } from '../../pet.js';
import type { PetStorage, StorageListQuery } from '../storage.js';

/**
 * The reference storage: pets in process memory, lost on exit. Ids start at 1 and count up; an
 * insert completes synchronously, so concurrent inserts can never be given the same id.
 */
export function createMemoryStorage(): PetStorage {
  const index = new PetIndex();
  return {
    async insert(pet: NewPet): Promise<Pet> {
      const stored = freezePet(index.lastId + 1, pet);
      index.append(stored);
      return stored;
    },
    async get(id: number): Promise<Pet | undefined> {
      return index.get(id);
    },
    async list(query: StorageListQuery): Promise<Pet[]> {
      return index.list(query);
    },
    usage: () => index.usage(),
  };
}
