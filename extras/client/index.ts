// A client of the interface over HTTP, on any fetch.

/** A client of the interface: the spec's three operations over HTTP, with paging and deprecation notices. */
export { PetstoreClient } from './petstore-client.js';
/** The error a PetstoreClient call throws: the server's Error, with the request's id and the call's attempts. */
export { PetstoreClientError } from './client-error.js';
/** Options of PetstoreClientError. */
export type { PetstoreClientErrorOptions } from './client-error.js';
/** Options of PetstoreClient. */
export type { PetstoreClientOptions } from './petstore-client.js';
/** Options of PetstoreClient.pets. */
export type { PetsOptions } from './petstore-client.js';
/** The default bound on pages in a row without a pet in PetstoreClient.pets (`maxEmptyPages`). */
export { MAX_EMPTY_PAGES } from './petstore-client.js';
/** Options of PetstoreClient.createPet: the caller's own idempotency key, and the retry policy of this call. */
export type { CreatePetOptions } from './petstore-client.js';
/** Options of one call of listPets or getPet: the retry policy of this call. */
export type { RequestOptions } from './petstore-client.js';
/** The default bound on an answer's body, in bytes (`maxAnswerBytes`). */
export { MAX_ANSWER_BYTES } from './answer-body.js';
/** The size in bytes of the largest valid answer of the interface, which MAX_ANSWER_BYTES rounds up. */
export { largestValidAnswerBytes } from './answer-body.js';
/** The retry policy every call follows unless told otherwise. */
export { RETRY_DEFAULTS } from './retry.js';
/** The statuses a call retries, beside a network failure. */
export { RETRYABLE_STATUSES } from './retry.js';
/** How a client or a call changes the retry policy and its time bounds (`totalTime`, `attemptTimeout`). */
export type { RetryOptions } from './retry.js';
/** A retry policy with every field decided. */
export type { RetryPolicy } from './retry.js';
/** What PetstoreClient tells onDeprecation about a deprecated operation it called. */
export type { DeprecationNotice } from './deprecation.js';
/** One link of a `Link` header, as DeprecationNotice lists them. */
export type { LinkValue } from './link-header.js';
/** The fetch function PetstoreClient calls: globalThis.fetch or one of the same shape. */
export type { FetchFunction } from './fetch.js';
/** The request FetchFunction is given. */
export type { FetchInit } from './fetch.js';
/** The answer FetchFunction gives. */
export type { FetchResponse } from './fetch.js';
/** The signal of FetchInit: the runtime's AbortSignal. */
export type { FetchAbortSignal } from './fetch.js';
/** The body stream of FetchResponse, read chunk by chunk. */
export type { FetchBody } from './fetch.js';
/** The headers of FetchResponse. */
export type { FetchHeaders } from './fetch.js';
