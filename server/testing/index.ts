export { inject } from './inject.js';
export type { InjectRequest, InjectResponse, InjectTarget } from './inject.js';
export { runStorageContract } from '../../lib/storage/contract-suite.js';
export type { StorageContractOptions } from '../../lib/storage/contract-suite.js';
