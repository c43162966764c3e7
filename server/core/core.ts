import { PetstoreError, VERSION_PATH } from '../../lib/index.js';
import { operationOf } from './routes.js';
import type { HeaderList, Petstore } from '../../lib/index.js';
import type { OperationName } from './routes.js';
import { createKeyring } from './api-keys.js';
import type { ApiKeys, Keyring } from './api-keys.js';
import { UNAUTHORIZED_RESPONSES } from './auth.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { createCors, isAllowedOrigin, preflightHeaders } from './cors.js';
import type { Cors, CorsOrigins } from './cors.js';
import { errorResponse, isLoggedError, logToConsole } from './error-response.js';
import { errorEntry } from './log.js';
import type { Logger } from './log.js';
import { createOperations } from './operations.js';
import type { OperationCall } from './operations.js';
import { DEFAULT_READY_TIMEOUT } from './readiness.js';
import { headerOf, originForm } from './request.js';
import type { CoreRequest } from './request.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { emptyResponse, withoutBody } from './response.js';
import type { BareResponse, CoreResponse } from './response.js';
import { createRouter } from './router.js';
import type { RouteMatch } from './router.js';

/** Default path prefix of the API [spec 1: both base addresses end in `/v1`]. */
export const DEFAULT_BASE_PATH = VERSION_PATH;

/** Options of the request core, shared by every adapter. */
export interface RequestCoreOptions {
  /** The engine to serve. */
  store: Petstore;
  /**
   * Accepted bearer tokens: a list (at least one; two during a key rotation), or a function asked on
   * every authenticated request, which returns a new array to change them (see `ApiKeys`).
   */
  apiKeys: ApiKeys;
  /** Path prefix of the API; `''` when a host framework already strips its mount prefix. Default `/v1`. */
  basePath?: string;
  /** Largest request body in bytes. Default 65536. */
  bodyLimit?: number;
  /**
   * Receives structured events: the detail of each 500 (`error`) and the cause of each storage
   * failure answered 503 (`warn`), with the request's id; a key list from the `apiKeys` function
   * that cannot be used (`warn`). Given, it takes the place of `logError`.
   */
  log?: Logger;
  /** Receives unexpected errors (answered as 500) and the causes of storage failures (503) when `log` is not given. Default: the console. */
  logError?: (error: unknown) => void;
  /** How many pets' JSON texts are kept for reuse (about 100 bytes each). Default 50000. */
  jsonCacheSize?: number;
  /** Browser origins allowed to call the interface (CORS), or `'*'` for any. Default: none, and no CORS header is sent. */
  corsOrigins?: CorsOrigins;
  /** The standalone server's own routes (`/healthz`, `/readyz`, `/metrics`); none is answered when absent. */
  serverRoutes?: ServerRoutes;
}

/** What the standalone server's own routes need from the server. */
export interface ServerRoutes {
  /** Whether shutdown has begun: `/readyz` then answers 503 at once. */
  isClosing: () => boolean;
  /** Time the storage gets to answer `/readyz` (ms). Default 2000. */
  readyTimeout?: number;
  /** The text `/metrics` answers; without it `/metrics` is not served (a 404 like any unknown path). */
  metricsText?: () => string;
}

/** The HTTP semantics of the interface as a function of a plain request: what every adapter calls. */
export interface RequestCore {
  /** Whether a request target is this core's to answer: below the base path, or one of the server's routes it serves. */
  isOwnTarget(target: string): boolean;
  /** The answer to a request; synchronous when the request's head alone decides it. Never rejects. */
  handle(request: CoreRequest): CoreResponse | Promise<CoreResponse>;
  /** Puts `keys` in force from the next request on; a TypeError naming `caller` for an unusable list, which keeps the old keys. */
  setApiKeys(keys: readonly string[], caller: string): void;
}

/** Checks the options every adapter shares, with the message naming the adapter's own function. */
function checkOptions(caller: string, basePath: string, bodyLimit: number, readyTimeout: number): void {
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/'))) {
    throw new TypeError(`${caller}: \`basePath\` must be empty or start with "/" and not end with "/"`);
  }
  if (!(Number.isSafeInteger(bodyLimit) && bodyLimit > 0)) throw new TypeError(`${caller}: \`bodyLimit\` must be a positive integer`);
  if (!(Number.isFinite(readyTimeout) && readyTimeout > 0)) throw new TypeError(`${caller}: \`readyTimeout\` must be a positive number of milliseconds`);
}

/** A request target split into its path and query string. */
function splitTarget(target: string): { path: string; query: string } {
  const url = originForm(target);
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? { path: url, query: '' } : { path: url.slice(0, queryStart), query: url.slice(queryStart + 1) };
}

