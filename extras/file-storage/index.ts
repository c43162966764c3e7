// The file storage: pets in an append-only journal on disk, for one process at a time.

/** Opens (or creates) a journal file as a storage, holding its lock file while open. */
export { createFileStorage } from './file-storage.js';
/** The storage createFileStorage returns: a PetStorage with the journal's figures. */
export type { FileStorage } from './file-storage.js';
/** Options of createFileStorage. */
export type { FileStorageOptions } from './file-storage.js';
/** The ending of the lock file's name, beside the journal's. */
export { LOCK_SUFFIX } from './file-storage.js';
/** How far a write goes before insert resolves: fsync, or write. */
export type { Durability } from './journal-types.js';
/** Counters of the journal writer. */
export type { JournalStats } from './journal-types.js';
/** The file system the storage uses: node:fs/promises. */
export { nodeFileSystem } from './file-system.js';
/** The part of a file system the storage uses, so a test can make writes fail. */
export type { StorageFileSystem } from './file-system.js';
/** An open file as StorageFileSystem gives it. */
export type { StorageFile } from './file-system.js';
/** What StorageFile.lock() came to: the file itself locked, held by another open of it, or not lockable here. */
export type { DescriptorLock } from './descriptor-lock.js';
/** Repairs a journal that refuses to open: backs it up, then cuts it at the first record that cannot be replayed. */
export { repairFile } from './repair.js';
/** Options of repairFile. */
export type { RepairOptions } from './repair.js';
/** What repairFile did. */
export type { RepairReport } from './repair.js';
