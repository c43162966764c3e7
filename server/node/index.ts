// The interface on node:http: a request listener to mount, the standalone server, and its metrics.

/** A node:http request listener serving the interface below its base path, its options, and the listener (`next` receives requests outside the base path). */
export { createHandler, type HandlerOptions, type PetstoreHandler } from './handler.js';
/**
 * Starts the standalone server (the interface on node:http with timeouts, graceful shutdown and
 * plug-ins); its options, timeouts in milliseconds, the listening server and the options of its close.
 */
export { startServer, type StartServerOptions, type ServerTimeouts, type RunningServer, type CloseOptions } from './standalone/start-server.js';
/** What the standalone server's connections may hold at once, and who is told of a refusal. */
export type { ConnectionBudget } from './standalone/connection-budget.js';
/** A plug-in of the standalone server (routes, and an observer of every request), and what it learns of one request and how it begins. */
export type { ServerPlugin, ServerPluginContext, ServerPluginParts, Observation, RequestObserver } from './standalone/server-plugin.js';
/** Something added to a core beside the interface (the docs site, say): what it is told, and what it adds. */
export type { Plugin, PluginContext, PluginParts } from '../core/index.js';
/** A route a host or plug-in serves beside the interface: below the base path, or at an exact path from the root. */
export type { ExtraRoute, Operation, OperationCall, RootRoute, Route } from '../core/index.js';
/** Accepted bearer tokens (a list, or a function asked on every request), and browser origins allowed to call the interface, or `'*'`. */
export type { ApiKeys, CorsOrigins } from '../core/index.js';
/** One structured log event, what receives them, and its level. */
export type { LogEntry, Logger, LogLevel } from '../core/index.js';
/** Checks an `Authorization` header against keys, for routes of a service's own (see examples/quickstart-messages.ts), and what it decides. */
export { createAuthenticator, type AuthVerdict } from '../core/index.js';
/** The 401 HttpError for a missing or invalid key, with its challenge; the fewest characters a key may have, and the check of one key. */
export { authError, MIN_API_KEY_LENGTH, apiKeyFault } from '../core/index.js';
/** Reads a JSON request body under a limit, or answers the Error itself; what it gives: the body, or that it has answered. */
export { readJsonBodyOrAnswer, type BodyReading } from './body.js';
/** Options of reading a JSON body: its limit, and the action its messages name. */
export type { JsonBodyOptions } from '../core/index.js';
/** A host JSON parser's refusal of a body answered as the bare handler answers those bytes: Express's error handler, and Koa's middleware. */
export { koaParserErrors, parserErrorHandler, type ParserErrorHandler } from './parser-errors.js';
/** Answers a thrown value as the Error body, its options, and JSON text with the interface's JSON headers. */
export { sendError, type SendErrorOptions, sendJson } from './responses.js';
/** A PetstoreError with the headers of its answer (an `Allow`, a challenge), as sendError sends them, and its options. */
export { HttpError, type HttpErrorOptions } from '../core/index.js';
/** Response headers as a flat `[name, value, …]` list. */
export type { HeaderList } from '../core/index.js';
