import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOpenApiDocument, DEFAULT_LIMIT, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, PetstoreError, VERSION_PATH } from '../lib/index.js';
import type { Petstore } from '../lib/index.js';
import { createAuthenticator, UNAUTHORIZED_REPLIES } from './auth.js';
import { DEFAULT_BODY_LIMIT, readJsonBodyOrAnswer } from './body.js';
import { closeIfBodyUnread, isOnClosingConnection } from './closing-connections.js';
import { PageJsonCache, PetJsonCache } from './pet-json.js';
import { DECIMAL_INTEGER, parseListQuery } from './query.js';
import { logToStderr, sendError, sendJson, sendPrepared } from './responses.js';
import type { HeaderList } from './responses.js';
import { ALLOWED_METHODS, isAllowed, matchRoute } from './routes.js';
import type { RouteMatch } from './routes.js';

/** Default path prefix of the API [spec 1: both base addresses end in `/v1`]. */
export const DEFAULT_BASE_PATH = VERSION_PATH;

/** Options of createHandler. */
export interface HandlerOptions {
  /** The engine to serve. */
  store: Petstore;
  /** Accepted bearer tokens; at least one. Two during a key rotation. */
  apiKeys: readonly string[];
  /** Path prefix of the API; `''` when a host framework already strips its mount prefix. Default `/v1`. */
  basePath?: string;
  /** Largest request body in bytes. Default 65536. */
  bodyLimit?: number;
  /** Receives unexpected errors (answered as 500). Default: stderr. */
  logError?: (error: unknown) => void;
  /** How many pets' JSON texts are kept for reuse (about 100 bytes each). Default 50000. */
  jsonCacheSize?: number;
}

/** A `node:http` request listener; `next` (Express/Connect style) receives requests outside the base path. */
export type PetstoreHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

const CREATE_ACTION = 'Cannot create pet';

/** A request as host frameworks hand it on: Express and Connect keep the original `url` when they strip a mount prefix. */
interface FrameworkRequest extends IncomingMessage {
  originalUrl?: unknown;
}

