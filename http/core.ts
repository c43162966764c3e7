import { operationOf, PetstoreError, VERSION_PATH } from '../lib/index.js';
import type { HeaderList, Petstore } from '../lib/index.js';
import { createAuthenticator, UNAUTHORIZED_RESPONSES } from './auth.js';
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

/**
 * Creates the request core [spec 4, 5, 7]. Checks run in the order route scope → Host (400) → auth
 * (401) → path (404) → method (405) → media type (415) → size (413) → JSON (400) → schema (400), so
 * an unauthenticated request learns nothing, a client sees its most fundamental problem first, and
 * a request refused on its head never has its body read.
 */
export function createRequestCore(options: RequestCoreOptions, caller = 'createRequestCore'): RequestCore {
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const logError = options.logError ?? logToConsole;
  checkOptions(caller, basePath, bodyLimit);
  const authenticate = createAuthenticator(options.apiKeys);
  const operations = createOperations({ store: options.store, basePath, bodyLimit, jsonCacheSize: options.jsonCacheSize });
  const matchApi = createRouter('api');
  const matchServer = options.servesServerRoutes === true ? createRouter('server') : () => undefined;

  const isBelowBase = (path: string): boolean =>
    path.startsWith(basePath) && (path.length === basePath.length || path.charCodeAt(basePath.length) === 47);
  const fail = (error: unknown, isHead: boolean, headers?: HeaderList): CoreResponse =>
    errorResponse(error, headers === undefined ? { isHead, logError } : { isHead, logError, headers });

  function run(operation: Operation, call: OperationCall): CoreResponse | Promise<CoreResponse> {
    const headers = operation.headers?.(call.publicBase);
    return settle(() => operation.run(call), (error) => fail(error, call.isHead, headers));
  }

  /** The prefix clients see: a host framework's mount path, then the base path. */
  function publicBase(request: CoreRequest): string {
    return request.mountPath === undefined || request.mountPath === '' ? basePath : request.mountPath + basePath;
  }

  function answerApi(request: CoreRequest, match: RouteMatch | undefined, path: string, query: string): CoreResponse | Promise<CoreResponse> {
    const { method } = request;
    const isHead = method === 'HEAD';
    // Answered without a key: the allowed methods of a public interface reveal nothing.
    if (method === 'OPTIONS' && match !== undefined) return emptyResponse(204, ['Allow', match.allow]);
    const operationName = match === undefined ? undefined : operationOf(match.route, method);
    if (!(match?.route.isPublic === true && operationName !== undefined)) {
      const verdict = authenticate(headerOf(request.headers, 'authorization'));
      if (verdict !== 'accepted') return isHead ? withoutBody(UNAUTHORIZED_RESPONSES[verdict]) : UNAUTHORIZED_RESPONSES[verdict];
    }
    if (match === undefined) return fail(new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}`), isHead);
    if (operationName === undefined) {
      return fail(new PetstoreError('method_not_allowed', `${method} is not allowed here; allowed: ${match.allow}`, { headers: ['Allow', match.allow] }), isHead);
    }
    return run(operations[operationName], { request, parameter: match.parameter, query, publicBase: publicBase(request), isHead });
  }

  function handle(request: CoreRequest): CoreResponse | Promise<CoreResponse> {
    const isHead = request.method === 'HEAD';
    const { path, query } = splitTarget(request.target);
    const serverMatch = matchServer(path);
    if (serverMatch !== undefined) {
      const operationName = operationOf(serverMatch.route, request.method);
      if (operationName === undefined) {
        return fail(new PetstoreError('method_not_allowed', `${request.method} is not allowed here; allowed: ${serverMatch.allow}`, { headers: ['Allow', serverMatch.allow] }), isHead);
      }
      return run(operations[operationName], { request, parameter: serverMatch.parameter, query, publicBase: basePath, isHead });
    }
    if (!isBelowBase(path)) {
      return fail(new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}; the API lives under ${basePath}`), isHead);
    }
    const host = headerOf(request.headers, 'host');
    // RFC 9112 §3.2: an HTTP/1.1 request without Host, or with more than one, is a 400, before anything else is looked at.
    if (host === undefined && request.httpVersion === '1.1') return fail(new PetstoreError('bad_request', 'An HTTP/1.1 request must carry a Host header'), isHead);
    if (host !== undefined && host.includes(',')) return fail(new PetstoreError('bad_request', 'A request must carry exactly one Host header'), isHead);
    return answerApi(request, matchApi(path.slice(basePath.length)), path, query);
  }

  return {
    isOwnTarget: (target) => {
      const { path } = splitTarget(target);
      return isBelowBase(path) || matchServer(path) !== undefined;
    },
    handle: (request) => settle(() => handle(request), (error) => fail(error, request.method === 'HEAD')),
  };
}
