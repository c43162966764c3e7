export { createHandler, DEFAULT_BASE_PATH } from './handler.js';
// Spec facts that live in lib/constants.ts, re-exported where the HTTP interface used to define them.
export { GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from '../lib/index.js';
export type { HandlerOptions, PetstoreHandler } from './handler.js';
export { createAuthenticator, authError } from './auth.js';
export type { AuthVerdict } from './auth.js';
export { bodyErrorHeaders, DEFAULT_BODY_LIMIT, isJsonMediaType, readJsonBody, readJsonBodyOrAnswer, RequestAbortedError } from './body.js';
export type { BodyReading, ReadJsonBodyOptions } from './body.js';
export { JSON_HEADERS, sendError, sendJson } from './responses.js';
export type { HeaderList, SendErrorOptions } from './responses.js';
export {
  CONNECTIONS_CHECKING_INTERVAL, HEADERS_TIMEOUT, KEEP_ALIVE_TIMEOUT, REQUEST_TIMEOUT, SHUTDOWN_DEADLINE, SHUTDOWN_IDLE_GRACE, SOCKET_TIMEOUT, startServer,
} from './start-server.js';
export type { RunningServer, ServerTimeouts, StartServerOptions } from './start-server.js';
