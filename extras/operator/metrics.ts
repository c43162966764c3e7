import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';
import type { PetStorage } from '../../lib/index.js';
import type { ConnectionPoolStats } from '../postgres/index.js';
import type { HeaderList } from '../../server/core/index.js';
import { REPLAYED_HEADER } from '../../server/core/index.js';
import { Counter, escapeLabelValue, formatValue, Gauge, Histogram, renderFamilies, writeHeader } from './prometheus.js';
import type { HistogramSeries, MetricFamily, ValueSeries } from './prometheus.js';

/** The metrics of a server, made by `createMetrics()`: what `GET /metrics` answers when given to `startServer`. */
export interface Metrics {
  /** Every metric in the Prometheus text exposition format 0.0.4. */
  render(): string;
}

/** The `operation` label of a request that reached no operation (a 401, 404 or 405, OPTIONS, a missing Host). */
export const NO_OPERATION = 'none';

/** The storage operations `instrumentStorage` times, as the `operation` label names them. */
export type StorageOperation = 'insert' | 'insertOnce' | 'get' | 'list' | 'checkReady';

/** What became of a create with an Idempotency-Key that stored no new pet: the first pet again, a 409, or a 422. */
export const IDEMPOTENCY_OUTCOMES = ['replayed', 'in_flight', 'key_reused'] as const;

/** One of IDEMPOTENCY_OUTCOMES, the `outcome` label of `petstore_idempotency_outcomes_total`. */
export type IdempotencyOutcome = (typeof IDEMPOTENCY_OUTCOMES)[number];

/** The idempotency outcome of a `createPet` answer, or undefined for a create that stored a pet or failed otherwise. */
function idempotencyOutcome(status: number, headers: HeaderList): IdempotencyOutcome | undefined {
  // createPet answers 409 and 422 only for a key in flight and a key reused [draft-ietf-httpapi-idempotency-key-header-07 §2.7].
  if (status === 409) return 'in_flight';
  if (status === 422) return 'key_reused';
  if (status !== 201) return undefined;
  for (let index = 0; index < headers.length; index += 2) if (headers[index] === REPLAYED_HEADER) return 'replayed';
  return undefined;
}

/**
 * Upper bounds of the duration buckets (s): 50 µs to 10 s. In-memory answers fall in the first
 * buckets, a database's in the middle, and a stall in the last.
 */
const DURATION_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How often the event loop is sampled (ms): Node's default; the delay reported is what a sample came late beyond it. */
const EVENT_LOOP_RESOLUTION = 10;

const EVENT_LOOP_DELAY = 'petstore_event_loop_delay_seconds';
const NANOSECONDS = 1e9;

/**
 * The event loop's delay as a summary: the median and 99th percentile since the previous scrape,
 * and the sum and count of every sample since start (`perf_hooks.monitorEventLoopDelay`).
 */
class EventLoopDelay implements MetricFamily {
  readonly #histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION });
  #sum = 0;
  #count = 0;

  constructor() {
    // Its timer does not keep the process alive.
    this.#histogram.enable();
  }

  /** A sample's delay (s): what it came late beyond the resolution. */
  #delay(nanoseconds: number): number {
    return Math.max(0, nanoseconds / NANOSECONDS - EVENT_LOOP_RESOLUTION / 1000);
  }

  render(lines: string[]): void {
    const histogram = this.#histogram;
    const { count } = histogram;
    writeHeader(lines, EVENT_LOOP_DELAY, 'Delay of the event loop beyond its 10 ms sampling interval: quantiles since the previous scrape, sum and count since start', 'summary');
    for (const quantile of [0.5, 0.99]) {
      // No sample since the previous scrape: the quantile is unknown, as the format writes it.
      lines.push(`${EVENT_LOOP_DELAY}{quantile="${quantile}"} ${count === 0 ? 'NaN' : formatValue(this.#delay(histogram.percentile(quantile * 100)))}`);
    }
    if (count > 0) this.#sum += Math.max(0, (histogram.mean * count) / NANOSECONDS - (count * EVENT_LOOP_RESOLUTION) / 1000);
    this.#count += count;
    histogram.reset();
    lines.push(`${EVENT_LOOP_DELAY}_sum ${formatValue(this.#sum)}`, `${EVENT_LOOP_DELAY}_count ${this.#count}`);
  }
}

