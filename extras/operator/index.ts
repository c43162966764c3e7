// The operator's kit, a plug-in of the standalone server: health, readiness, Prometheus metrics and the access log.

/** The operator's kit as a plug-in: `/healthz`, `/readyz`, `/metrics` and the access log. */
export { operatorKit } from './kit.js';
/** Options of operatorKit. */
export type { OperatorKitOptions } from './kit.js';
/** Creates the Prometheus metrics the kit counts into and `/metrics` answers. */
export { createMetrics } from './metrics.js';
/** Wraps a storage so the time of each of its operations goes into the metrics. */
export { instrumentStorage } from './metrics.js';
/** Reads a storage's pool of connections into the metrics at each scrape. */
export { instrumentPool } from './metrics.js';
/** The metrics createMetrics makes. */
export type { Metrics } from './metrics.js';
