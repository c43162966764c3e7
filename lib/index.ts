export { DEFAULT_LIMIT, INTERFACE_VERSION, MAX_LIMIT, MAX_NAME_LENGTH, MIN_LIMIT, PET_STATUSES } from './constants.js';
export { ERROR_CODES, PetstoreError, isUnexpectedError, toErrorBody } from './errors.js';
export type { ErrorBody, ErrorCode, ErrorDetail, PetstoreErrorOptions } from './errors.js';
export { createMemoryStorage } from './memory-storage.js';
export { PetIndex } from './pet-index.js';
export { createPetstore } from './petstore.js';
export type { Petstore, PetstoreOptions } from './petstore.js';
export type { ListPetsQuery, NewPet, Pet, PetPage, PetStatus, PetStorage, PetstoreApi, StorageListQuery } from './types.js';
export { clampLimit, isPetStatus, validateListQuery, validateNewPet, validatePetId } from './validate.js';
