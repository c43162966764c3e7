import { MAX_LIMIT, MAX_NAME_LENGTH, MAX_SAFE_ID, MIN_LIMIT, DEFAULT_LIMIT } from './limits.js';
import { PetstoreError } from './errors.js';
import type { ErrorDetail } from './errors.js';
import type { StorageListQuery } from './storage/storage.js';

/** The availability states an animal can be in, in the spec's order [spec 2, PetStatus]. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** One of the spec's availability states [spec 2, PetStatus]. */
export type PetStatus = (typeof PET_STATUSES)[number];

/** The fields of a NewPet, in the spec's order [spec 2, NewPet]; any other field is rejected. */
export const NEW_PET_FIELDS = ['name', 'categoryId', 'status'] as const;

/** The NewPet fields a client must send [spec 2, 4.2]. */
export const REQUIRED_NEW_PET_FIELDS = ['name', 'categoryId'] as const;

/** The body for creating a pet [spec 2, NewPet]; `status` is absent when not given (no default). */
export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/**
 * A stored pet: a NewPet plus the id the service assigned [spec 2, Pet]. Read-only, as every pet
 * handed out is frozen: an assignment to a field fails to type-check instead of throwing at run time.
 */
export interface Pet extends Readonly<NewPet> {
  readonly id: number;
}

