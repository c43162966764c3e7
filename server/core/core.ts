import { PetstoreError, VERSION_PATH } from '../../lib/index.js';
import type { Petstore } from '../../lib/index.js';
import { createKeyring, UNAUTHORIZED_RESPONSES } from './auth.js';
import type { ApiKeys, Keyring } from './auth.js';
import { createCors, isAllowedOrigin, preflightHeaders } from './cors.js';
import type { Cors, CorsOrigins } from './cors.js';
import { errorResponse, isLoggedError, logToConsole } from './error-response.js';
import { HttpError } from './http-error.js';
import { errorEntry } from './log.js';
import type { Logger } from './log.js';
import { createInterfaceState, ROUTES } from './operations.js';
import { createRouter, operationOf } from './router.js';
import type { InterfaceState, Operation, OperationCall, Route, RouteMatch } from './router.js';
import { DEFAULT_BODY_LIMIT, headerOf, originForm } from './request.js';
import type { CoreRequest, RequestHeaders } from './request.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { emptyResponse, NO_HEADERS } from './response.js';
import type { BareResponse, CoreResponse, HeaderList } from './response.js';

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
  /** Routes the host serves beside the interface, at exact paths from the root (a health check, say), answered before its checks. Default none. */
  rootRoutes?: readonly RootRoute[];
  /** @deprecated The name of `rootRoutes` before 4.0.0, still served after them. */ extraRoutes?: readonly RootRoute[];
  /** Plug-ins that add routes beside the interface: the docs site (`docsSite()`), the operator's kit, a service's own. Default none. */
  plugins?: readonly Plugin[];
}

/**
 * A route a host serves beside the interface, at an exact path from its server's root (the
 * standalone server's `/healthz`, say): answered to GET and HEAD, without a key and without the
 * interface's checks, before them.
 */
export interface RootRoute {
  /** The exact path, e.g. `/healthz`. */
  readonly path: string;
  /** What the answers of this route are called in the access log and metrics, e.g. `checkHealth`. */
  readonly operation: string;
  /** The answer to a GET; a HEAD gets the same without the body. */
  answer(request: CoreRequest): BareResponse | Promise<BareResponse>;
}

/** @deprecated The name of RootRoute before 4.0.0. */ export type ExtraRoute = RootRoute;
/** Something added to a core beside the interface, built once per core from what it is told of that core. */
export type Plugin = (context: PluginContext) => PluginParts;

/** What a plug-in learns of the core it joins. */
export interface PluginContext {
  readonly store: Petstore;
  /** The API's base path, below which its `routes` are served. */
  readonly basePath: string;
  readonly bodyLimit: number;
  /** The id the core gives a request with these headers (its own when valid and not a key): for a request a plug-in sees that the core never answered. */
  requestIdOf(headers: RequestHeaders): string;
}

/** What a plug-in adds: routes below the base path, after the interface's own, and routes at exact paths from the root. */
export interface PluginParts {
  /** Matched after the interface's routes, with the same checks: OPTIONS, the key unless `isPublic`, 405 with `Allow`. */
  readonly routes?: readonly Route[];
  readonly rootRoutes?: readonly RootRoute[];
  /** @deprecated The first name of `rootRoutes`. */ readonly extraRoutes?: readonly RootRoute[];
}

/** The HTTP semantics of the interface as a function of a plain request: what every adapter calls. */
export interface RequestCore {
  /** Whether a request target is this core's to answer: below the base path, or one of its root routes. */
  isOwnTarget(target: string): boolean;
  /** The answer to a request; synchronous when the request's head alone decides it. Never rejects. */
  handle(request: CoreRequest): CoreResponse | Promise<CoreResponse>;
  /** The id of a request answered without the core (a 417, a refused pipeline), as `handle` would stamp it: never an API key. */
  requestIdOf(headers: RequestHeaders): string;
}

/**
 * Creates the request core [spec 4, 5, 7], checks in the order `answer` states. Every answer
 * carries `X-Request-Id`: the request's own when it sent a valid one, otherwise a new one.
 */
