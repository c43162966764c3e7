export {
  DEFAULT_LIMIT, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, INTERFACE_VERSION, MAX_LIMIT, MAX_NAME_LENGTH, MIN_LIMIT, NEW_PET_FIELDS, PET_STATUSES,
  REQUIRED_NEW_PET_FIELDS, VERSION_PATH,
} from './constants.js';
export { ERROR_CODES, PetstoreError, isUnexpectedError, toErrorBody } from './errors.js';
export type { ErrorBody, ErrorCode, ErrorDetail, PetstoreErrorOptions } from './errors.js';
export { createMemoryStorage } from './memory-storage.js';
export { PetIndex } from './pet-index.js';
export { createPetstore } from './petstore.js';
export type { Petstore, PetstoreOptions } from './petstore.js';
export type { ListPetsQuery, NewPet, Pet, PetPage, PetStatus, PetStorage, PetstoreApi, StorageListQuery } from './types.js';
export { clampLimit, isPetStatus, validateListQuery, validateNewPet, validatePetId } from './validate.js';
export { createPostgresStorage } from './postgres-storage/index.js';
export type { PostgresQuery, PostgresStorageOptions } from './postgres-storage/index.js';
export { createFileStorage, repairFile } from './file-storage/index.js';
export type { Durability, FileStorage, FileStorageOptions, JournalStats, RepairOptions, RepairReport, StorageFile, StorageFileSystem } from './file-storage/index.js';
export { createOpenApiDocument, SECURITY_SCHEME } from './openapi/index.js';
export type {
  JsonSchema, JsonValue, OpenApiDocument, OpenApiDocumentOptions, OpenApiHeader, OpenApiMediaType, OpenApiMethod, OpenApiOperation, OpenApiParameter,
  OpenApiPathItem, OpenApiRequestBody, OpenApiResponse, OpenApiSecurityRequirement,
} from './openapi/index.js';
