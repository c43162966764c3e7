export { DEFAULT_LIMIT, MAX_LIMIT, MAX_NAME_LENGTH, MIN_LIMIT } from './limits.js';
export { NEW_PET_FIELDS, PET_STATUSES, REQUIRED_NEW_PET_FIELDS } from './pet.js';
export { GET_PET_DEPRECATED_AT, GET_PET_SUNSET, INTERFACE_VERSION, VERSION_PATH } from './versioning.js';
export { ERROR_CODES, PetstoreError, isUnexpectedError, toErrorBody } from './errors.js';
export type { ErrorBody, ErrorCode, ErrorDetail, HeaderList, PetstoreErrorOptions } from './errors.js';
export { allowedMethods, operationOf, ROUTES } from './routes.js';
export type { OperationName, Route, RouteMethod, RouteScope } from './routes.js';
export { createMemoryStorage } from './storage/memory/memory-storage.js';
export { PetIndex } from './storage/memory/pet-index.js';
export { createPetstore } from './petstore.js';
export type { Petstore, PetstoreOptions } from './petstore.js';
export { seedPets } from './seed.js';
export type { SeedReport } from './seed.js';
export type { NewPet, Pet, PetStatus } from './pet.js';
export type { EffectiveListQuery, ListPetsQuery, PetPage, PetstoreApi } from './petstore.js';
export type { PetStorage, StorageListQuery } from './storage/storage.js';
export { clampLimit, isPetStatus, validateListQuery, validateNewPet, validatePetId } from './validate.js';
export { createOpenApiDocument, SECURITY_SCHEME } from './openapi/index.js';
export type {
  JsonSchema, JsonValue, OpenApiDocument, OpenApiDocumentOptions, OpenApiExample, OpenApiHeader, OpenApiHeaderExample, OpenApiMediaType, OpenApiMethod,
  OpenApiOperation, OpenApiParameter, OpenApiPathItem, OpenApiRequestBody, OpenApiResponse, OpenApiSecurityRequirement,
} from './openapi/index.js';