export function createRequestCore(options: RequestCoreOptions, caller = 'createRequestCore'): RequestCore {
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  checkOptions(caller, basePath, bodyLimit);
  const { store } = options;
  const keyring = createKeyring(caller, options.apiKeys, options.log);
  const idOf = (headers: RequestHeaders): string => requestIdOf(headers, keyring.holdsKey);
  const plugged = (options.plugins ?? []).map((plugin) => plugin({ store, basePath, bodyLimit, requestIdOf: idOf }));
  const rootRoutes = [options, ...plugged].flatMap((parts) => [...(parts.rootRoutes ?? []), ...(parts.extraRoutes ?? [])]);
  const context: CoreContext = {
    basePath,
    report: reporterOf(options),
    keyring,
    state: { ...createInterfaceState(store, bodyLimit, options.jsonCacheSize), holdsKey: keyring.holdsKey },
    matchApi: createRouter([...ROUTES, ...plugged.flatMap((parts) => parts.routes ?? [])]),
    rootRoutes: new Map(rootRoutes.map((route) => [route.path, route])),
    cors: options.corsOrigins === undefined ? undefined : createCors(caller, options.corsOrigins),
  };
  return {
    isOwnTarget: (target) => {
      const { path } = splitTarget(target);
      return isBelow(basePath, path) || context.rootRoutes.has(path);
    },
    handle: (request) => {
      const stamp = stampOf(context, request);
      try {
        return answer(context, stamp, request);
      } catch (error) {
        return fail(context, stamp, error);
      }
    },
    requestIdOf: idOf,
  };
}

/** Answers a request, checking it in the order `ORDER_OF_CHECKS` (order-of-checks.ts) states. */
function answer(context: CoreContext, stamp: Stamp, request: CoreRequest): CoreResponse | Promise<CoreResponse> {
  const { path, query } = splitTarget(request.target);
  const rootRoute = context.rootRoutes.get(path);
  if (rootRoute !== undefined) return answerRoot(context, stamp, request, rootRoute);
  const hostProblem = hostProblemOf(headerOf(request.headers, 'host'), request.httpVersion);
  if (hostProblem !== undefined) return fail(context, stamp, new PetstoreError('bad_request', hostProblem));
  if (!isBelow(context.basePath, path)) {
    const where = `There is no resource at ${JSON.stringify(path.slice(0, 200))}`;
    return fail(context, stamp, new PetstoreError('not_found', `${where}; the API lives under ${context.basePath}`));
  }
  return answerApi(context, stamp, request, path, query);
}

/** A root route of the host or a plug-in: GET and HEAD only, each answered as it says. */
function answerRoot(context: CoreContext, stamp: Stamp, request: CoreRequest, route: RootRoute): CoreResponse | Promise<CoreResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return notAllowed(context, stamp, request.method, ROOT_ROUTE_ALLOW);
  return settle(context, stamp, route.operation, () => route.answer(request));
}

const ROOT_ROUTE_ALLOW = 'GET, HEAD';

