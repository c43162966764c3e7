import { PetstoreError } from './errors.js';
import type { ErrorDetail } from './errors.js';
import type { NewPet } from './validate.js';
import type { PetstoreApi } from './petstore.js';
import { validateNewPet, validationError } from './validate.js';

/** What `seedPets` did: how many pets it created, and whether it left a store that already held pets alone. */
export interface SeedReport {
  seeded: number;
  skipped: boolean;
}

/** At most this many problems are listed, so a large broken file yields a readable message (as `validateNewPet` caps its own). */
const MAX_SEED_DETAILS = 100;

const ACTION = 'Cannot seed pets';

/** The entries of an untrusted seed, or undefined when it is not an array that can be read. */
function entriesOf(input: unknown): unknown[] | undefined {
  try {
    return Array.isArray(input) ? Array.from(input) : undefined;
  } catch {
    // A revoked Proxy or a throwing element getter (in-process callers can pass anything).
    return undefined;
  }
}

/** One entry's problems, each field prefixed with the entry's index (`[3].name`; `[3]` for the entry as a whole). */
function problemsOf(entry: unknown, index: number): { pet?: NewPet; details: ErrorDetail[] } {
  try {
    return { pet: validateNewPet(entry), details: [] };
  } catch (error) {
    if (!(error instanceof PetstoreError)) throw error;
    const details = error.details ?? [{ field: '', message: error.message }];
    return { details: details.map((detail) => ({ field: detail.field === '' ? `[${index}]` : `[${index}].${detail.field}`, message: detail.message })) };
  }
}

/** The seed's problems as one error; each names its entry (`[3].name`), which the messages of validateNewPet do not. */
function seedError(details: ErrorDetail[]): PetstoreError {
  return validationError(ACTION, details, { maxDetails: MAX_SEED_DETAILS, namesField: true });
}

/** Checks every entry of a seed with the validator `createPet` uses; one `validation_failed` error names every problem of every entry. */
function validateSeed(input: unknown): NewPet[] {
  const entries = entriesOf(input);
  if (entries === undefined) {
    const described = input === null || input === undefined ? String(input) : typeof input === 'object' ? 'an object' : `a ${typeof input}`;
    throw seedError([{ field: '', message: `The seed must be a JSON array of NewPets, not ${described}` }]);
  }
  const pets: NewPet[] = [];
  const details: ErrorDetail[] = [];
  entries.forEach((entry, index) => {
    const checked = problemsOf(entry, index);
    if (checked.pet !== undefined) pets.push(checked.pet);
    details.push(...checked.details);
  });
  if (details.length > 0) throw seedError(details);
  return pets;
}

/**
 * Creates the pets of `input` (an untrusted array of NewPets) in their order, so ids follow it, but
 * only into an empty store: a restart over a durable store never seeds twice. Every entry is checked
 * before anything is stored; one invalid entry refuses the whole seed. Not atomic: a storage failure
 * midway leaves the pets created before it.
 */
export async function seedPets(store: PetstoreApi, input: unknown): Promise<SeedReport> {
  const pets = validateSeed(input);
  if ((await store.listPets({ limit: 1 })).length > 0) return { seeded: 0, skipped: true };
  // One at a time: a storage may assign ids in completion order, and the seed's order is the ids' order.
  for (const pet of pets) await store.createPet(pet);
  return { seeded: pets.length, skipped: false };
}
