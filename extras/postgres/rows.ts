import { freezePet, isPetStatus, MAX_SAFE_ID, PetstoreError } from '../../lib/index.js';
import type { NewPet, Pet } from '../../lib/index.js';

/** Decimal integers as PostgreSQL prints them; anything else is not a bigint. */
const INTEGER_TEXT = /^-?[0-9]+$/;

function defect(message: string): PetstoreError {
  return new PetstoreError('internal_error', `PostgreSQL storage defect: ${message}`);
}

function column(row: object, name: string): unknown {
  return Object.getOwnPropertyDescriptor(row, name)?.value;
}

/**
 * Converts a `bigint` column to a number. `pg` hands bigints over as strings because most exceed
 * 2^53; a value outside the safe-integer range would be silently rounded, so it is refused.
 */
export function integerFromDatabase(value: unknown, column: string): number {
  const isInteger = typeof value === 'number' || typeof value === 'bigint' || (typeof value === 'string' && INTEGER_TEXT.test(value));
  const number = isInteger ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || typeof value === 'bigint' ? String(value) : typeof value;
    throw defect(
      `column \`${column}\` holds ${shown}, which is not an integer between ${-MAX_SAFE_ID} and ${MAX_SAFE_ID}; JSON numbers cannot carry it exactly (keep the identity's MAXVALUE at ${MAX_SAFE_ID})`,
    );
  }
  return number;
}

/** Turns a row of (id, name, category_id, status) into a frozen Pet; NULL status means no status. */
export function petFromRow(row: unknown): Pet {
  if (typeof row !== 'object' || row === null) throw defect(`expected a row object, got ${row === null ? 'null' : typeof row}`);
  const id = integerFromDatabase(column(row, 'id'), 'id');
  if (id <= 0) throw defect(`column \`id\` holds ${id}, but ids are positive`);
  const name = column(row, 'name');
  if (typeof name !== 'string') throw defect(`column \`name\` holds ${typeof name}, not text`);
  const pet: NewPet = { name, categoryId: integerFromDatabase(column(row, 'category_id'), 'category_id') };
  const status = column(row, 'status');
  if (isPetStatus(status)) pet.status = status;
  else if (status !== null) throw defect(`column \`status\` holds ${JSON.stringify(status) ?? typeof status}, not NULL or a PetStatus`);
  return freezePet(id, pet);
}

/** Turns a row of (id, name, category_id, status, idempotency_fingerprint) into the pet and the fingerprint stored with its key. */
export function keyedPetFromRow(row: unknown): { pet: Pet; fingerprint: string } {
  const pet = petFromRow(row);
  const fingerprint = typeof row === 'object' && row !== null ? column(row, 'idempotency_fingerprint') : undefined;
  if (typeof fingerprint !== 'string') throw defect(`column \`idempotency_fingerprint\` of pet ${pet.id} holds ${fingerprint === null ? 'NULL' : typeof fingerprint}, not the text stored with its key`);
  return { pet, fingerprint };
}
