import { getHeapStatistics } from 'node:v8';
import { CapacityError, createMemoryStorage, megabytes } from '../../lib/index.js';
import type { Capacity, PetStorage } from '../../lib/index.js';
import { UsageError } from './command-line.js';
import { createFileStorage } from '../file-storage/index.js';
import type { Durability } from '../file-storage/index.js';
import type { PostgresStorage } from '../postgres/index.js';
import { openPostgresStorage } from './open-postgres-storage.js';
import type { PostgresPoolSettings } from './open-postgres-storage.js';

/** Which storage the standalone server runs on, as read from its configuration (with PostgreSQL, its pool's settings). */
export interface StorageConfig extends PostgresPoolSettings {
  /** Path of the durable data file (`PETSTORE_DATA`); unset means in-memory. */
  dataFile?: string;
  /** PostgreSQL connection URL (`PETSTORE_DATABASE_URL`). */
  databaseUrl?: string;
  /** With `dataFile`: `fsync` (the default; survives power loss) or `write` (survives process crashes). */
  durability?: Durability;
  /** Most pets kept in memory (`PETSTORE_MAX_PETS`); not with `databaseUrl`. */
  maxPets?: number;
  /** The old space of this process in bytes (`oldSpaceLimit`); default: as V8's heap limit tells. */
  oldSpace?: number;
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

const MEBIBYTE = 1_048_576;

/**
 * Share of the old space the pets of the in-memory and file storages may take (decided): requests
 * in flight and the garbage collector's headroom use the rest.
 */
export const PET_HEAP_SHARE = 0.7;

/** Old space kept from pets for the server itself and its JSON caches (at most 16 MiB). */
const SERVER_RESERVE = 32 * MEBIBYTE;

/**
 * The largest young generation V8 adds to `--max-old-space-size` in `heap_size_limit` on 64-bit, where
 * no pet stays: it differs by version (measured: 48 MiB on Node 20 and 22, 192 on 24, 96 on 26), so
 * without the flag the old space is taken as the heap limit less the largest.
 */
const LARGEST_YOUNG_GENERATION = 192 * MEBIBYTE;

/**
 * The old space of this process, in bytes: the `--max-old-space-size` node was given (MiB), exactly;
 * without one, V8's heap limit less the largest young generation, which errs on the side of fewer pets.
 */
export function oldSpaceLimit(maxOldSpaceMiB: number | undefined): number {
  if (maxOldSpaceMiB !== undefined) return maxOldSpaceMiB * MEBIBYTE;
  return getHeapStatistics().heap_size_limit - LARGEST_YOUNG_GENERATION;
}

/** Heap bytes the pets may take in an old space of `oldSpace` bytes: 70% of it, less 32 MiB for the server (1,024 MiB: 684.8 MiB). */
export function petMemoryBudget(oldSpace: number): number {
  return Math.max(0, Math.floor(oldSpace * PET_HEAP_SHARE - SERVER_RESERVE));
}

/** The `--max-old-space-size`, in MiB, whose budget holds `petBytes` of pets: petMemoryBudget turned around. */
export function oldSpaceFor(petBytes: number): number {
  return Math.ceil((petBytes + SERVER_RESERVE) / PET_HEAP_SHARE / MEBIBYTE);
}

/**
 * The capacity of the storage a configuration names: for pets kept in this process's heap, the
 * memory budget of `oldSpace` (the configuration's, else as V8's heap limit tells) and `--max-pets`;
 * none for PostgreSQL, which keeps its pets in the database.
 */
export function capacityOf(config: Omit<StorageConfig, 'log'>, oldSpace = config.oldSpace ?? oldSpaceLimit(undefined)): Capacity | undefined {
  if (storageKindOf(config) === 'postgres') return undefined;
  const maxBytes = petMemoryBudget(oldSpace);
  return config.maxPets === undefined ? { maxBytes } : { maxBytes, maxPets: config.maxPets };
}

/** A data file refused for its size: one line with what it needs and the setting that helps, for exit status 2. */
function capacityUsageError(error: CapacityError, oldSpace: number): UsageError {
  const advice = error.bound === 'maxPets'
    ? 'raise --max-pets (PETSTORE_MAX_PETS)'
    : `pets may take ${Math.round(PET_HEAP_SHARE * 100)}% of the ${megabytes(oldSpace)} old space less ${megabytes(SERVER_RESERVE)}: `
      + `start node with --max-old-space-size=${error.neededBytes === undefined ? '<MiB>' : `${oldSpaceFor(error.neededBytes)} or more`} (in NODE_OPTIONS), or keep the pets in PostgreSQL (--database-url)`;
  return new UsageError(`${error.message}; ${advice}`);
}

/** Opens the storage the configuration names; the in-memory storage when it names none. A data file that cannot fit its capacity is a UsageError. */
export async function openStorage(config: StorageConfig): Promise<PetStorage | PostgresStorage> {
  if (config.dataFile !== undefined) {
    const oldSpace = config.oldSpace ?? oldSpaceLimit(undefined);
    const capacity = capacityOf(config, oldSpace);
    try {
      return await createFileStorage(config.dataFile, {
        log: config.log,
        ...(config.durability === undefined ? {} : { durability: config.durability }),
        ...(capacity === undefined ? {} : { capacity }),
      });
    } catch (error) {
      throw error instanceof CapacityError ? capacityUsageError(error, oldSpace) : error;
    }
  }
  if (config.databaseUrl !== undefined) return openPostgresStorage({ ...config, databaseUrl: config.databaseUrl });
  return createMemoryStorage();
}