/** The `cause` of a storage failure whose cause carries no code. */
export const UNKNOWN_CAUSE = 'unknown';

/** Codes as storages give them: a SQLSTATE (55P03), a system error's (ECONNREFUSED), a pool's (PETSTORE_POOL_WAIT). */
const CAUSE_CODE = /^[A-Z0-9_]{1,32}$/;

/**
 * The `cause` label of a storage failure: the code of the error's cause (what the storage met), else
 * the error's own code when it is not the wire's (a bare system error), else `unknown`. Anything that
 * is not a short upper-case code becomes `unknown`, so the label keeps few values.
 */
export function storageFailureCause(error: unknown): string {
  const codeOf = (value: unknown): unknown => (typeof value === 'object' && value !== null ? Object.getOwnPropertyDescriptor(value, 'code')?.value : undefined);
  const cause: unknown = typeof error === 'object' && error !== null ? Object.getOwnPropertyDescriptor(error, 'cause')?.value : undefined;
  const code = cause === undefined ? codeOf(error) : codeOf(cause);
  return typeof code === 'string' && CAUSE_CODE.test(code) ? code : UNKNOWN_CAUSE;
}

/** The pools of the storages instrumented, read at each scrape: gauges of connections and waits, and a counter of waits given up. */
class StoragePools implements MetricFamily {
  readonly #sources = new Map<string, () => ConnectionPoolStats>();

  add(storage: string, read: () => ConnectionPoolStats): void {
    this.#sources.set(storage, read);
  }

