import { createMemoryStorage } from '../lib/index.js';
import type { PetStorage } from '../lib/index.js';
import { createFileStorage } from '../lib/storage/file/index.js';
import type { Durability } from '../lib/storage/file/index.js';
import { openPostgresStorage } from './open-postgres-storage.js';

/** Which storage the standalone server runs on, as read from its configuration. */
export interface StorageConfig {
  /** Path of the durable data file (`PETSTORE_DATA`); unset means in-memory. */
  dataFile?: string;
  /** PostgreSQL connection URL (`PETSTORE_DATABASE_URL`). */
  databaseUrl?: string;
  /** With `dataFile`: `fsync` (the default; survives power loss) or `write` (survives process crashes). */
  durability?: Durability;
  /** Where operational notes go (recovery reports and the like); the server passes stderr. */
  log: (line: string) => void;
}

/** The storages the server runs on, as logs and metrics name them. */
export type StorageKind = 'memory' | 'file' | 'postgres';

/** Which storage a configuration names. */
export function storageKindOf(config: Omit<StorageConfig, 'log'>): StorageKind {
  if (config.dataFile !== undefined) return 'file';
  return config.databaseUrl === undefined ? 'memory' : 'postgres';
}

/** Opens the storage the configuration names; the in-memory storage when it names none. */
export async function openStorage(config: StorageConfig): Promise<PetStorage> {
  if (config.dataFile !== undefined) return createFileStorage(config.dataFile, { log: config.log, ...(config.durability === undefined ? {} : { durability: config.durability }) });
  if (config.databaseUrl !== undefined) return openPostgresStorage({ databaseUrl: config.databaseUrl, log: config.log });
  return createMemoryStorage();
}
