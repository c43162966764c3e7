import { createPetstore, PetstoreError } from '../../lib/index.js';
import type { Petstore } from '../../lib/index.js';
import { startServer } from '../../server/node/index.js';
import { docsSite } from '../docs-site/index.js';
import { createMetrics, instrumentPool, instrumentStorage, operatorKit } from '../operator/index.js';
import { connectionRefusalCounterOf, logDropCounterOf } from '../operator/metrics.js';
import type { ApiKeys, Logger, RunningServer, StartServerOptions } from '../../server/node/index.js';
import type { Metrics } from '../operator/index.js';
import { createReloadableKeys, startingKeys } from './api-keys.js';
import type { KeyFileOptions, StartingKeys } from './api-keys.js';
import { UsageError } from './command-line.js';
import type { CliIo, CliSignal } from './io.js';
import { listenProblem } from './listen-error.js';
import { createLogLimiter, observeStorage } from './log-limiter.js';
import type { LogLimiter } from './log-limiter.js';
import { capacityOf, oldSpaceLimit, openStorage, storageKindOf } from './open-storage.js';
import { reasonOf, systemCodeOf } from './reasons.js';
import { readSeedFile, seedStore } from './seed-file.js';
import { createStartupLog } from './startup-log.js';
import type { SeedFile } from './seed-file.js';
import type { ServeConfig } from './serve-config.js';

/** Opens the storage the configuration names (timed into `metrics` when given) and the engine over it. */
async function openStore(config: ServeConfig, metrics: Metrics | undefined, io: CliIo, limiter: LogLimiter): Promise<Petstore> {
  const { log } = limiter;
  const kind = storageKindOf(config.storage);
  const storageConfig = { ...config.storage, oldSpace: oldSpaceLimit(io.maxOldSpaceMiB) };
  const opened = await openStorage({ ...storageConfig, log: (note) => log({ level: 'warn', msg: 'Storage note', storage: kind, note }) });
  // A storage that can fail for a while (a file, a database) tells the log when it answers again; memory never fails so.
  const storage = kind === 'memory' ? opened : observeStorage(opened, limiter);
  log({ level: 'info', msg: 'Storage opened', storage: kind, ...(config.storage.dataFile === undefined ? {} : { file: config.storage.dataFile }) });
  const capacity = capacityOf(storageConfig);
  const instrumented = metrics === undefined ? storage : instrumentStorage(storage, metrics, kind);
  // The pool's figures are PostgreSQL's own, outside the storage contract: wired to the metrics here.
  const pool = 'connections' in opened ? opened.connections?.bind(opened) : undefined;
  if (metrics !== undefined && pool !== undefined) instrumentPool(metrics, kind, pool);
  return createPetstore(capacity === undefined ? { storage: instrumented } : { storage: instrumented, capacity });
}

/** The options of startServer that the configuration decides: the standalone server has the docs site and the operator's kit. */
function serverOptions(config: ServeConfig, apiKeys: ApiKeys, metrics: Metrics | undefined, io: CliIo, log: Logger): Omit<StartServerOptions, 'store'> {
  const operator = operatorKit({
    readiness: config.readiness,
    ...(metrics === undefined ? {} : { metrics }),
    ...(config.accessLog ? { accessLog: (line: string) => io.stdout(`${line}\n`) } : {}),
  });
  return {
    apiKeys,
    port: config.port,
    host: config.host,
    log,
    plugins: [docsSite({ redirectRoot: true }), operator],
    connections: {
      ...(metrics === undefined ? {} : { onRefused: connectionRefusalCounterOf(metrics) }),
      ...(config.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: config.maxConnectionsPerAddress }),
    },
    ...(config.corsOrigins === undefined ? {} : { corsOrigins: config.corsOrigins }),
  };
}

