// The interface's own numbers and shapes, written out here rather than borrowed from the engine:
// a yardstick that read the measured thing's constants would agree with it when both are wrong.
import { isObject, resolvePointer, validateJson } from './json-schema.js';
import type { Departure } from './json-schema.js';

/** Largest `limit` [spec 4.1, 8]. */
export const SPEC_MAX_LIMIT = 100;

/** Pets `listPets` answers without a `limit` [spec 4.1, 8]. */
export const SPEC_DEFAULT_LIMIT = 20;

/** The PetStatus values [spec 2]. */
export const SPEC_PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** A PetStatus value [spec 2]. */
export type SpecPetStatus = (typeof SPEC_PET_STATUSES)[number];

/** When `getPet` is removed [spec 4.3, 9: 5 December 2030], as an HTTP date (RFC 9110 §5.6.7) for `Sunset` (RFC 8594). */
export const SPEC_SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

/** The media type of every body [spec 1]. */
export const SPEC_MEDIA_TYPE = 'application/json';

/** The shapes of spec 2, with nothing this project decided on top (no bounds, unknown fields allowed, any `code`). */
const SPEC_DOCUMENT = {
  components: {
    schemas: {
      PetStatus: { type: 'string', enum: [...SPEC_PET_STATUSES] },
      Pet: {
        type: 'object',
        required: ['id', 'name', 'categoryId'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          categoryId: { type: 'integer' },
          status: { $ref: '#/components/schemas/PetStatus' },
        },
      },
      Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
      },
    },
  },
} as const;

/** A resource of spec 2. */
export type SpecShape = keyof typeof SPEC_DOCUMENT.components.schemas;

/** The departures of a value from a shape of spec 2. */
export function departuresFromSpec(shape: SpecShape, value: unknown, location = 'body'): Departure[] {
  return validateJson(SPEC_DOCUMENT.components.schemas[shape], value, { resolve: (ref) => resolvePointer(SPEC_DOCUMENT, ref), location });
}

/** A Pet as spec 2 describes it, once validated. */
export interface SpecPet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status?: SpecPetStatus;
}

/** An Error body as spec 2 describes it, once validated. */
export interface SpecError {
  readonly code: string;
  readonly message: string;
  readonly status: number;
}

/** The value as a Pet, when it is one [spec 2]. */
export function asSpecPet(value: unknown): SpecPet | undefined {
  if (departuresFromSpec('Pet', value).length > 0 || !isObject(value)) return undefined;
  // Validated as a Pet just above; only its own fields are kept.
  const { id, name, categoryId, status } = value as unknown as SpecPet;
  return status === undefined ? { id, name, categoryId } : { id, name, categoryId, status };
}
