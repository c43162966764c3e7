// petstore-reference/core: what a plug-in or a door is written with: the request core, its plain request and answer, the route table, the response helpers.

/** The request core (a plain request in, a plain answer out), its options, what a plug-in is told and adds, and a route at an exact path from the root. */
export { createRequestCore, DEFAULT_BASE_PATH, type RequestCore, type RequestCoreOptions } from './core.js';
export type { ExtraRoute, RootRoute, Plugin, PluginContext, PluginParts } from './core.js';
/** The interface's route table, the methods a route allows, and a route's parts. */
export { ROUTES } from './operations.js';
export { allowedMethods, type Operation, type OperationCall, type Route, type RouteMethod } from './router.js';
/** Accepted keys, an `Authorization` header's check and its 401, the one rule of a key (token68, RFC 9110 §11.2, 16 characters or more) and its check. */
export { apiKeyFault, authError, createAuthenticator, isToken68, MIN_API_KEY_LENGTH, TOKEN68_RULE, type ApiKeys, type AuthVerdict } from './auth.js';
/** Reads a JSON request body under a limit (65,536 bytes by default), and its options. */
export { DEFAULT_BODY_LIMIT, readJsonBody, type JsonBodyOptions } from './request.js';
/** Browser origins allowed to call the interface, or `'*'`. */
export type { CorsOrigins } from './cors.js';
/** Answers a thrown value as the Error body, the default logger, and the seconds a 503 asks a client to wait. */
export { errorResponse, logToConsole, UNAVAILABLE_RETRY_AFTER } from './error-response.js';
/** A PetstoreError with the headers of its answer, and its options. */
export { HttpError, type HttpErrorOptions } from './http-error.js';
/** The `Idempotency-Key` header as the interface reads it, and the header that marks a replay. */
export { parseIdempotencyKey, REPLAYED_HEADER } from './idempotency-key.js';
/** The log: an event, what receives them, its level, an error's detail and the messages that hide it. */
export { describeError, STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG, type LogEntry, type Logger, type LogLevel } from './log.js';
/** The order in which the core checks a request, with the clause of the interface each check stands for. */
export { ORDER_OF_CHECKS } from './order-of-checks.js';
/** The plain request: its headers and body, a header's value, the origin-form of a target, and a body's helpers. */
export { BodyAbortedError, bodyOf, headerOf, NO_BODY, originForm, type CoreRequest, type RequestBody, type RequestHeaders } from './request.js';
/** The request id: a new one, its header, and the id of a request. */
export { newRequestId, REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
/** The plain answer, its header list, and the JSON and text answers. */
export { jsonResponse, textResponse, type BareResponse, type CoreResponse, type HeaderList } from './response.js';
