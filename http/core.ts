import { operationOf, PetstoreError, VERSION_PATH } from '../lib/index.js';
import type { HeaderList, OperationName, Petstore } from '../lib/index.js';
import { createAuthenticator, UNAUTHORIZED_RESPONSES } from './auth.js';
import type { AuthVerdict } from './auth.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { errorResponse, logToConsole } from './error-response.js';
import { createOperations } from './operations.js';
import type { Operation, OperationCall } from './operations.js';
import { headerOf, originForm } from './request.js';
import type { CoreRequest } from './request.js';
import { emptyResponse, withoutBody } from './response.js';
import type { CoreResponse } from './response.js';
import { createRouter } from './router.js';
import type { RouteMatch } from './router.js';

/** Default path prefix of the API [spec 1: both base addresses end in `/v1`]. */
export const DEFAULT_BASE_PATH = VERSION_PATH;

/** Options of the request core, shared by every adapter. */
export interface RequestCoreOptions {
  /** The engine to serve. */
  store: Petstore;
  /** Accepted bearer tokens; at least one. Two during a key rotation. */
  apiKeys: readonly string[];
  /** Path prefix of the API; `''` when a host framework already strips its mount prefix. Default `/v1`. */
  basePath?: string;
  /** Largest request body in bytes. Default 65536. */
  bodyLimit?: number;
  /** Receives unexpected errors (answered as 500) and the causes of storage failures (503). Default: the console. */
  logError?: (error: unknown) => void;
  /** How many pets' JSON texts are kept for reuse (about 100 bytes each). Default 50000. */
  jsonCacheSize?: number;
  /** Whether the standalone server's own routes (`/healthz`) are answered too. Default false. */
  servesServerRoutes?: boolean;
}

/** The HTTP semantics of the interface as a function of a plain request: what every adapter calls. */
export interface RequestCore {
  /** Whether a request target is this core's to answer: below the base path, or one of the server's routes it serves. */
  isOwnTarget(target: string): boolean;
  /** The answer to a request; synchronous when the request's head alone decides it. Never rejects. */
  handle(request: CoreRequest): CoreResponse | Promise<CoreResponse>;
}

/** Checks the options every adapter shares, with the message naming the adapter's own function. */
function checkOptions(caller: string, basePath: string, bodyLimit: number): void {
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/'))) {
    throw new TypeError(`${caller}: \`basePath\` must be empty or start with "/" and not end with "/"`);
  }
  if (!(Number.isSafeInteger(bodyLimit) && bodyLimit > 0)) throw new TypeError(`${caller}: \`bodyLimit\` must be a positive integer`);
}

/** A request target split into its path and query string. */
function splitTarget(target: string): { path: string; query: string } {
  const url = originForm(target);
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? { path: url, query: '' } : { path: url.slice(0, queryStart), query: url.slice(queryStart + 1) };
}

/** Waits for an operation's answer, turning whatever it throws into the Error answer, with the operation's own headers. */
function settle(answer: () => CoreResponse | Promise<CoreResponse>, onError: (error: unknown) => CoreResponse): CoreResponse | Promise<CoreResponse> {
  try {
    const response = answer();
    return response instanceof Promise ? response.catch(onError) : response;
  } catch (error) {
    return onError(error);
  }
}

/** What answering a request needs, built once per core. */
interface CoreContext {
  readonly basePath: string;
  readonly logError: (error: unknown) => void;
  readonly authenticate: (authorization: string | undefined) => AuthVerdict;
  readonly operations: Record<OperationName, Operation>;
  readonly matchApi: (path: string) => RouteMatch | undefined;
  readonly matchServer: (path: string) => RouteMatch | undefined;
}

function fail(context: CoreContext, error: unknown, isHead: boolean, headers?: HeaderList): CoreResponse {
  return errorResponse(error, headers === undefined ? { isHead, logError: context.logError } : { isHead, logError: context.logError, headers });
}

function notAllowed(context: CoreContext, method: string, match: RouteMatch, isHead: boolean): CoreResponse {
  return fail(context, new PetstoreError('method_not_allowed', `${method} is not allowed here; allowed: ${match.allow}`, { headers: ['Allow', match.allow] }), isHead);
}

