// What a consumer's own tests use: the interface without a socket, and the contract every storage must pass.

/** Sends one request to the interface without a socket and answers what a client would see. */
export { inject } from './inject.js';
/** A request to inject, the answer inject gives, and what inject answers with: handler options, or a fetch-API handler. */
export type { InjectRequest, InjectResponse, InjectTarget } from './inject.js';
/** Registers the shared contract tests of a storage with node:test, and its options. */
export { runStorageContract, type StorageContractOptions } from '../../lib/storage/contract-suite.js';