/** A request below the base path: OPTIONS → auth (401) → path (404) → method (405) → the operation. */
function answerApi(context: CoreContext, stamp: Stamp, request: CoreRequest, path: string, query: string): CoreResponse | Promise<CoreResponse> {
  const { method } = request;
  const match = context.matchApi(path.slice(context.basePath.length));
  // Answered without a key: the allowed methods of a public interface reveal nothing, and a CORS preflight never carries one.
  if (method === 'OPTIONS' && match !== undefined) return finish(optionsResponse(stamp, request, match), stamp, undefined);
  const operation = match === undefined ? undefined : operationOf(match.route, method);
  if (!(match?.route.isPublic === true && operation !== undefined)) {
    const verdict = context.keyring.authenticate(headerOf(request.headers, 'authorization'));
    if (verdict !== 'accepted') return finish(UNAUTHORIZED_RESPONSES[verdict], stamp, undefined);
  }
  if (match === undefined) return fail(context, stamp, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}`));
  if (operation === undefined) return notAllowed(context, stamp, method, match.allow);
  const call = { request, parameter: match.parameter, query, publicBase: publicBase(context, request), state: context.state };
  return run(context, stamp, operation, call);
}

/** OPTIONS on a known path: `Allow`, and for a CORS preflight from an allowed origin, what the browser asks for. */
function optionsResponse(stamp: Stamp, request: CoreRequest, match: RouteMatch): BareResponse {
  const isPreflight = isAllowedOrigin(stamp.cors) && headerOf(request.headers, 'access-control-request-method') !== undefined;
  return emptyResponse(204, isPreflight ? ['Allow', match.allow, ...preflightHeaders(match.allow)] : ['Allow', match.allow]);
}

/** The prefix clients see: a host framework's mount path, then the base path. */
function publicBase(context: CoreContext, request: CoreRequest): string {
  return request.mountPath === undefined || request.mountPath === '' ? context.basePath : request.mountPath + context.basePath;
}

/** Runs one of the interface's operations with its own headers on every answer. */
function run(context: CoreContext, stamp: Stamp, operation: Operation, call: OperationCall): CoreResponse | Promise<CoreResponse> {
  return settle(context, stamp, operation.name, () => operation.run(call), operation.headers?.(call.publicBase));
}

/** Runs an answer that may throw or reject; either becomes the Error answer. No closure is made for an answer given at once. */
function settle(
  context: CoreContext, stamp: Stamp, operation: string, answer: () => BareResponse | Promise<BareResponse>, ownHeaders?: HeaderList,
): CoreResponse | Promise<CoreResponse> {
  let response: BareResponse | Promise<BareResponse>;
  try {
    response = answer();
  } catch (error) {
    return fail(context, stamp, error, operation, ownHeaders);
  }
  if (!(response instanceof Promise)) return finish(response, stamp, operation, ownHeaders);
  return response.then((settled) => finish(settled, stamp, operation, ownHeaders), (error: unknown) => fail(context, stamp, error, operation, ownHeaders));
}

/**
 * The one place an answer is finished: the operation's own headers (getPet's deprecation, on
 * success and failure alike), the CORS headers, the request's id, and no body for a HEAD
 * [RFC 9110 §9.3.2]. Every finished answer is one literal with the same fields in the same order:
 * an object spread of the answer here cost Node 20 about 6 µs per request over a socket, a quarter
 * of the server's rate on every route (Node 26 not measurably).
 */
function finish(response: BareResponse, stamp: Stamp, operation: string | undefined, ownHeaders?: HeaderList): CoreResponse {
  const { requestId } = stamp;
  return {
    status: response.status,
    // Spread, not `concat`: several times faster on these short lists.
    headers: [...response.headers, ...(ownHeaders ?? NO_HEADERS), ...(stamp.cors ?? NO_HEADERS), REQUEST_ID_HEADER, requestId],
    body: stamp.isHead ? '' : response.body,
    closesConnection: response.closesConnection,
    requestId,
    operation,
  };
}

/** The Error answer for anything thrown; the one place that decides whether its detail goes to the log. */
function fail(context: CoreContext, stamp: Stamp, error: unknown, operation?: string, ownHeaders?: HeaderList): CoreResponse {
  if (isLoggedError(error)) context.report(error, stamp.requestId);
  return finish(errorResponse(error), stamp, operation, ownHeaders);
}

function notAllowed(context: CoreContext, stamp: Stamp, method: string, allow: string): CoreResponse {
  return fail(context, stamp, new HttpError('method_not_allowed', `${method} is not allowed here; allowed: ${allow}`, { headers: ['Allow', allow] }));
}

/** What answering a request needs, built once per core. */
interface CoreContext {
  readonly basePath: string;
  /** Logs an error whose detail the client never sees, with the id of the request it failed. */
  readonly report: (error: unknown, requestId: string) => void;
  readonly keyring: Keyring;
  readonly state: InterfaceState;
  readonly matchApi: (path: string) => RouteMatch | undefined;
  readonly rootRoutes: ReadonlyMap<string, RootRoute>;
  readonly cors: Cors | undefined;
}

/** What every answer to one request carries or loses: its id, the CORS headers for its origin, and no body for a HEAD. */
interface Stamp {
  readonly requestId: string;
  readonly cors: HeaderList | undefined;
  readonly isHead: boolean;
}

/** The id and CORS headers of a request's answers. */
function stampOf(context: CoreContext, request: CoreRequest): Stamp {
  const cors = context.cors === undefined ? undefined : context.cors.headersFor(headerOf(request.headers, 'origin'));
  return { requestId: requestIdOf(request.headers, context.keyring.holdsKey), cors, isHead: request.method === 'HEAD' };
}

/** How errors whose detail the client never sees reach the operator: `log` as structured events, else `logError`. */
function reporterOf(options: RequestCoreOptions): (error: unknown, requestId: string) => void {
  const { log } = options;
  if (log !== undefined) return (error, requestId) => log(errorEntry(error, requestId));
  const logError = options.logError ?? logToConsole;
  return (error) => logError(error);
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

/** Whether a path lies below the base path (the base path itself included). */
function isBelow(basePath: string, path: string): boolean {
  return path.startsWith(basePath) && (path.length === basePath.length || path.charCodeAt(basePath.length) === 47);
}

/** A request target split into its path and query string. */
function splitTarget(target: string): { path: string; query: string } {
  const url = originForm(target);
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? { path: url, query: '' } : { path: url.slice(0, queryStart), query: url.slice(queryStart + 1) };
}

/** Checks the options every adapter shares, with the message naming the adapter's own function. */
function checkOptions(caller: string, basePath: string, bodyLimit: number): void {
  const isBasePath = basePath === '' || (basePath.startsWith('/') && !basePath.endsWith('/'));
  if (!isBasePath) throw new TypeError(`${caller}: \`basePath\` must be empty or start with "/" and not end with "/"`);
  if (!(Number.isSafeInteger(bodyLimit) && bodyLimit > 0)) throw new TypeError(`${caller}: \`bodyLimit\` must be a positive integer`);
}