/** Runs an operation; whatever it throws becomes the Error answer, with the operation's own headers. */
function run(context: CoreContext, operation: Operation, call: OperationCall): CoreResponse | Promise<CoreResponse> {
  const headers = operation.headers?.(call.publicBase);
  return settle(() => operation.run(call), (error) => fail(context, error, call.isHead, headers));
}

/** The prefix clients see: a host framework's mount path, then the base path. */
function publicBase(context: CoreContext, request: CoreRequest): string {
  return request.mountPath === undefined || request.mountPath === '' ? context.basePath : request.mountPath + context.basePath;
}

/** A request below the base path: OPTIONS → auth (401) → path (404) → method (405) → the operation. */
function answerApi(context: CoreContext, request: CoreRequest, path: string, query: string): CoreResponse | Promise<CoreResponse> {
  const { method } = request;
  const isHead = method === 'HEAD';
  const match = context.matchApi(path.slice(context.basePath.length));
  // Answered without a key: the allowed methods of a public interface reveal nothing.
  if (method === 'OPTIONS' && match !== undefined) return emptyResponse(204, ['Allow', match.allow]);
  const operationName = match === undefined ? undefined : operationOf(match.route, method);
  if (!(match?.route.isPublic === true && operationName !== undefined)) {
    const verdict = context.authenticate(headerOf(request.headers, 'authorization'));
    if (verdict !== 'accepted') return isHead ? withoutBody(UNAUTHORIZED_RESPONSES[verdict]) : UNAUTHORIZED_RESPONSES[verdict];
  }
  if (match === undefined) return fail(context, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}`), isHead);
  if (operationName === undefined) return notAllowed(context, method, match, isHead);
  return run(context, context.operations[operationName], { request, parameter: match.parameter, query, publicBase: publicBase(context, request), isHead });
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
function answer(context: CoreContext, request: CoreRequest): CoreResponse | Promise<CoreResponse> {
  const isHead = request.method === 'HEAD';
  const { path, query } = splitTarget(request.target);
  const serverMatch = context.matchServer(path);
  if (serverMatch !== undefined) {
    const operationName = operationOf(serverMatch.route, request.method);
    if (operationName === undefined) return notAllowed(context, request.method, serverMatch, isHead);
    return run(context, context.operations[operationName], { request, parameter: serverMatch.parameter, query, publicBase: context.basePath, isHead });
  }
  const hostProblem = hostProblemOf(headerOf(request.headers, 'host'), request.httpVersion);
  if (hostProblem !== undefined) return fail(context, new PetstoreError('bad_request', hostProblem), isHead);
  if (!isBelow(context.basePath, path)) {
    return fail(context, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}; the API lives under ${context.basePath}`), isHead);
  }
  return answerApi(context, request, path, query);
}

/** Whether a path lies below the base path (the base path itself included). */
function isBelow(basePath: string, path: string): boolean {
  return path.startsWith(basePath) && (path.length === basePath.length || path.charCodeAt(basePath.length) === 47);
}

/**
 * Creates the request core [spec 4, 5, 7]. Checks run in the order route scope → Host (400) → auth
 * (401) → path (404) → method (405) → media type (415) → size (413) → JSON (400) → schema (400), so
 * an unauthenticated request learns nothing, a client sees its most fundamental problem first, and
 * a request refused on its head never has its body read.
 */
export function createRequestCore(options: RequestCoreOptions, caller = 'createRequestCore'): RequestCore {
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  checkOptions(caller, basePath, bodyLimit);
  const context: CoreContext = {
    basePath,
    logError: options.logError ?? logToConsole,
    authenticate: createAuthenticator(options.apiKeys),
    operations: createOperations({ store: options.store, basePath, bodyLimit, jsonCacheSize: options.jsonCacheSize }),
    matchApi: createRouter('api'),
    matchServer: options.servesServerRoutes === true ? createRouter('server') : () => undefined,
  };
  return {
    isOwnTarget: (target) => {
      const { path } = splitTarget(target);
      return isBelow(basePath, path) || context.matchServer(path) !== undefined;
    },
    handle: (request) => settle(() => answer(context, request), (error) => fail(context, error, request.method === 'HEAD')),
  };
}