/** The original request target a host framework kept, if any. */
function originalUrlOf(request: FrameworkRequest): string | undefined {
  const original = request.originalUrl;
  return typeof original === 'string' ? original : undefined;
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** The origin-form of a request target: RFC 9112 §3.2.2 has servers accept the absolute form too. */
function requestTarget(url: string): string {
  if (url.charCodeAt(0) === 47) return url;
  const authority = ABSOLUTE_FORM.exec(url);
  if (authority === null) return url;
  const rest = url.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

/**
 * Creates the request listener for the interface [spec 4, 5, 7]. Checks run in the order auth (401)
 * → route (404) → method (405) → media type (415) → size (413) → JSON (400) → schema (400), so an
 * unauthenticated request learns nothing and a client sees its most fundamental problem first.
 */
export function createHandler(options: HandlerOptions): PetstoreHandler {
  const { store } = options;
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const logError = options.logError ?? logToStderr;
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/'))) {
    throw new TypeError('createHandler: `basePath` must be empty or start with "/" and not end with "/"');
  }
  if (!(Number.isSafeInteger(bodyLimit) && bodyLimit > 0)) throw new TypeError('createHandler: `bodyLimit` must be a positive integer');
  const authenticate = createAuthenticator(options.apiKeys);
  const json = new PetJsonCache(options.jsonCacheSize);
  const pages = new PageJsonCache(json);
  // Constant for this handler, so it is serialised and encoded once.
  const openApiJson = Buffer.from(JSON.stringify(createOpenApiDocument({ basePath, bodyLimit })));
  const deprecationHeaders = (base: string): HeaderList => [
    'Deprecation', `@${GET_PET_DEPRECATED_AT}`,
    'Sunset', GET_PET_SUNSET,
    'Link', `<${base}/pets>; rel="successor-version"`,
  ];
  const defaultDeprecationHeaders = deprecationHeaders(basePath);

  /** The path prefix clients see, for `Location` and `Link`: the mount prefix of a host framework plus the base path. */
  function publicBase(request: IncomingMessage): string {
    const original = originalUrlOf(request);
    const url = request.url ?? '';
    if (original === undefined || original === url || !original.endsWith(url)) return basePath;
    return original.slice(0, original.length - url.length) + basePath;
  }

  function fail(response: ServerResponse, error: unknown, headers?: HeaderList): void {
    sendError(response, error, headers === undefined ? { logError } : { logError, headers });
  }

  async function listPets(request: IncomingMessage, response: ServerResponse, queryString: string): Promise<void> {
    const query = parseListQuery(queryString);
    const page = await store.listPetsPage(query);
    const headers: string[] = [];
    if (page.next !== undefined) {
      const status = page.next.status === undefined ? '' : `&status=${page.next.status}`;
      // RFC 8288: the next page; the body stays the spec's plain array [spec 4.1].
      headers.push('Link', `<${publicBase(request)}/pets?limit=${page.next.limit}&after=${page.next.after}${status}>; rel="next"`);
    }
    const key = `${query.status ?? ''}:${query.after ?? 0}:${query.limit ?? DEFAULT_LIMIT}`;
    sendJson(response, 200, pages.body(key, page.pets, page.next !== undefined), headers);
  }

  async function createPet(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reading = await readJsonBodyOrAnswer(request, response, { limit: bodyLimit, action: CREATE_ACTION, logError });
    if (reading.isAnswered) return;
    const pet = await store.createPet(reading.body);
    sendJson(response, 201, json.pet(pet), ['Location', `${publicBase(request)}/pets/${pet.id}`]);
  }

  async function getPet(request: IncomingMessage, response: ServerResponse, rawId: string): Promise<void> {
    // [spec 4.3] deprecated: every answer of this operation, errors included, says so.
    const base = publicBase(request);
    const headers = base === basePath ? defaultDeprecationHeaders : deprecationHeaders(base);
    try {
      if (!DECIMAL_INTEGER.test(rawId)) {
        throw new PetstoreError('invalid_parameter', `Cannot get pet: \`petId\` must be a decimal integer, not ${JSON.stringify(rawId.slice(0, 50))}`);
      }
      const id = Number(rawId);
      // Past 309 digits a decimal integer is ±Infinity as a number: still an id no pet can have, so a 404.
      if (!Number.isFinite(id)) throw new PetstoreError('not_found', `Pet ${rawId.slice(0, 50)}… (${rawId.length} digits) was not found`);
      const pet = await store.getPet(id);
      sendJson(response, 200, json.pet(pet), headers);
    } catch (error) {
      fail(response, error, headers);
    }
  }

  function dispatch(request: IncomingMessage, response: ServerResponse, route: RouteMatch, queryString: string): Promise<void> {
    if (route.name === 'pet') return getPet(request, response, route.petId);
    if (request.method === 'POST') return createPet(request, response);
    return listPets(request, response, queryString);
  }

  return function handlePetstore(request, response, next) {
    // Its connection closes after an earlier answer (a 413), so this request would run without ever being answered.
    if (isOnClosingConnection(request)) return;
    try {
      const url = requestTarget(request.url ?? '/');
      const queryStart = url.indexOf('?');
      const path = queryStart === -1 ? url : url.slice(0, queryStart);
      if (!path.startsWith(basePath) || (path.length > basePath.length && path.charCodeAt(basePath.length) !== 47)) {
        if (next !== undefined) return next();
        return fail(response, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}; the API lives under ${basePath}`));
      }
      // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400, before anything else is looked at.
      if (request.headers.host === undefined && request.httpVersion === '1.1') {
        return fail(response, new PetstoreError('bad_request', 'An HTTP/1.1 request must carry a Host header'));
      }
      const route = matchRoute(path.slice(basePath.length));
      const method = request.method ?? 'GET';
      if (method === 'OPTIONS' && route !== undefined) {
        // Answered without a key: the allowed methods of a public interface reveal nothing.
        response.writeHead(204, ['Allow', ALLOWED_METHODS[route.name]]);
        return void response.end();
      }
      // The description of the public interface is public too [issue 5].
      if (route?.name === 'openapi' && (method === 'GET' || method === 'HEAD')) return sendJson(response, 200, openApiJson);
      const verdict = authenticate(request.headers.authorization);
      if (verdict !== 'accepted') {
        closeIfBodyUnread(request, response);
        return sendPrepared(response, UNAUTHORIZED_REPLIES[verdict]);
      }
      if (route === undefined) {
        closeIfBodyUnread(request, response);
        return fail(response, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path.slice(0, 200))}`));
      }
      if (!isAllowed(route.name, method)) {
        closeIfBodyUnread(request, response);
        return fail(response, new PetstoreError('method_not_allowed', `${method} is not allowed here; allowed: ${ALLOWED_METHODS[route.name]}`), ['Allow', ALLOWED_METHODS[route.name]]);
      }
      dispatch(request, response, route, queryStart === -1 ? '' : url.slice(queryStart + 1)).catch((error: unknown) => fail(response, error));
    } catch (error) {
      fail(response, error);
    }
  };
}
