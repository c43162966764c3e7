import type { LogLevel } from '../../server/node/index.js';
import type { ReadinessMode } from '../operator/readiness.js';
import { NO_KEY, parseApiKeysVariable } from './api-keys.js';
import type { KeySource } from './api-keys.js';
import { UsageError } from './command-line.js';
import type { Configuration } from './command-line.js';
import type { PostgresPoolSettings } from './open-postgres-storage.js';
import type { StorageConfig } from './open-storage.js';
import { SETTINGS } from './settings.js';

/** A file the configuration names, with the flag or variable that named it (for messages). */
export interface NamedFile {
  path: string;
  sourceName: string;
}

/** Everything `serve` needs, read and checked. */
export interface ServeConfig {
  port: number;
  host: string;
  keySource: KeySource;
  storage: Omit<StorageConfig, 'log'>;
  seed: NamedFile | undefined;
  corsOrigins: readonly string[] | '*' | undefined;
  accessLog: boolean;
  metrics: boolean;
  shutdownDelaySeconds: number;
  readiness: ReadinessMode;
  logLevel: LogLevel;
  maxConnectionsPerAddress: number | undefined;
}

/** Which storage to run on; naming two storages, or a durability without a data file, is a mistake. */
function readStorage(configuration: Configuration): Omit<StorageConfig, 'log'> {
  const { data, databaseUrl, durability, maxPets } = SETTINGS;
  const dataFile = configuration.value(data);
  const url = configuration.value(databaseUrl);
  if (dataFile !== undefined && url !== undefined) {
    throw new UsageError(`${configuration.sourceOf(data)} and ${configuration.sourceOf(databaseUrl)} are both set: choose one storage`);
  }
  const chosen = configuration.value(durability);
  if (configuration.isSet(durability) && dataFile === undefined) {
    throw new UsageError(`${configuration.sourceOf(durability)} applies only with a data file (--data or PETSTORE_DATA)`);
  }
  const most = configuration.value(maxPets);
  if (most !== undefined && url !== undefined) {
    throw new UsageError(`${configuration.sourceOf(maxPets)} bounds the pets kept in memory (in memory or with --data); PostgreSQL (${configuration.sourceOf(databaseUrl)}) keeps them in the database`);
  }
  const bound = most === undefined ? {} : { maxPets: most };
  const pool = readPoolSettings(configuration);
  if (url === undefined && Object.keys(pool).length > 0) {
    const named = POOL_SETTINGS.filter(([, setting]) => configuration.isSet(setting)).map(([, setting]) => configuration.sourceOf(setting));
    throw new UsageError(`${named.join(' and ')} apply only with PostgreSQL (--database-url or PETSTORE_DATABASE_URL)`);
  }
  if (dataFile !== undefined) return { dataFile, durability: chosen, ...bound };
  return url === undefined ? bound : { databaseUrl: url, ...pool };
}

/** The settings of the PostgreSQL pool, by their names in PostgresPoolSettings. */
const POOL_SETTINGS = [
  ['poolSize', SETTINGS.poolSize], ['poolWait', SETTINGS.poolWait], ['idleTimeout', SETTINGS.poolIdleTimeout],
  ['statementTimeout', SETTINGS.statementTimeout], ['requestDeadline', SETTINGS.requestDeadline],
] as const;

/** The pool's settings that are set; the rest come from the URL or their defaults. */
function readPoolSettings(configuration: Configuration): PostgresPoolSettings {
  const settings: PostgresPoolSettings = {};
  for (const [name, setting] of POOL_SETTINGS) {
    const value = configuration.value(setting);
    if (value !== undefined) settings[name] = value;
  }
  return settings;
}

/**
 * Where the keys come from. The variable and the key file together are refused: a key removed from
 * the file would still be accepted from the variable, so rotating by the file would not revoke it.
 */
function readKeySource(configuration: Configuration): KeySource {
  const text = configuration.value(SETTINGS.apiKeys);
  const file = configuration.value(SETTINGS.apiKeysFile);
  if (file !== undefined && text !== undefined) {
    throw new UsageError(`PETSTORE_API_KEYS and ${configuration.sourceOf(SETTINGS.apiKeysFile)} are both set: choose one (a key removed from the file would still be accepted from the variable)`);
  }
  if (file !== undefined) return { kind: 'file', path: file, sourceName: configuration.sourceOf(SETTINGS.apiKeysFile) };
  if (text === undefined) return { kind: 'generated' };
  // Set but giving no key (`PETSTORE_API_KEYS=,`) is a mistake, never a reason to generate one.
  const reading = parseApiKeysVariable(text);
  if ('problem' in reading) {
    throw new UsageError(reading.problem === NO_KEY
      ? `PETSTORE_API_KEYS ${NO_KEY}: list keys separated by commas, or unset it for a development key`
      : `PETSTORE_API_KEYS, ${reading.problem}`);
  }
  return { kind: 'environment', keys: reading.keys };
}

/** Reads the `serve` command's configuration: flags first, then the environment, then the defaults. */
export function readServeConfig(configuration: Configuration): ServeConfig {
  const seed = configuration.value(SETTINGS.seed);
  return {
    port: configuration.value(SETTINGS.port),
    host: configuration.value(SETTINGS.host),
    keySource: readKeySource(configuration),
    storage: readStorage(configuration),
    seed: seed === undefined ? undefined : { path: seed, sourceName: configuration.sourceOf(SETTINGS.seed) },
    corsOrigins: configuration.value(SETTINGS.corsOrigins),
    accessLog: configuration.value(SETTINGS.accessLog),
    metrics: configuration.value(SETTINGS.metrics),
    shutdownDelaySeconds: configuration.value(SETTINGS.shutdownDelay),
    readiness: configuration.value(SETTINGS.readiness),
    logLevel: configuration.value(SETTINGS.logLevel),
    maxConnectionsPerAddress: configuration.value(SETTINGS.maxConnectionsPerAddress),
  };
}
