export { createHandler } from './handler.js';
export type { HandlerOptions, PetstoreHandler } from './handler.js';
export { readJsonBody, readJsonBodyOrAnswer } from './body.js';
export type { BodyReading } from './body.js';
export { sendError, sendJson, writeResponse } from './responses.js';
export type { SendErrorOptions } from './responses.js';
export {
  CONNECTIONS_CHECKING_INTERVAL, HEADERS_TIMEOUT, KEEP_ALIVE_TIMEOUT, REQUEST_TIMEOUT, SHUTDOWN_DEADLINE, SOCKET_TIMEOUT, startServer,
} from './start-server.js';
export { SHUTDOWN_IDLE_GRACE } from './shutdown.js';
export { DEFAULT_READY_TIMEOUT } from './readiness.js';
export type { CloseOptions, RunningServer, ServerTimeouts, StartServerOptions } from './start-server.js';
export { createMetrics, instrumentStorage } from './metrics.js';
export type { Metrics, StorageOperation } from './metrics.js';
// The request core's parts a node:http service reuses for routes of its own (see examples/quickstart-messages.ts).
export {
  authError, BodyAbortedError, CORS_MAX_AGE, createAuthenticator, DEFAULT_BASE_PATH, DEFAULT_BODY_LIMIT, isJsonMediaType, JSON_HEADERS,
  REQUEST_ID_HEADER,
} from '../core/index.js';
export type { ApiKeys, AuthVerdict, BareResponse, CoreResponse, CorsOrigins, JsonBodyOptions, LogEntry, Logger, LogLevel } from '../core/index.js';
// Spec facts that live in lib/, re-exported where the HTTP interface used to define them.
export { GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from '../../lib/index.js';
export type { HeaderList } from '../../lib/index.js';
