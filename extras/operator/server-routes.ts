import { jsonResponse, textResponse } from '../../server/core/index.js';
import type { RootRoute } from '../../server/core/index.js';
import { PetstoreError } from '../../lib/index.js';
import type { Petstore } from '../../lib/index.js';
import type { Metrics } from './metrics.js';
import { checkReadiness, DEFAULT_READINESS, DEFAULT_READY_TIMEOUT, READINESS_MODES } from './readiness.js';
import type { ReadinessMode } from './readiness.js';

/** Media type of the Prometheus text exposition format 0.0.4. */
export const PROMETHEUS_TEXT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const HEALTHY = JSON.stringify({ status: 'ok' });
const READY = JSON.stringify({ status: 'ready' });

/** The 404 of `/metrics` while metrics are off: how to turn them on, in the standalone server and in an embedding host. */
export const METRICS_OFF = 'Metrics are off, so /metrics is not served: start the standalone server with `--metrics` (or `PETSTORE_METRICS=1`), '
  + 'or give `operatorKit({ metrics: createMetrics() })` when embedding';

/** What the standalone server's own routes need from the server. */
export interface ServerRoutesOptions {
  store: Petstore;
  /** Whether shutdown has begun: `/readyz` then answers 503 at once. */
  isClosing: () => boolean;
  /** Time the storage gets to answer `/readyz` (ms). Default 2000. */
  readyTimeout?: number;
  /** What `/readyz` answers for: the process and its storage (`storage`), or the process alone (`process`). Default `storage`. */
  readiness?: ReadinessMode;
  /** Metrics to answer at `/metrics`; without them `/metrics` is a 404 that says how to turn them on. */
  metrics?: Metrics;
}

/**
 * The standalone server's own routes, outside the interface and answered without a key: liveness
 * (`/healthz`), readiness (`/readyz`: shutdown has not begun and, unless `readiness` is `process`,
 * the storage answers; it reveals no pet and no key), Prometheus metrics when on (`/metrics`: without
 * a key, since a scraper's key could create pets), which a host adds with the operator's kit.
 */
export function createServerRoutes(options: ServerRoutesOptions, caller: string): RootRoute[] {
  const { store, metrics } = options;
  const readiness = { isClosing: options.isClosing, timeout: readyTimeoutOf(options.readyTimeout, caller), mode: readinessModeOf(options.readiness, caller) };
  const healthy = jsonResponse(200, HEALTHY);
  return [
    { path: '/healthz', operation: 'checkHealth', answer: () => healthy },
    {
      path: '/readyz',
      operation: 'checkReadiness',
      answer: async () => {
        await checkReadiness(store, readiness);
        return jsonResponse(200, READY);
      },
    },
    {
      path: '/metrics',
      operation: 'getMetrics',
      answer: metrics === undefined
        // Off, the path still says what it is and how to turn it on, rather than that the API lives under /v1.
        ? () => { throw new PetstoreError('not_found', METRICS_OFF); }
        : () => textResponse(200, metrics.render(), PROMETHEUS_TEXT_TYPE),
    },
  ];
}

/** The time `/readyz` gives the storage (ms): the default, or the caller's when it is a positive number. */
export function readyTimeoutOf(readyTimeout: number | undefined, caller: string): number {
  const timeout = readyTimeout ?? DEFAULT_READY_TIMEOUT;
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError(`${caller}: \`readyTimeout\` must be a positive number of milliseconds`);
  return timeout;
}

/** What `/readyz` answers for: the default, or the caller's when it is one of the modes. */
export function readinessModeOf(readiness: ReadinessMode | undefined, caller: string): ReadinessMode {
  const mode = readiness ?? DEFAULT_READINESS;
  if (!READINESS_MODES.includes(mode)) throw new TypeError(`${caller}: \`readiness\` must be one of ${READINESS_MODES.map((known) => `"${known}"`).join(', ')}`);
  return mode;
}