/** What answering a request needs, built once per core. */
interface CoreContext {
  readonly basePath: string;
  /** Logs an error whose detail the client never sees, with the id of the request it failed. */
  readonly report: (error: unknown, requestId: string) => void;
  readonly keyring: Keyring;
  readonly operations: ReturnType<typeof createOperations>;
  readonly matchApi: (path: string) => RouteMatch | undefined;
  readonly matchServer: (path: string) => RouteMatch | undefined;
  readonly cors: Cors | undefined;
}

/** What every answer to one request carries: its id, the CORS headers for its origin, and whether it is a HEAD. */
interface Stamp {
  readonly requestId: string;
  readonly cors: HeaderList | undefined;
  readonly isHead: boolean;
}

const IGNORE = (): void => undefined;

/**
 * The core's answer: the response with the request's id (and CORS headers), and the operation that
 * gave it. Spread, not `concat`: on every answer, and measured several times faster.
 */
function finish(response: BareResponse, stamp: Stamp, operation: OperationName | undefined): CoreResponse {
  const { requestId, cors } = stamp;
  const headers = cors === undefined ? [...response.headers, REQUEST_ID_HEADER, requestId] : [...response.headers, ...cors, REQUEST_ID_HEADER, requestId];
  return { status: response.status, headers, body: response.body, requestId, operation };
}

/** The Error answer for anything thrown; the detail of a 500 or a storage failure goes to the log with the request's id. */
function fail(context: CoreContext, stamp: Stamp, error: unknown, headers?: HeaderList, operation?: OperationName): CoreResponse {
  if (isLoggedError(error)) context.report(error, stamp.requestId);
  const options = { isHead: stamp.isHead, logError: IGNORE };
  return finish(errorResponse(error, headers === undefined ? options : { ...options, headers }), stamp, operation);
}

function notAllowed(context: CoreContext, stamp: Stamp, method: string, match: RouteMatch): CoreResponse {
  return fail(context, stamp, new PetstoreError('method_not_allowed', `${method} is not allowed here; allowed: ${match.allow}`, { headers: ['Allow', match.allow] }));
}

/** The Error answer of an operation that failed, with the operation's own headers (getPet's deprecation). */
function operationFailed(context: CoreContext, stamp: Stamp, error: unknown, name: OperationName, call: OperationCall): CoreResponse {
  return fail(context, stamp, error, context.operations[name].headers?.(call.publicBase), name);
}

/** Runs an operation; whatever it throws becomes the Error answer. No closure is made for an answer given at once. */
function run(context: CoreContext, stamp: Stamp, name: OperationName, call: OperationCall): CoreResponse | Promise<CoreResponse> {
  let response: BareResponse | Promise<BareResponse>;
  try {
    response = context.operations[name].run(call);
  } catch (error) {
    return operationFailed(context, stamp, error, name, call);
  }
  if (!(response instanceof Promise)) return finish(response, stamp, name);
  return response.then((settled) => finish(settled, stamp, name), (error: unknown) => operationFailed(context, stamp, error, name, call));
}

/** The prefix clients see: a host framework's mount path, then the base path. */
function publicBase(context: CoreContext, request: CoreRequest): string {
  return request.mountPath === undefined || request.mountPath === '' ? context.basePath : request.mountPath + context.basePath;
}

/** OPTIONS on a known path: `Allow`, and for a CORS preflight from an allowed origin, what the browser asks for. */
function optionsResponse(stamp: Stamp, request: CoreRequest, match: RouteMatch): BareResponse {
  const isPreflight = isAllowedOrigin(stamp.cors) && headerOf(request.headers, 'access-control-request-method') !== undefined;
  return emptyResponse(204, isPreflight ? ['Allow', match.allow, ...preflightHeaders(match.allow)] : ['Allow', match.allow]);
}

