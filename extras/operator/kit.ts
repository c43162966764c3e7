import type { ServerPlugin } from '../../server/node/index.js';
import { requestMetricsOf } from './metrics.js';
import type { Metrics } from './metrics.js';
import { createRequestObserver } from './request-observer.js';
import type { ReadinessMode } from './readiness.js';
import { createServerRoutes, readinessModeOf, readyTimeoutOf } from './server-routes.js';

/** Options of operatorKit. */
export interface OperatorKitOptions {
  /** Receives one JSON line per request, with the id its answer carried, when given; off by default. */
  accessLog?: (line: string) => void;
  /**
   * Metrics from `createMetrics()`: requests are counted and timed into them, and `GET /metrics`
   * answers them without a key (they hold no pet and no key). Off by default, and `/metrics` is then a 404 that says how to turn them on.
   */
  metrics?: Metrics;
  /** Time the storage gets to answer `/readyz` before it answers 503 (ms). Default 2000. */
  readyTimeout?: number;
  /** What `/readyz` answers for: the process and its storage (`storage`), or the process alone (`process`). Default `storage`. */
  readiness?: ReadinessMode;
}

/**
 * The operator's kit as a plug-in of the standalone server: `/healthz`, `/readyz` (503 once shutdown
 * has begun, so a balancer stops sending), and with `metrics` `/metrics`, each without a key; and
 * with `accessLog` or `metrics`, an observer of every request. Add it with
 * `startServer({ ..., plugins: [operatorKit({ metrics })] })`; the standalone server does.
 */
export function operatorKit(options: OperatorKitOptions = {}): ServerPlugin {
  const { metrics } = options;
  const requestMetrics = metrics === undefined ? undefined : requestMetricsOf(metrics, 'operatorKit');
  // Checked here, so a wrong option is refused where it was given rather than at the server's start.
  readyTimeoutOf(options.readyTimeout, 'operatorKit');
  readinessModeOf(options.readiness, 'operatorKit');
  return (context) => {
    const observe = createRequestObserver(options.accessLog, requestMetrics, context.requestIdOf);
    return {
      rootRoutes: createServerRoutes({ ...options, store: context.store, isClosing: context.isClosing }, 'operatorKit'),
      ...(observe === undefined ? {} : { observe }),
    };
  };
}
