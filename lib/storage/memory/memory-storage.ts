import { KeyIndex } from './key-index.js';
import { PetIndex } from './pet-index.js';
import { freezePet } from '../../validate.js';
import type { NewPet, Pet } from '../../validate.js';
import type { IdempotencyRecord, InsertOnceResult, PetStorage, StorageListQuery } from '../storage.js';

/**
 * The reference storage: pets in process memory, lost on exit. Ids start at 1 and count up; an
 * insert completes synchronously, so concurrent inserts can never be given the same id, nor two
 * inserts with one idempotency key store two pets. It counts the heap bytes of its pets and keys
 * only once a capacity asks (`usage`), and no structure of it has a bound below the heap's.
 */
export function createMemoryStorage(): PetStorage {
  const index = new PetIndex();
  const keys = new KeyIndex();
  return {
    async insert(pet: NewPet): Promise<Pet> {
      const stored = freezePet(index.lastId + 1, pet);
      index.append(stored);
      return stored;
    },
    async insertOnce(pet: NewPet, idempotency: IdempotencyRecord): Promise<InsertOnceResult> {
      const known = keys.get(idempotency.key);
      if (known !== undefined) return { pet: known.pet, fingerprint: known.fingerprint, isReplay: true };
      const stored = freezePet(index.lastId + 1, pet);
      // The key first: should the pet's append fail, the key is forgotten, so no pet is left without its key nor a key without its pet.
      keys.add(stored, idempotency);
      try {
        index.append(stored);
      } catch (error) {
        keys.delete(idempotency.key);
        throw error;
      }
      return { pet: stored, fingerprint: idempotency.fingerprint, isReplay: false };
    },
    async get(id: number): Promise<Pet | undefined> {
      return index.get(id);
    },
    async list(query: StorageListQuery): Promise<Pet[]> {
      return index.list(query);
    },
    usage: () => {
      const { pets, bytes } = index.usage();
      return { pets, bytes: bytes + keys.bytes() };
    },
  };
}