/** Builds the stored, frozen form of a pet: fields in the spec's order, `status` only when given. */
export function freezePet(id: number, pet: NewPet): Pet {
  const { name, categoryId, status } = pet;
  return Object.freeze(status === undefined ? { id, name, categoryId } : { id, name, categoryId, status });
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set(NEW_PET_FIELDS);
const FIELD_LIST = NEW_PET_FIELDS.map((field) => `\`${field}\``).join(', ');
const STATUSES: ReadonlySet<unknown> = new Set(PET_STATUSES);
const STATUS_LIST = PET_STATUSES.map((status) => `\`${status}\``).join(', ');

/** At most this many field problems are listed, so a body with 100k unknown keys yields a small answer. */
const MAX_DETAILS = 20;

/** Options of validationError. */
export interface ValidationErrorOptions {
  /** At most this many problems are listed, then one line counts the rest. */
  maxDetails: number;
  /** Whether the summary writes the first problem's field before its message, for messages that do not name it. Default false. */
  namesField?: boolean;
}

/** Whether a value is one of the spec's PetStatus values (case-sensitive). */
export function isPetStatus(value: unknown): value is PetStatus {
  return STATUSES.has(value);
}

/** Whether a value is a non-null object with no prototype beyond Object.prototype, as JSON.parse makes. */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || isArray(value)) return false;
  try {
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

/** Array.isArray that answers false instead of throwing for a revoked Proxy (in-process callers can pass one). */
function isArray(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** An own data property's value, without running getters (in-process callers can pass anything). */
function ownValue(record: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(record, key);
  return descriptor === undefined ? undefined : descriptor.value;
}

/**
 * Why a name is unacceptable, or undefined. Counts code points, and rejects lone surrogates and
 * U+0000, which no storage can keep faithfully (UTF-8 files and PostgreSQL text cannot hold them).
 */
function nameProblem(name: string): string | undefined {
  let codePoints = 0;
  for (let index = 0; index < name.length; index++) {
    const unit = name.charCodeAt(index);
    if (unit === 0) return '`name` must not contain the NUL character (U+0000)';
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = name.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return '`name` must be well-formed Unicode (it contains a lone surrogate)';
      index++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return '`name` must be well-formed Unicode (it contains a lone surrogate)';
    }
    codePoints++;
  }
  if (codePoints === 0) return '`name` must not be empty';
  if (codePoints > MAX_NAME_LENGTH) return `\`name\` must be at most ${MAX_NAME_LENGTH} characters long (it has ${codePoints})`;
  if (name.trim() === '') return '`name` must contain a character other than white space';
  return undefined;
}

function categoryIdProblem(categoryId: unknown): string | undefined {
  if (categoryId === undefined) return '`categoryId` is required';
  if (typeof categoryId !== 'number') return `\`categoryId\` must be an integer, not ${describe(categoryId)}`;
  if (!Number.isInteger(categoryId)) return '`categoryId` must be an integer (it has a fractional part or is not finite)';
  if (!Number.isSafeInteger(categoryId)) {
    const reason = 'larger int64 values cannot be represented exactly in a JSON number here and would be silently rounded';
    return `\`categoryId\` must be an integer between ${-MAX_SAFE_ID} and ${MAX_SAFE_ID}: ${reason}`;
  }
  return undefined;
}

/** A short description of a value's JSON type, for messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return isArray(value) ? 'an array' : 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

/** One `validation_failed` error for every problem found: the first in the message, the others in a capped `details` list. */
export function validationError(action: string, details: readonly ErrorDetail[], options: ValidationErrorOptions = { maxDetails: MAX_DETAILS }): PetstoreError {
  const shown = details.slice(0, options.maxDetails);
  if (details.length > options.maxDetails) shown.push({ field: '', message: `${details.length - options.maxDetails} more problems are not listed` });
  const first = details[0];
  const firstText = first === undefined ? '' : options.namesField === true && first.field !== '' ? `${first.field}: ${first.message}` : first.message;
  const summary = details.length === 1 ? firstText : `${details.length} problems, first: ${firstText}`;
  return new PetstoreError('validation_failed', `${action}: ${summary}`, { details: shown });
}

/**
 * Narrows an untrusted value to a NewPet [spec 2, 4.2], reporting every problem at once as one
 * `validation_failed` PetstoreError. The result is a fresh object holding only the known fields.
 */
export function validateNewPet(input: unknown): NewPet {
  const action = 'Cannot create pet';
  if (!isPlainObject(input)) throw validationError(action, [{ field: '', message: `The body must be a JSON object, not ${describe(input)}` }]);
  const details: ErrorDetail[] = [];
  let keys: string[];
  try {
    keys = Object.keys(input);
  } catch {
    throw validationError(action, [{ field: '', message: 'The body could not be read as a JSON object' }]);
  }
  for (const key of keys) if (!KNOWN_FIELDS.has(key)) details.push({ field: key, message: `\`${key}\` is not a field of NewPet (allowed: ${FIELD_LIST})` });

  const name = ownValue(input, 'name');
  let validName: string | undefined;
  if (name === undefined) details.push({ field: 'name', message: '`name` is required' });
  else if (typeof name !== 'string') details.push({ field: 'name', message: `\`name\` must be a string, not ${describe(name)}` });
  else {
    const problem = nameProblem(name);
    if (problem === undefined) validName = name;
    else details.push({ field: 'name', message: problem });
  }

  const categoryId = ownValue(input, 'categoryId');
  const categoryProblem = categoryIdProblem(categoryId);
  if (categoryProblem !== undefined) details.push({ field: 'categoryId', message: categoryProblem });

  const status = ownValue(input, 'status');
  if (status !== undefined && !isPetStatus(status)) details.push({ field: 'status', message: statusProblem(status) });

  if (details.length > 0 || validName === undefined || typeof categoryId !== 'number') throw validationError(action, details);
  // `+ 0` turns -0 into 0: JSON has no negative zero, and a stored value must print as it compares.
  const pet: NewPet = { name: validName, categoryId: categoryId + 0 };
  if (isPetStatus(status)) pet.status = status;
  return pet;
}

function statusProblem(status: unknown): string {
  return `\`status\` must be one of ${STATUS_LIST}, not ${typeof status === 'string' ? JSON.stringify(status) : describe(status)}`;
}

/** Clamps an integer page size into the spec's range [spec 4.1: minimum 1, maximum 100]. */
export function clampLimit(limit: number): number {
  return limit < MIN_LIMIT ? MIN_LIMIT : limit > MAX_LIMIT ? MAX_LIMIT : limit;
}

function invalidParameter(name: string, expected: string, value: unknown): PetstoreError {
  const given = `${describe(value)}${typeof value === 'number' ? ` ${value}` : ''}`;
  return new PetstoreError('invalid_parameter', `Cannot list pets: \`${name}\` must be ${expected}, not ${given}`);
}

/**
 * Narrows an untrusted `listPets` query to what the storage is asked [spec 4.1]: `limit` an integer,
 * clamped to 1..100 (default 20); `status` one of PetStatus; `after` a safe integer cursor.
 * Unknown query keys are ignored, as the HTTP interface ignores unknown parameters.
 */
export function validateListQuery(query: unknown): StorageListQuery {
  if (query === undefined) return { status: undefined, after: 0, limit: DEFAULT_LIMIT };
  if (!isPlainObject(query)) throw new PetstoreError('invalid_parameter', `Cannot list pets: the query must be an object, not ${describe(query)}`);
  const limit = ownValue(query, 'limit');
  const status = ownValue(query, 'status');
  const after = ownValue(query, 'after');
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit))) {
    throw invalidParameter('limit', `an integer (${MIN_LIMIT} to ${MAX_LIMIT}; others are clamped)`, limit);
  }
  if (status !== undefined && !isPetStatus(status)) throw new PetstoreError('invalid_parameter', `Cannot list pets: ${statusProblem(status)}`);
  if (after !== undefined && !(typeof after === 'number' && Number.isSafeInteger(after))) {
    throw invalidParameter('after', `a pet id (an integer between ${-MAX_SAFE_ID} and ${MAX_SAFE_ID})`, after);
  }
  return {
    status: isPetStatus(status) ? status : undefined,
    after: after === undefined ? 0 : Math.max(0, after),
    limit: limit === undefined ? DEFAULT_LIMIT : clampLimit(limit),
  };
}

/** Checks a `getPet` id [spec 4.3]: any integer is a valid question (unknown ones are 404); anything else is a 400. */
export function validatePetId(id: unknown): number {
  if (typeof id !== 'number' || !Number.isInteger(id)) {
    throw new PetstoreError('invalid_parameter', `Cannot get pet: \`petId\` must be an integer, not ${describe(id)}${typeof id === 'number' ? ` ${id}` : ''}`);
  }
  return id;
}
