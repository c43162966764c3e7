export { crc32, tableCrc32 } from './crc32.js';
export { createFileStorage, LOCK_SUFFIX } from './file-storage.js';
export type { FileStorage, FileStorageOptions } from './file-storage.js';
export { nodeFileSystem } from './file-system.js';
export type { StorageFile, StorageFileSystem } from './file-system.js';
export { FORMAT_VERSION, HEADER_SIZE, MAX_PAYLOAD_SIZE } from './journal-format.js';
export type { Durability, JournalStats } from './journal-writer.js';
export { repairFile } from './repair.js';
export type { RepairOptions, RepairReport } from './repair.js';
