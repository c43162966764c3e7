// What a consumer's own tests use: the interface without a socket, and the contract every storage must pass.

/** Sends one request to the interface without a socket and answers what a client would see. */
export { inject } from './inject.js';
/** A request to inject. */
export type { InjectRequest } from './inject.js';
/** The answer inject gives. */
export type { InjectResponse } from './inject.js';
/** What inject answers with: handler options, or a fetch-API handler. */
export type { InjectTarget } from './inject.js';
/** Registers the shared contract tests of a storage with node:test. */
export { runStorageContract } from '../../lib/storage/contract-suite.js';
/** Options of runStorageContract. */
export type { StorageContractOptions } from '../../lib/storage/contract-suite.js';
