export { PetstoreClient } from './petstore-client.js';
export type { CreatePetOptions, PetsOptions, PetstoreClientOptions, RequestOptions } from './petstore-client.js';
export { RETRY_DEFAULTS, RETRYABLE_STATUSES } from './retry.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export type { DeprecationNotice } from './deprecation.js';
export { findLink, parseLinkHeader } from './link-header.js';
export type { LinkValue } from './link-header.js';
export type { FetchFunction, FetchHeaders, FetchInit, FetchResponse } from './fetch.js';
