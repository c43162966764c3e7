// The interface on node:http: a request listener to mount, the standalone server, and its metrics.

/** A node:http request listener serving the interface below its base path. */
export { createHandler } from './handler.js';
/** Options of createHandler. */
export type { HandlerOptions } from './handler.js';
/** The listener createHandler returns; `next` receives requests outside the base path. */
export type { PetstoreHandler } from './handler.js';
/** Starts the standalone server: the interface on node:http with timeouts, graceful shutdown and plug-ins. */
export { startServer } from './start-server.js';
/** Options of startServer. */
export type { StartServerOptions } from './start-server.js';
/** Overrides of the standalone server's timeouts, in milliseconds. */
export type { ServerTimeouts } from './start-server.js';
/** A listening server: its URL, and close. */
export type { RunningServer } from './start-server.js';
/** What the standalone server's connections may hold at once, and who is told of a refusal. */
export type { ConnectionBudget } from './connection-budget.js';
/** Options of RunningServer.close. */
export type { CloseOptions } from './start-server.js';
/** A plug-in of the standalone server: routes, and an observer of every request. */
export type { ServerPlugin, ServerPluginContext, ServerPluginParts } from './server-plugin.js';
/** What a plug-in of the standalone server learns of one request, and how it begins. */
export type { Observation, RequestObserver } from './server-plugin.js';
/** Something added to a core beside the interface (the docs site, say): what it is told, and what it adds. */
export type { Plugin, PluginContext, PluginParts } from '../core/index.js';
/** A route a host or plug-in serves beside the interface: below the base path, or at an exact path from the root. */
export type { ExtraRoute, Operation, OperationCall, Route } from '../core/index.js';
/** Accepted bearer tokens: a list, or a function asked on every request. */
export type { ApiKeys } from '../core/index.js';
/** Browser origins allowed to call the interface, or `'*'`. */
export type { CorsOrigins } from '../core/index.js';
/** One structured log event. */
export type { LogEntry } from '../core/index.js';
/** Receives structured log events. */
export type { Logger } from '../core/index.js';
/** The level of a log event. */
export type { LogLevel } from '../core/index.js';
/** Checks an `Authorization` header against keys, for routes of a service's own (see examples/quickstart-messages.ts). */
export { createAuthenticator } from '../core/index.js';
/** What createAuthenticator's check decides: accepted, missing or invalid. */
export type { AuthVerdict } from '../core/index.js';
/** The 401 HttpError for a missing or invalid key, with its challenge. */
export { authError } from '../core/index.js';
/** Reads a JSON request body under a limit, or answers the Error itself. */
export { readJsonBodyOrAnswer } from './body.js';
/** What readJsonBodyOrAnswer gives: the body, or that it has answered. */
export type { BodyReading } from './body.js';
/** Options of reading a JSON body: its limit, and the action its messages name. */
export type { JsonBodyOptions } from '../core/index.js';
/** A host JSON parser's refusal of a body (Express's error handler, Koa's middleware) answered as the bare handler answers the body. */
export { koaParserErrors, parserErrorHandler } from './parser-errors.js';
/** What the parser-error handlers are: Express's error handler, and the Koa context they need. */
export type { KoaContextLike, ParserErrorHandler } from './parser-errors.js';
/** Answers a thrown value as the Error body. */
export { sendError } from './responses.js';
/** Options of sendError. */
export type { SendErrorOptions } from './responses.js';
/** Answers JSON text with the interface's JSON headers. */
export { sendJson } from './responses.js';
/** A PetstoreError with the headers of its answer (an `Allow`, a challenge), as sendError sends them. */
export { HttpError } from '../core/index.js';
/** Options of HttpError. */
export type { HttpErrorOptions } from '../core/index.js';
/** Response headers as a flat `[name, value, …]` list. */
export type { HeaderList } from '../core/index.js';
