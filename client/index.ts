export { PetstoreClient } from './petstore-client.js';
export type { PetsOptions, PetstoreClientOptions } from './petstore-client.js';
export type { DeprecationNotice } from './deprecation.js';
export { findLink, parseLinkHeader } from './link-header.js';
export type { LinkValue } from './link-header.js';
export type { FetchFunction, FetchHeaders, FetchInit, FetchResponse } from './fetch.js';
