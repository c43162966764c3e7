import { createPetstore, PetstoreError } from '../../lib/index.js';
import type { Petstore } from '../../lib/index.js';
import { startServer } from '../../server/node/index.js';
import { docsSite } from '../docs-site/index.js';
import { createMetrics, instrumentStorage, operatorKit } from '../operator/index.js';
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
import { createLogWriter } from './log-writer.js';
import { capacityOf, oldSpaceLimit, openStorage, storageKindOf } from './open-storage.js';
import { reasonOf } from './reasons.js';
import { readSeedFile, seedStore } from './seed-file.js';
import type { SeedFile } from './seed-file.js';
import type { ServeConfig } from './serve-config.js';

const STOP_SIGNALS: readonly CliSignal[] = ['SIGTERM', 'SIGINT'];

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
    ...(metrics === undefined ? {} : { connections: { onRefused: connectionRefusalCounterOf(metrics) } }),
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
  for (const signal of STOP_SIGNALS) io.onSignal(signal, () => stop(signal));
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
  const url = new URL(running.url);
  const referencePage = `${running.url}/docs`;
  log({
    level: 'info', msg: 'Server listening', url: running.url, referencePage, address: url.hostname, port: Number(url.port), storage: storageKindOf(config.storage),
    metrics: config.metrics, accessLog: config.accessLog, cors: config.corsOrigins ?? 'off', shutdownDelaySeconds: config.shutdownDelaySeconds,
    readiness: config.readiness,
  });
  // The only line that ever holds a key: the one the operator needs to call the server at all.
  if (keys.isGenerated) io.stderr(`No PETSTORE_API_KEYS or --api-keys-file set: development key for this run only: ${keys.apiKeys[0]}\n`);
  io.stdout(`Petstore listening on ${running.url}\nReference page (open it in a browser): ${referencePage}\n`);
}

/**
 * The `serve` command: reads the keys and the seed file, opens the storage, seeds it, starts the
 * server, and acts on signals. Resolves once the server listens, or to exit status 1 when it cannot
 * start (said in a log line); a configuration mistake rejects with a UsageError (status 2).
 */
export async function serve(config: ServeConfig, io: CliIo): Promise<number | undefined> {
  // A failure repeated on every request (a storage outage) is written once, then counted per interval.
  const limiter = createLogLimiter(createLogWriter({ level: config.logLevel, write: (line) => io.stderr(line) }));
  const { log } = limiter;
  const keyFileOptions: KeyFileOptions = { readText: io.readText, fileMode: io.fileMode, log };
  const keys = await startingKeys(config.keySource, keyFileOptions);
  const seed = config.seed === undefined ? undefined : await readSeedFile(config.seed, io.readText);
  const metrics = config.metrics ? createMetrics() : undefined;
  if (metrics !== undefined) io.onDroppedLine(logDropCounterOf(metrics));
  const apiKeys = keysInForce(config, keys, io, keyFileOptions);
  let running: RunningServer;
  try {
    const store = await openStore(config, metrics, io, limiter);
    running = await seedAndStart(store, seed, serverOptions(config, apiKeys, metrics, io, log), log);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // A port in use or refused, or an address not on this host: the operator's to fix, said in one line (status 2).
    const problem = listenProblem(error, config);
    if (problem !== undefined) throw new UsageError(problem);
    // An expected failure (a damaged data file, an unreachable database) says all in its message; anything else brings its stack.
    log({ level: 'error', msg: 'Startup failed', reason: error instanceof Error ? error.message : String(error), ...(error instanceof PetstoreError ? {} : { error }) });
    return 1;
  }
  stopOnSignals(running, config.shutdownDelaySeconds, io, limiter);
  announce(running, config, keys, io, log);
  return undefined;
}
