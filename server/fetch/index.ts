// The interface as a fetch-API handler, for Deno, Bun, workers and frameworks such as hono.

/** A handler from a fetch-API Request to a Response, serving the interface below its base path. */
export { createFetchHandler } from './fetch-handler.js';
/** The handler createFetchHandler returns. */
export type { FetchHandler } from './fetch-handler.js';
/** Options of createFetchHandler. */
export type { FetchHandlerOptions } from './fetch-handler.js';
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
/** Response headers as a flat `[name, value, …]` list. */
export type { HeaderList } from '../core/index.js';
