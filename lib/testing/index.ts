export { runStorageContract } from './storage-contract.js';
export type { StorageContractOptions } from './storage-contract.js';
