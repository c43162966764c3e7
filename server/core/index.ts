// What the doors (server/node, server/fetch, server/testing) take from the request core; not a package entry point.
export { createRequestCore, DEFAULT_BASE_PATH } from './core.js';
export type { ExtraRoute, RequestCore, RequestCoreOptions } from './core.js';
export type { ApiKeys } from './api-keys.js';
export { authError, createAuthenticator, isToken68, TOKEN68_RULE } from './auth.js';
export type { AuthVerdict } from './auth.js';
export { readJsonBody } from './body.js';
export type { JsonBodyOptions } from './body.js';
export type { CorsOrigins } from './cors.js';
export { errorResponse, logToConsole, UNAVAILABLE_RETRY_AFTER } from './error-response.js';
export { HttpError } from './http-error.js';
export type { HttpErrorOptions } from './http-error.js';
export { describeError, STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG } from './log.js';
export type { LogEntry, Logger, LogLevel } from './log.js';
export { BodyAbortedError, bodyOf, NO_BODY } from './request.js';
export type { CoreRequest, RequestBody, RequestHeaders } from './request.js';
export { newRequestId, REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
export { jsonResponse } from './response.js';
export type { BareResponse, CoreResponse, HeaderList } from './response.js';
