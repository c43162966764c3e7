import { CapacityError, megabytes } from '../../lib/capacity.js';
import type { Capacity } from '../../lib/capacity.js';
import type { Pet } from '../../lib/pet.js';
import type { PetIndex } from '../../lib/storage/memory/pet-index.js';
import { FRAME_HEADER_SIZE, HEADER_SIZE } from './journal-format.js';

/** Bytes of a pet record beside its name: the frame header and the fixed fields (journal-format.ts). */
const PET_RECORD_OVERHEAD = FRAME_HEADER_SIZE + 18;

/** Thrown from inside a replay when the pets read so far pass the capacity: the replay stops there. */
class CapacityReached extends Error {}

/**
 * Refuses a journal that cannot fit before a record is read. A pet record of `b` name bytes takes at
 * least 128 + b/2 heap bytes (a Latin-1 letter is two UTF-8 bytes and one heap byte), more than half
 * the record's own 26 + b bytes: so the pets of a journal need at least half its size (the reservation
 * records that repair writes, one per repair, aside).
 */
export function refuseOversizedJournal(path: string, size: number, capacity: Capacity | undefined): void {
  const leastBytes = Math.floor((size - HEADER_SIZE) / 2);
  if (capacity?.maxBytes === undefined || leastBytes <= capacity.maxBytes) return;
  throw new CapacityError(
    'maxBytes',
    `Cannot open data file ${path}: its ${size.toLocaleString('en-US')} bytes hold pets that need at least ${megabytes(leastBytes)} of memory, `
      + `more than the ${megabytes(capacity.maxBytes)} set aside for pets (\`capacity.maxBytes\`)`,
    leastBytes,
  );
}

/** What the replay hands each pet to: `index.append`, stopping the replay once the pets pass the capacity. */
export function appendWithin(index: PetIndex, capacity: Capacity | undefined): (pet: Pet) => void {
  if (capacity === undefined) return (pet) => index.append(pet);
  const maxPets = capacity.maxPets ?? Number.POSITIVE_INFINITY;
  const maxBytes = capacity.maxBytes ?? Number.POSITIVE_INFINITY;
  return (pet) => {
    index.append(pet);
    const usage = index.usage();
    if (usage.pets > maxPets || usage.bytes > maxBytes) throw new CapacityReached();
  };
}

/**
 * The refusal of a journal whose replay passed the capacity, with the memory the whole file needs,
 * projected from the bytes its pets read so far took; undefined for any other error of the replay.
 */
export function capacityRefusal(error: unknown, path: string, size: number, index: PetIndex, capacity: Capacity | undefined): CapacityError | undefined {
  if (!(error instanceof CapacityReached) || capacity === undefined) return undefined;
  const usage = index.usage();
  if (capacity.maxPets !== undefined && usage.pets > capacity.maxPets) {
    return new CapacityError(
      'maxPets',
      `Cannot open data file ${path}: it holds more than ${capacity.maxPets.toLocaleString('en-US')} pets, the capacity (\`capacity.maxPets\`)`,
    );
  }
  let read = HEADER_SIZE;
  for (const pet of index.list({ status: undefined, after: 0, limit: usage.pets })) read += PET_RECORD_OVERHEAD + Buffer.byteLength(pet.name, 'utf8');
  const needed = Math.ceil(usage.bytes * ((size - HEADER_SIZE) / (read - HEADER_SIZE)));
  return new CapacityError(
    'maxBytes',
    `Cannot open data file ${path}: its pets need about ${megabytes(needed)} of memory (the first ${usage.pets.toLocaleString('en-US')}, `
      + `in ${Math.round((100 * read) / size)}% of the file, take ${megabytes(usage.bytes)}), more than the ${megabytes(capacity.maxBytes ?? 0)} set aside for pets (\`capacity.maxBytes\`)`,
    needed,
  );
}
