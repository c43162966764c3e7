export { createFileStorage, LOCK_SUFFIX } from './file-storage.js';
export type { FileStorage, FileStorageOptions } from './file-storage.js';
export { nodeFileSystem } from './file-system.js';
export type { StorageFile, StorageFileSystem } from './file-system.js';
export type { Durability, JournalStats } from './journal-types.js';
export { repairFile } from './repair.js';
export type { RepairOptions, RepairReport } from './repair.js';
