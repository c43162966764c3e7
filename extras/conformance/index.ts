// The conformance kit: checks that a server answers as the interface says, from code or the command line.

/** Runs the conformance checks against a server and resolves with one result per check. */
export { runConformance } from './run.js';
/** Options of runConformance. */
export type { ConformanceOptions } from './run.js';
/** The checks a run would make, without running them. */
export { listChecks } from './run.js';
/** Options of listChecks. */
export type { ListOptions } from './run.js';
/** The `conformance` command: parses its arguments, runs, writes the reports, and resolves with the exit code. */
export { runConformanceCommand } from './command.js';
/** Where runConformanceCommand reads and writes. */
export type { CommandIo } from './command.js';
/** Thrown by runConformance before any check when the run cannot start as set up; the three below are its kinds. */
export { SetupError } from './exchange.js';
/** Thrown by runConformance when the server cannot be reached at all. */
export { UnreachableServerError } from './exchange.js';
/** Thrown by runConformance when the server refuses the key it was given. */
export { RefusedKeyError } from './exchange.js';
/** Thrown by runConformance when what answers at the base URL is not the interface (often: the version prefix is missing). */
export { WrongBaseUrlError } from './exchange.js';
/** Checks one answer against the OpenAPI document of the interface. */
export { validateResponse } from './response-validator.js';
/** Makes a validator like validateResponse for a server under another base path. */
export { createResponseValidator } from './response-validator.js';
/** The validator createResponseValidator makes. */
export type { ResponseValidator } from './response-validator.js';
/** Options of createResponseValidator. */
export type { ResponseValidatorOptions } from './response-validator.js';
/** Headers a validator accepts: a fetch Headers object or a plain record. */
export type { HeadersInput } from './response-validator.js';
/** One way an answer departs from its schema. */
export type { Departure } from './json-schema.js';
/** Counts the results of a run by outcome. */
export { summarize } from './report.js';
/** The counts summarize gives. */
export type { Summary } from './report.js';
/** One line saying how a run went. */
export { formatSummary } from './report.js';
/** The levels a run checks at: the spec alone, or the reference implementation's decisions too. */
export { LEVELS } from './types.js';
/** One of LEVELS. */
export type { Level } from './types.js';
/** A check as listChecks describes it. */
export type { CheckInfo } from './types.js';
/** The result of one check. */
export type { CheckResult } from './types.js';
/** Whether a check passed, failed or was skipped. */
export type { Outcome } from './types.js';
/** What a failed check reports: the request, what was expected and what came. */
export type { FailureReport } from './types.js';
/** The fetch function a run calls. */
export type { ConformanceFetch } from './types.js';
/** The request ConformanceFetch is given. */
export type { ConformanceRequestInit } from './types.js';
/** The answer ConformanceFetch gives. */
export type { ConformanceResponse } from './types.js';
/** The headers of ConformanceResponse. */
export type { ConformanceHeaders } from './types.js';
/** The body stream of ConformanceResponse. */
export type { ConformanceBodyStream } from './types.js';
/** The abort signal of ConformanceRequestInit. */
export type { ConformanceSignal } from './types.js';