  render(lines: string[]): void {
    if (this.#sources.size === 0) return;
    const read = [...this.#sources].map(([storage, source]) => ({ labels: `{storage="${escapeLabelValue(storage)}"}`, stats: source() }));
    const families: [string, string, 'gauge' | 'counter', (stats: ConnectionPoolStats) => number][] = [
      ['petstore_storage_pool_max_connections', 'Most connections the storage\'s pool opens (--pool-size)', 'gauge', (stats) => stats.max],
      ['petstore_storage_pool_connections', 'Connections the storage\'s pool holds open now, busy or idle', 'gauge', (stats) => stats.total],
      ['petstore_storage_pool_idle_connections', 'Open connections of the storage\'s pool waiting for a statement', 'gauge', (stats) => stats.idle],
      ['petstore_storage_pool_waiting_requests', 'Statements waiting for a connection of the storage\'s pool now', 'gauge', (stats) => stats.waiting],
      ['petstore_storage_pool_wait_timeouts_total', 'Statements that gave up waiting for a pooled connection (--pool-wait) and were never sent', 'counter', (stats) => stats.waitTimeouts],
    ];
    for (const [name, help, type, value] of families) {
      writeHeader(lines, name, help, type);
      for (const { labels, stats } of read) lines.push(`${name}${labels} ${formatValue(value(stats))}`);
    }
  }
}

/** The metrics behind the opaque `Metrics`: the server records requests into them, `instrumentStorage` storage operations. */
class PetstoreMetrics implements Metrics {
  readonly requests = new Counter('petstore_http_requests_total', 'Requests answered, by operation and HTTP status', ['operation', 'status']);
  readonly durations = new Histogram(
    'petstore_http_request_duration_seconds',
    'Time from a request reaching the server to its answer being handed to Node, by operation',
    ['operation'],
    DURATION_BUCKETS,
  );
  readonly inFlight = new Gauge('petstore_http_requests_in_flight', 'Requests being answered now');
  readonly logLinesDropped = new Counter('petstore_log_lines_dropped_total', 'Log lines dropped because their reader went away or fell behind, by stream', ['stream']);
  readonly connectionsRefused = new Counter(
    'petstore_connections_refused_total',
    'Refused by the connection budget, by reason: connections (closed at accept, past the most connections open at once), bodies (503, past the most bytes of bodies received at once)',
    ['reason'],
  );
  readonly storage = new Histogram(
    'petstore_storage_operation_duration_seconds',
    'Time of storage operations by storage, operation and outcome (ok, or error for one that failed)',
    ['storage', 'operation', 'outcome'],
    DURATION_BUCKETS,
  );
  readonly storageErrors = new Counter(
    'petstore_storage_errors_total',
    'Storage operations that failed, by storage, operation and cause (the code of what the storage met: a SQLSTATE, a system error code, or the pool\'s)',
    ['storage', 'operation', 'cause'],
  );
  readonly storagePools = new StoragePools();
  readonly idempotency = new Counter(
    'petstore_idempotency_outcomes_total',
    'Creates with an Idempotency-Key that stored no new pet, by outcome: replayed (the first pet again), in_flight (409), key_reused (422)',
    ['outcome'],
  );
  readonly #families: readonly MetricFamily[] = [
    this.requests,
    this.durations,
    this.inFlight,
    this.storage,
    this.storageErrors,
    this.storagePools,
    this.idempotency,
    this.logLinesDropped,
    this.connectionsRefused,
    new EventLoopDelay(),
    new Gauge('process_resident_memory_bytes', 'Resident memory of the process (RSS)', () => process.memoryUsage.rss()),
    new Gauge('petstore_heap_used_bytes', 'V8 heap in use', () => process.memoryUsage().heapUsed),
  ];

  constructor() {
    // Every outcome from the start, so a rate over them is defined before the first replay.
    for (const outcome of IDEMPOTENCY_OUTCOMES) this.idempotency.series([outcome]);
  }

  render(): string {
    return renderFamilies(this.#families);
  }
}

/** Creates the metrics of one server; pass them to `startServer({ metrics })` and to `instrumentStorage`. */
export function createMetrics(): Metrics {
  return new PetstoreMetrics();
}

/** The recording side of metrics made by `createMetrics`; a TypeError naming `caller` for anything else. */
function recorderOf(metrics: Metrics, caller: string): PetstoreMetrics {
  if (!(metrics instanceof PetstoreMetrics)) throw new TypeError(`${caller}: \`metrics\` must come from createMetrics()`);
  return metrics;
}

/** The streams a standalone server's log lines go to. */
export type LogStream = 'stdout' | 'stderr';

/**
 * The counter of log lines dropped, for the writer of the logs: each call counts one line dropped on
 * `stream` into `petstore_log_lines_dropped_total{stream}`. Both series start at 0.
 */
export function logDropCounterOf(metrics: Metrics): (stream: LogStream) => void {
  return countsOf(recorderOf(metrics, 'logDropCounterOf').logLinesDropped, ['stdout', 'stderr']);
}

/** A function counting one into the series of its label, each series made (and so shown) from the start. */
function countsOf<Label extends string>(counter: Counter, labels: readonly Label[]): (label: Label) => void {
  for (const label of labels) counter.series([label]);
  return (label) => void counter.series([label]).value++;
}

/** The reasons the connection budget refuses for, as `petstore_connections_refused_total` labels them. */
export type ConnectionRefusalReason = 'connections' | 'bodies';

/**
 * The counter of refusals of the connection budget, for `startServer({ connections: { onRefused } })`:
 * each call counts one into `petstore_connections_refused_total{reason}`. Both series start at 0.
 */
export function connectionRefusalCounterOf(metrics: Metrics): (reason: ConnectionRefusalReason) => void {
  return countsOf(recorderOf(metrics, 'connectionRefusalCounterOf').connectionsRefused, ['connections', 'bodies']);
}

/** What the server records of its requests. */
export interface RequestMetrics {
  /** A request reached the request core. */
  started(): void;
  /** The core answered it with `headers`; `started` is its `performance.now()` when it reached the server. */
  answered(operation: string | undefined, status: number, started: number, headers?: HeaderList): void;
  /** The server answered it itself, before the core (a refused pipeline, a 417). */
  refused(status: number, started: number): void;
}

/** The request side of `metrics`, for the server. */
export function requestMetricsOf(metrics: Metrics, caller: string): RequestMetrics {
  const recorder = recorderOf(metrics, caller);
  const { requests, durations, inFlight, idempotency } = recorder;
  const outcomes = new Map(IDEMPOTENCY_OUTCOMES.map((outcome) => [outcome, idempotency.series([outcome])]));
  // The series of each operation, found by two lookups without building a key: this runs on every request.
  const byOperation = new Map<string, { duration: HistogramSeries; byStatus: Map<number, ValueSeries> }>();
  const record = (operation: string, status: number, started: number): void => {
    let series = byOperation.get(operation);
    if (series === undefined) byOperation.set(operation, (series = { duration: durations.series([operation]), byStatus: new Map() }));
    let counter = series.byStatus.get(status);
    if (counter === undefined) series.byStatus.set(status, (counter = requests.series([operation, String(status)])));
    counter.value++;
    durations.observe(series.duration, (performance.now() - started) / 1000);
  };
  return {
    started: () => void inFlight.value++,
    answered(operation, status, started, headers = []) {
      inFlight.value--;
      record(operation ?? NO_OPERATION, status, started);
      if (operation !== 'createPet') return;
      const outcome = idempotencyOutcome(status, headers);
      const counter = outcome === undefined ? undefined : outcomes.get(outcome);
      if (counter !== undefined) counter.value++;
    },
    refused: (status, started) => record(NO_OPERATION, status, started),
  };
}

/**
 * A storage whose operations are timed into `metrics` as
 * `petstore_storage_operation_duration_seconds{storage=name, operation=insert|get|list|checkReady, outcome=ok|error}`,
 * and whose failures are counted by cause in `petstore_storage_errors_total`. A pool of connections
 * is no part of the storage contract: instrumentPool reads one into the metrics.
 */
export function instrumentStorage(storage: PetStorage, metrics: Metrics, name: string): PetStorage {
  const recorder = recorderOf(metrics, 'instrumentStorage');
  const { storage: histogram, storageErrors } = recorder;
  // What times one operation: its promise, given when it started, records its duration and outcome (`ok` or `error`) once it settles.
  const timerFor = (operation: StorageOperation) => {
    const ok = histogram.series([name, operation, 'ok']);
    const failed = histogram.series([name, operation, 'error']);
    return <T>(started: number, result: Promise<T>): Promise<T> => result.then((value) => {
      histogram.observe(ok, (performance.now() - started) / 1000);
      return value;
    }, (error: unknown) => {
      histogram.observe(failed, (performance.now() - started) / 1000);
      storageErrors.series([name, operation, storageFailureCause(error)]).value++;
      throw error;
    });
  };
  const [insert, get, list] = [timerFor('insert'), timerFor('get'), timerFor('list')];
  const instrumented: PetStorage = {
    insert: (pet) => insert(performance.now(), storage.insert(pet)),
    get: (id) => get(performance.now(), storage.get(id)),
    list: (query) => list(performance.now(), storage.list(query)),
  };
  // Kept only where the storage has it: without it, a create with a key must stay refused, never turn into a plain insert.
  const { insertOnce } = storage;
  if (insertOnce !== undefined) {
    const timeInsertOnce = timerFor('insertOnce');
    instrumented.insertOnce = (pet, idempotency) => timeInsertOnce(performance.now(), insertOnce.call(storage, pet, idempotency));
  }
  if (storage.checkReady !== undefined) {
    const checkReady = timerFor('checkReady');
    instrumented.checkReady = () => checkReady(performance.now(), storage.checkReady?.() ?? Promise.resolve());
  }
  if (storage.close !== undefined) instrumented.close = () => storage.close?.() ?? Promise.resolve();
  // Not timed: a count the engine reads before each create, so that a capacity holds with metrics on.
  if (storage.usage !== undefined) instrumented.usage = () => storage.usage?.() ?? { pets: 0, bytes: 0 };
  return instrumented;
}

/** Reads a storage's pool of connections (`read`, e.g. a PostgresStorage's `connections`) into the `petstore_storage_pool_*` metrics at each scrape, labelled `storage=name`. */
export function instrumentPool(metrics: Metrics, name: string, read: () => ConnectionPoolStats): void {
  recorderOf(metrics, 'instrumentPool').storagePools.add(name, read);
}