/** A request below the base path: OPTIONS → auth (401) → path (404) → method (405) → the operation. */
function answerApi(context: CoreContext, stamp: Stamp, request: CoreRequest, path: string, query: string): CoreResponse | Promise<CoreResponse> {
  const { method } = request;
  const match = context.matchApi(path.slice(context.basePath.length));
  // Answered without a key: the allowed methods of a public interface reveal nothing, and a CORS preflight never carries one.
  if (method === 'OPTIONS' && match !== undefined) return finish(optionsResponse(stamp, request, match), stamp, undefined);
  const operationName = match === undefined ? undefined : operationOf(match.route, method);
  if (!(match?.route.isPublic === true && operationName !== undefined)) {
    const verdict = context.keyring.authenticate(headerOf(request.headers, 'authorization'));
    if (verdict !== 'accepted') return finish(stamp.isHead ? withoutBody(UNAUTHORIZED_RESPONSES[verdict]) : UNAUTHORIZED_RESPONSES[verdict], stamp, undefined);
  }
  if (match === undefined) return fail(context, stamp, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}`));
  if (operationName === undefined) return notAllowed(context, stamp, method, match);
  return run(context, stamp, operationName, { request, parameter: match.parameter, query, publicBase: publicBase(context, request), isHead: stamp.isHead });
}

/** RFC 9110 §7.2: uri-host (a bracketed IP literal or a reg-name) and an optional port; a comma means fields were joined. */
const VALID_HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+;=%-]*)(:[0-9]*)?$/;

/**
 * What is wrong with a request's Host, if anything: RFC 9112 §3.2 makes an HTTP/1.1 request without
 * one, with more than one, or with an invalid one a 400, before anything else is looked at.
 */
function hostProblemOf(host: string | undefined, httpVersion: string | undefined): string | undefined {
  if (host === undefined) return httpVersion === '1.1' ? 'An HTTP/1.1 request must carry a Host header' : undefined;
  if (VALID_HOST.test(host)) return undefined;
  return `A request must carry exactly one Host header, holding a host name or address and an optional port, not ${JSON.stringify(host.slice(0, 100))}`;
}

/** Route scope → Host (400) → the API, or the standalone server's own routes, which need neither Host nor key. */
function answer(context: CoreContext, stamp: Stamp, request: CoreRequest): CoreResponse | Promise<CoreResponse> {
  const { path, query } = splitTarget(request.target);
  const serverMatch = context.matchServer(path);
  if (serverMatch !== undefined) {
    const operationName = operationOf(serverMatch.route, request.method);
    if (operationName === undefined) return notAllowed(context, stamp, request.method, serverMatch);
    return run(context, stamp, operationName, { request, parameter: serverMatch.parameter, query, publicBase: context.basePath, isHead: stamp.isHead });
  }
  const hostProblem = hostProblemOf(headerOf(request.headers, 'host'), request.httpVersion);
  if (hostProblem !== undefined) return fail(context, stamp, new PetstoreError('bad_request', hostProblem));
  if (!isBelow(context.basePath, path)) {
    return fail(context, stamp, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}; the API lives under ${context.basePath}`));
  }
  return answerApi(context, stamp, request, path, query);
}

/** Whether a path lies below the base path (the base path itself included). */
function isBelow(basePath: string, path: string): boolean {
  return path.startsWith(basePath) && (path.length === basePath.length || path.charCodeAt(basePath.length) === 47);
}

/** How errors whose detail the client never sees reach the operator: `log` as structured events, else `logError`. */
function reporterOf(options: RequestCoreOptions): (error: unknown, requestId: string) => void {
  const { log } = options;
  if (log !== undefined) return (error, requestId) => log(errorEntry(error, requestId));
  const logError = options.logError ?? logToConsole;
  return (error) => logError(error);
}

/** The standalone server's routes this core serves: none without `serverRoutes`, and `/metrics` only with its text. */
function serverRouter(serverRoutes: ServerRoutes | undefined): (path: string) => RouteMatch | undefined {
  if (serverRoutes === undefined) return () => undefined;
  return createRouter('server', (route) => route.operations.GET !== 'getMetrics' || serverRoutes.metricsText !== undefined);
}

/** The id and CORS headers of a request's answers. */
function stampOf(context: CoreContext, request: CoreRequest): Stamp {
  const cors = context.cors === undefined ? undefined : context.cors.headersFor(headerOf(request.headers, 'origin'));
  return { requestId: requestIdOf(request.headers), cors, isHead: request.method === 'HEAD' };
}

/**
 * Creates the request core [spec 4, 5, 7]. Checks run in the order route scope → Host (400) → auth
 * (401) → path (404) → method (405) → media type (415) → size (413) → JSON (400) → schema (400), so
 * an unauthenticated request learns nothing, a client sees its most fundamental problem first, and
 * a request refused on its head never has its body read. Every answer carries `X-Request-Id`: the
 * request's own when it sent a valid one, otherwise a new one.
 */
export function createRequestCore(options: RequestCoreOptions, caller = 'createRequestCore'): RequestCore {
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const { serverRoutes } = options;
  const readiness = { isClosing: serverRoutes?.isClosing ?? (() => false), timeout: serverRoutes?.readyTimeout ?? DEFAULT_READY_TIMEOUT };
  checkOptions(caller, basePath, bodyLimit, readiness.timeout);
  const context: CoreContext = {
    basePath,
    report: reporterOf(options),
    keyring: createKeyring(caller, options.apiKeys, options.log),
    operations: createOperations({ store: options.store, basePath, bodyLimit, jsonCacheSize: options.jsonCacheSize, readiness, metricsText: serverRoutes?.metricsText }),
    matchApi: createRouter('api'),
    matchServer: serverRouter(serverRoutes),
    cors: options.corsOrigins === undefined ? undefined : createCors(caller, options.corsOrigins),
  };
  return {
    isOwnTarget: (target) => {
      const { path } = splitTarget(target);
      return isBelow(basePath, path) || context.matchServer(path) !== undefined;
    },
    handle: (request) => {
      const stamp = stampOf(context, request);
      try {
        return answer(context, stamp, request);
      } catch (error) {
        return fail(context, stamp, error);
      }
    },
    setApiKeys: (keys, setCaller) => context.keyring.replace(keys, setCaller),
  };
}
