import { CapacityError, megabytes } from '../../lib/index.js';
import type { Capacity, IdempotencyRecord, KeyIndex, Pet, PetIndex, StorageUsage } from '../../lib/index.js';
import { FORMAT_VERSION, HEADER_SIZE } from './journal-format.js';

/** Thrown from inside a replay when the pets read so far pass the capacity: the replay stops there. */
class CapacityReached extends Error {}

/**
 * Refuses a journal that cannot fit before a record is read, by the least heap bytes its records take
 * per byte of the file (the reservation records that repair writes, one per repair, aside): a half for
 * a journal of pet records only (format version 1), a fifth once it may hold keyed ones.
 *
 * A pet record of `b` name bytes takes at least 128 + b/2 heap bytes (a Latin-1 letter is two UTF-8
 * bytes and one heap byte), more than half the record's own 26 + b. A keyed record also holds its key
 * (`k` bytes) and the fingerprint, whose escapes make it up to six bytes a name character (a control
 * character is `\u001f` there), while the heap keeps the key and a map entry but not the fingerprint:
 * at least 208 + n + k heap bytes for a record of at most 100 + 7n + k, a quarter at the worst (n = 256).
 */
export function refuseOversizedJournal(path: string, size: number, version: number, capacity: Capacity | undefined): void {
  const leastBytes = Math.floor((size - HEADER_SIZE) * (version >= FORMAT_VERSION ? 1 / 5 : 1 / 2));
  if (capacity?.maxBytes === undefined || leastBytes <= capacity.maxBytes) return;
  throw new CapacityError(
    'maxBytes',
    `Cannot open data file ${path}: its ${size.toLocaleString('en-US')} bytes hold pets that need at least ${megabytes(leastBytes)} of memory, `
      + `more than the ${megabytes(capacity.maxBytes)} set aside for pets (\`capacity.maxBytes\`)`,
    leastBytes,
  );
}

/** What a replay keeps: the pets, their keys, and how far into the file it has read. */
export interface Replay {
  index: PetIndex;
  keys: KeyIndex;
  /** File offset just past the last record replayed. */
  read: number;
}

/** Pets held and the heap bytes of them and their keys, counted as the memory storage counts them. */
export function heldUsage(index: PetIndex, keys: KeyIndex): StorageUsage {
  const { pets, bytes } = index.usage();
  return { pets, bytes: bytes + keys.bytes() };
}

/**
 * What the replay hands each pet to: the pet to `index`, its key (if any) to `keys`, stopping the
 * replay once the pets and keys pass the capacity, counted as the capacity counts a create.
 */
export function appendWithin(replay: Replay, capacity: Capacity | undefined): (pet: Pet, idempotency: IdempotencyRecord | undefined, end: number) => void {
  const { index, keys } = replay;
  const maxPets = capacity?.maxPets ?? Number.POSITIVE_INFINITY;
  const maxBytes = capacity?.maxBytes ?? Number.POSITIVE_INFINITY;
  return (pet, idempotency, end) => {
    index.append(pet);
    if (idempotency !== undefined) keys.add(pet, idempotency);
    replay.read = end;
    if (capacity === undefined) return;
    const usage = heldUsage(replay.index, replay.keys);
    if (usage.pets > maxPets || usage.bytes > maxBytes) throw new CapacityReached();
  };
}

/**
 * The refusal of a journal whose replay passed the capacity, with the memory the whole file needs,
 * projected from the bytes its records read so far took; undefined for any other error of the replay.
 */
export function capacityRefusal(error: unknown, path: string, size: number, replay: Replay, capacity: Capacity | undefined): CapacityError | undefined {
  if (!(error instanceof CapacityReached) || capacity === undefined) return undefined;
  const usage = heldUsage(replay.index, replay.keys);
  if (capacity.maxPets !== undefined && usage.pets > capacity.maxPets) {
    return new CapacityError(
      'maxPets',
      `Cannot open data file ${path}: it holds more than ${capacity.maxPets.toLocaleString('en-US')} pets, the capacity (\`capacity.maxPets\`)`,
    );
  }
  const { read } = replay;
  const needed = Math.ceil(usage.bytes * ((size - HEADER_SIZE) / (read - HEADER_SIZE)));
  return new CapacityError(
    'maxBytes',
    `Cannot open data file ${path}: its pets need about ${megabytes(needed)} of memory (the first ${usage.pets.toLocaleString('en-US')}, `
      + `in ${Math.round((100 * read) / size)}% of the file, take ${megabytes(usage.bytes)}), more than the ${megabytes(capacity.maxBytes ?? 0)} set aside for pets (\`capacity.maxBytes\`)`,
    needed,
  );
}
