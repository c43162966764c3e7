import { PetIndex } from './pet-index.js';
import { freezePet } from '../../pet.js';
import type { NewPet, Pet } from '../../pet.js';
import type { IdempotencyRecord, InsertOnceResult, PetStorage, StorageListQuery } from '../storage.js';

/** A remembered key's pet and fingerprint. */
interface KeyedPet {
  readonly pet: Pet;
  readonly fingerprint: string;
}

/**
 * The reference storage: pets in process memory, lost on exit. Ids start at 1 and count up; an
 * insert completes synchronously, so concurrent inserts can never be given the same id, nor two
 * inserts with one idempotency key store two pets.
 */
export function createMemoryStorage(): PetStorage {
  const index = new PetIndex();
  const keys = new Map<string, KeyedPet>();
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
      index.append(stored);
      keys.set(idempotency.key, { pet: stored, fingerprint: idempotency.fingerprint });
      return { pet: stored, fingerprint: idempotency.fingerprint, isReplay: false };
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
