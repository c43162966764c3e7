export { runConformance, listChecks, DEFAULT_TIMEOUT_MS } from './run.js';
export type { ConformanceOptions, ListOptions } from './run.js';
export { runConformanceCommand } from './command.js';
export type { CommandIo } from './command.js';
export { createResponseValidator, createValidatorFor, validateResponse } from './response-validator.js';
export type { HeadersInput, ResponseValidator, ResponseValidatorOptions } from './response-validator.js';
export { validateJson, ASSERTION_KEYWORDS, ANNOTATION_KEYWORDS } from './json-schema.js';
export type { Departure, RefResolver } from './json-schema.js';
export { MAX_REQUESTS, UnreachableServerError } from './exchange.js';
export { formatList, formatResult, formatSummary, summarize, toJsonReport, toJunitXml } from './report.js';
export type { Summary } from './report.js';
export { LEVELS } from './types.js';
export type {
  CheckInfo, CheckResult, ConformanceBodyStream, ConformanceFetch, ConformanceHeaders, ConformanceRequestInit, ConformanceResponse,
  ConformanceSignal, FailureReport, Level, Outcome,
} from './types.js';