/** Seeds the store (when asked) and starts the server; on failure the store is closed again, so a data file's lock is released. */
async function seedAndStart(store: Petstore, seed: SeedFile | undefined, options: Omit<StartServerOptions, 'store'>, log: Logger): Promise<RunningServer> {
  try {
    if (seed !== undefined) await seedStore(store, seed, log);
    return await startServer({ ...options, store });
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

/** SIGTERM and SIGINT: fail readiness, keep serving for the delay, then close gracefully and exit. A second signal changes nothing. */
function stopOnSignals(running: RunningServer, delaySeconds: number, io: CliIo, limiter: LogLimiter): void {
  const { log } = limiter;
  let isStopping = false;
  const stop = (signal: CliSignal): void => {
    if (isStopping) return void log({ level: 'info', msg: 'Shutdown already under way', signal });
    isStopping = true;
    log({ level: 'info', msg: 'Signal received', signal, delaySeconds });
    running.close({ delay: Math.round(delaySeconds * 1000) }).then(
      () => {
        limiter.flush();
        log({ level: 'info', msg: 'Process exiting', signal, code: 0 });
        io.exit(0);
      },
      (error: unknown) => {
        log({ level: 'error', msg: 'Shutdown failed', signal, reason: reasonOf(error) });
        io.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) io.onSignal(signal, () => stop(signal));
}

/**
 * The keys the server is given, and SIGHUP: a key file's keys are a function over the keys it re-reads
 * on SIGHUP. Without a file there is nothing to re-read, and the signal is only noted, so that a stray
 * `kill -HUP` meant for a reload does not end the server.
 */
function keysInForce(config: ServeConfig, keys: StartingKeys, io: CliIo, options: KeyFileOptions): ApiKeys {
  const { keySource } = config;
  if (keySource.kind !== 'file') {
    io.onSignal('SIGHUP', () => options.log({ level: 'info', msg: 'SIGHUP ignored: no key file to re-read', signal: 'SIGHUP' }));
    return keys.apiKeys;
  }
  const reloadable = createReloadableKeys(keySource.path, keys.apiKeys, options);
  io.onSignal('SIGHUP', () => void reloadable.reload());
  return reloadable.apiKeys;
}

/**
 * What the server announces once it listens: the JSON event, then the human lines (the development
 * key, the API's URL, the reference page's URL). The page gets a line of its own, so the first line
 * stays `Petstore listening on <url>`, which scripts parse.
 */
function announce(running: RunningServer, config: ServeConfig, keys: StartingKeys, io: CliIo, log: Logger): void {
  const referencePage = `${running.url}/docs`;
  log({
    level: 'info', msg: 'Server listening', url: running.url, referencePage, ...boundAddress(running), storage: storageKindOf(config.storage),
    metrics: config.metrics, accessLog: config.accessLog, cors: config.corsOrigins ?? 'off', shutdownDelaySeconds: config.shutdownDelaySeconds,
    readiness: config.readiness,
  });
  // The only line that ever holds a key: the one the operator needs to call the server at all. On stdout, with the
  // other lines for a person, since stderr holds JSON lines only once the server listens; in one write, so they arrive together.
  const keyLine = keys.isGenerated ? `No PETSTORE_API_KEYS or --api-keys-file set: development key for this run only: ${keys.apiKeys[0]}\n` : '';
  io.stdout(`Petstore listening on ${running.url}\nReference page (open it in a browser): ${referencePage}\n${keyLine}`);
}

/**
 * The address and port the server is bound to, as the socket says: the URL leaves out a default port
 * (`http://host/v1` on 80), and a requested port 0 is not the one bound.
 */
export function boundAddress(running: Pick<RunningServer, 'server' | 'url'>): { address: string; port: number } {
  const bound = running.server.address();
  if (bound !== null && typeof bound === 'object') return { address: bound.address, port: bound.port };
  const url = new URL(running.url);
  return { address: url.hostname, port: Number(url.port === '' ? 80 : url.port) };
}

/**
 * A failure before the server listens, as the one human-readable line it is reported in (status 2):
 * every expected failure (a storage or database that refuses, a file or port the system refuses) is a
 * setup mistake whose message says what to do; anything else is a defect, rethrown with its stack (status 1).
 */
function setupMistake(error: unknown, config: ServeConfig): unknown {
  if (error instanceof UsageError) return error;
  const problem = listenProblem(error, config);
  if (problem !== undefined) return new UsageError(problem);
  if (error instanceof PetstoreError || (error instanceof Error && systemCodeOf(error) !== undefined)) return new UsageError(error.message);
  return error;
}

/**
 * The `serve` command: reads the keys and the seed file, opens the storage, seeds it, starts the
 * server, and acts on signals. Resolves once the server listens. Until then the log is held: a
 * server that cannot start rejects with a UsageError (status 2) after writing the held warnings as
 * human-readable lines, so stderr holds either JSON lines or human-readable lines, never both.
 */
export async function serve(config: ServeConfig, io: CliIo): Promise<number | undefined> {
  const startup = createStartupLog({ level: config.logLevel, write: (line) => io.stderr(line) });
  // A failure repeated on every request (a storage outage) is written once, then counted per interval.
  const limiter = createLogLimiter(startup.log);
  const { log } = limiter;
  const keyFileOptions: KeyFileOptions = { readText: io.readText, fileMode: io.fileMode, log };
  let running: RunningServer;
  let keys: StartingKeys;
  try {
    keys = await startingKeys(config.keySource, keyFileOptions);
    const seed = config.seed === undefined ? undefined : await readSeedFile(config.seed, io.readText);
    const metrics = config.metrics ? createMetrics() : undefined;
    if (metrics !== undefined) io.onDroppedLine(logDropCounterOf(metrics));
    const apiKeys = keysInForce(config, keys, io, keyFileOptions);
    const store = await openStore(config, metrics, io, limiter);
    running = await seedAndStart(store, seed, serverOptions(config, apiKeys, metrics, io, log), log);
  } catch (error) {
    for (const line of startup.abandon()) io.stderr(line);
    throw setupMistake(error, config);
  }
  startup.release();
  stopOnSignals(running, config.shutdownDelaySeconds, io, limiter);
  announce(running, config, keys, io, log);
  return undefined;
}
