export { createFetchHandler } from './fetch-handler.js';
export type { FetchHandler, FetchHandlerOptions } from './fetch-handler.js';
export type { ApiKeys, CorsOrigins, LogEntry, Logger, LogLevel } from '../core/index.js';
