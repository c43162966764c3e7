import { createMemoryStorage } from '../../lib/index.js';
import type { PetStorage } from '../../lib/index.js';

/** A storage that holds keyed creates in flight until released. */
export interface HeldStorage {
  storage: PetStorage;
  /** Lets every held create go on. */
  release: () => void;
  /** Resolves once a keyed create waits. */
  entered: Promise<void>;
}

/** A memory storage whose keyed inserts wait until `release` is called, so a create with an idempotency key stays in flight. */
export function heldStorage(): HeldStorage {
  const inner = createMemoryStorage();
  const insertOnce = inner.insertOnce;
  if (insertOnce === undefined) throw new Error('the memory storage keeps idempotency keys');
  let release = (): void => undefined;
  let enter = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const storage: PetStorage = {
    insert: (pet) => inner.insert(pet),
    get: (id) => inner.get(id),
    list: (query) => inner.list(query),
    async insertOnce(pet, idempotency) {
      enter();
      await held;
      return insertOnce.call(inner, pet, idempotency);
    },
  };
  return { storage, release, entered };
}
