import { ERROR_CODES, MAX_LIMIT, MAX_NAME_LENGTH, MAX_SAFE_ID, NEW_PET_FIELDS, PET_STATUSES, REQUIRED_NEW_PET_FIELDS } from '../../../lib/index.js';
import type { ErrorBody, ErrorDetail, Pet } from '../../../lib/index.js';
import { decisionOf } from '../reference/decisions.js';
import type { JsonSchema } from './types.js';

/** A `$ref` to a schema of the document's `components.schemas`. */
export function schemaRef(name: keyof typeof COMPONENT_SCHEMAS): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Every field a Pet can have, typed against the Pet interface so a field cannot be added to one and not the other. */
const PET_FIELD_SCHEMAS: Record<keyof Pet, JsonSchema> = {
  id: {
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_SAFE_ID,
    description: 'Assigned by the service on creation [spec 2]: positive, unique, never reused, and at most 2^53 − 1 so it survives a JSON number.',
  },
  name: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_NAME_LENGTH,
    // JSON Schema counts code points, as the validator does; `\S` asks for one character that is not white space.
    pattern: '\\S',
    description: `The animal's name [spec 2]: ${decisionOf('decision-name').decision}`,
  },
  categoryId: {
    type: 'integer',
    format: 'int64',
    minimum: -MAX_SAFE_ID,
    maximum: MAX_SAFE_ID,
    description: `The category the animal belongs to [spec 2]. Beyond ±(2^53 − 1): ${decisionOf('decision-category-id').decision}`,
  },
  status: { $ref: '#/components/schemas/PetStatus' },
};

/** The properties of NewPet, in the order and with exactly the names the validator accepts. */
function newPetProperties(): Record<string, JsonSchema> {
  return Object.fromEntries(NEW_PET_FIELDS.map((field) => [field, PET_FIELD_SCHEMAS[field]]));
}

const ERROR_DETAIL_FIELDS: Record<keyof ErrorDetail, JsonSchema> = {
  field: { type: 'string', description: 'The field the problem is about; empty for the body as a whole.' },
  message: { type: 'string', description: 'What was expected, naming the field in backticks.' },
};


const ERROR_FIELD_SCHEMAS: Record<keyof ErrorBody, JsonSchema> = {
  code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Machine-readable error code [spec 2]; the set is `ERROR_CODES` (the spec does not list one).' },
  message: { type: 'string', description: 'Human-readable description [spec 2].' },
  status: { type: 'integer', enum: [...new Set(Object.values(ERROR_CODES))], description: 'The HTTP status code of the response [spec 2].' },
  details: {
    type: 'array',
    items: { type: 'object', required: ['field', 'message'], properties: ERROR_DETAIL_FIELDS, additionalProperties: false },
    description: 'Every problem with the fields of a request body, on a 400 `validation_failed` (at most 20, then one summary entry).',
  },
};

const ERROR_REQUIRED: readonly (keyof ErrorBody)[] = ['code', 'message', 'status'];

/**
 * The body of `getOpenApiDescription`: an OpenAPI 3.1 document, described only as far as a client
 * relies on it (its version, `info` and `paths`); the rest is left open rather than restating the
 * OpenAPI schema.
 */
const OPEN_API_DESCRIPTION: JsonSchema = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$', description: 'The OpenAPI version the document follows: 3.1.x.' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: {
        title: { type: 'string', description: 'The name of the interface.' },
        version: { type: 'string', description: 'The version of the interface, not of the server that implements it [spec 9].' },
      },
      additionalProperties: true,
      description: 'What the interface is and which version of it the server implements.',
    },
    paths: {
      type: 'object',
      patternProperties: { '^/': { type: 'object' } },
      description: 'The operations by path template, relative to the server URL.',
    },
  },
  additionalProperties: true,
  description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0): this description of the interface.',
};

/** The schemas of the spec's resources [spec 2], built from the constants the validators use, and of this description. */
export const COMPONENT_SCHEMAS = {
  PetStatus: {
    type: 'string',
    enum: [...PET_STATUSES],
    description: 'Availability of an animal [spec 2, 3]. No operation changes it after creation.',
  },
  NewPet: {
    type: 'object',
    required: [...REQUIRED_NEW_PET_FIELDS],
    properties: newPetProperties(),
    additionalProperties: false,
    description: 'The body for creating an animal [spec 2]. `status` has no default: when absent it stays absent. Any other field (including `id`) is rejected.',
  },
  Pet: {
    type: 'object',
    required: ['id', ...REQUIRED_NEW_PET_FIELDS],
    properties: { id: PET_FIELD_SCHEMAS.id, ...newPetProperties() },
    additionalProperties: false,
    description: 'A stored animal: the fields of NewPet plus the assigned `id` [spec 2].',
  },
  Pets: {
    type: 'array',
    items: { $ref: '#/components/schemas/Pet' },
    maxItems: MAX_LIMIT,
    description: 'A page of animals in ascending `id` order [spec 2, 4.1].',
  },
  Error: {
    type: 'object',
    required: [...ERROR_REQUIRED],
    properties: ERROR_FIELD_SCHEMAS,
    additionalProperties: false,
    description: 'The body of every error response [spec 2, 7].',
  },
  OpenApiDescription: OPEN_API_DESCRIPTION,
} satisfies Record<string, JsonSchema>;
