/** The availability states an animal can be in, in the spec's order [spec 2, PetStatus]. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** Number of pets `listPets` returns when no `limit` is given [spec 4.1]. */
export const DEFAULT_LIMIT = 20;

/** Smallest page size `listPets` answers with; smaller limits are clamped up to it [spec 4.1]. */
export const MIN_LIMIT = 1;

/** Largest page size `listPets` answers with; larger limits are clamped down to it [spec 4.1, 8]. */
export const MAX_LIMIT = 100;

/** Longest accepted pet name, in Unicode code points (decided: the spec gives no bound). */
export const MAX_NAME_LENGTH = 256;

/** Largest integer that survives a round trip through a JSON number in JavaScript (2^53 - 1). */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;

/** The path prefix of the interface [spec 1, 9: both base addresses end in `/v1`]. */
export const VERSION_PATH = '/v1';

/** The interface version this package implements [spec 9]. */
export const INTERFACE_VERSION = '1.0.0';

/** When `getPet` was deprecated, in Unix seconds for `Deprecation: @<seconds>` (RFC 9745; decided: 2026-01-01T00:00:00Z, the spec gives only the removal date). */
export const GET_PET_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

/** When `getPet` is removed [spec 4.3, 9: 5 December 2030], as an HTTP date for `Sunset` (RFC 8594). */
export const GET_PET_SUNSET = new Date(Date.UTC(2030, 11, 5)).toUTCString();

/** The fields of a NewPet, in the spec's order [spec 2, NewPet]; any other field is rejected. */
export const NEW_PET_FIELDS = ['name', 'categoryId', 'status'] as const;

/** The NewPet fields a client must send [spec 2, 4.2]. */
export const REQUIRED_NEW_PET_FIELDS = ['name', 'categoryId'] as const;
