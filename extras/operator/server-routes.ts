import { jsonResponse, textResponse } from '../../server/core/response.js';
import type { BareResponse } from '../../server/core/response.js';
import type { ExtraRoute } from '../../server/core/core.js';
import type { Petstore } from '../../lib/index.js';
import type { Metrics } from './metrics.js';
import { checkReadiness, DEFAULT_READINESS, DEFAULT_READY_TIMEOUT, READINESS_MODES } from './readiness.js';
import type { ReadinessMode } from './readiness.js';

/** Media type of the Prometheus text exposition format 0.0.4. */
export const PROMETHEUS_TEXT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const HEALTHY = JSON.stringify({ status: 'ok' });
const READY = JSON.stringify({ status: 'ready' });

/** What the standalone server's own routes need from the server. */
export interface ServerRoutesOptions {
  store: Petstore;
  /** The API's base path: where `GET /` sends a browser (to its reference page). */
  basePath: string;
  /** Whether shutdown has begun: `/readyz` then answers 503 at once. */
  isClosing: () => boolean;
  /** Time the storage gets to answer `/readyz` (ms). Default 2000. */
  readyTimeout?: number;
  /** What `/readyz` answers for: the process and its storage (`storage`), or the process alone (`process`). Default `storage`. */
  readiness?: ReadinessMode;
  /** Metrics to answer at `/metrics`; without them `/metrics` is not served (a 404 like any unknown path). */
  metrics?: Metrics;
}

/**
 * `GET /`: a 302 to the reference page, so a browser pointed at the server lands on it; temporary,
 * as the root may one day serve something else. The short text says the same to a client that does
 * not follow redirects.
 */
function redirectToReferencePage(basePath: string): BareResponse {
  const location = `${basePath}/docs`;
  const text = textResponse(302, `The reference page of this server is at ${location}\n`, 'text/plain; charset=utf-8');
  return { ...text, headers: ['Location', location, ...text.headers] };
}

/**
 * The standalone server's own routes, outside the interface and answered without a key: liveness
 * (`/healthz`), readiness (`/readyz`: shutdown has not begun and, unless `readiness` is `process`,
 * the storage answers; it reveals no pet and no key), Prometheus metrics when on (`/metrics`: without a key, since a scraper's key could
 * create pets), and `/`, which sends a browser to the reference page.
 */
export function createServerRoutes(options: ServerRoutesOptions, caller: string): ExtraRoute[] {
  const { store, metrics } = options;
  const readiness = { isClosing: options.isClosing, timeout: options.readyTimeout ?? DEFAULT_READY_TIMEOUT, mode: options.readiness ?? DEFAULT_READINESS };
  if (!(Number.isFinite(readiness.timeout) && readiness.timeout > 0)) throw new TypeError(`${caller}: \`readyTimeout\` must be a positive number of milliseconds`);
  if (!READINESS_MODES.includes(readiness.mode)) throw new TypeError(`${caller}: \`readiness\` must be one of ${READINESS_MODES.map((mode) => `"${mode}"`).join(', ')}`);
  const healthy = jsonResponse(200, HEALTHY);
  const redirect = redirectToReferencePage(options.basePath);
  const routes: ExtraRoute[] = [
    { path: '/healthz', operation: 'checkHealth', answer: () => healthy },
    {
      path: '/readyz',
      operation: 'checkReadiness',
      answer: async () => {
        await checkReadiness(store, readiness);
        return jsonResponse(200, READY);
      },
    },
    { path: '/', operation: 'redirectToReferencePage', answer: () => redirect },
  ];
  if (metrics !== undefined) routes.push({ path: '/metrics', operation: 'getMetrics', answer: () => textResponse(200, metrics.render(), PROMETHEUS_TEXT_TYPE) });
  return routes;
}
