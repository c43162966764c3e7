import type { HeaderList } from './response.js';

/** Which browser origins may call the interface: a list of origins (`https://app.example.com`), or `'*'` for any. */
export type CorsOrigins = readonly string[] | '*';

/** How long a browser may reuse a preflight's answer (s); Chromium caps it at 7200, and routes rarely change faster. */
export const CORS_MAX_AGE = 600;

/**
 * Response headers a browser script may read [Fetch standard, CORS-safelisted ones aside]: paging,
 * the new pet's address, the deprecation of `getPet`, the 401 challenge, the request id, the
 * entity tag of the description and the page, which a conditional GET sends back, the mark of a
 * replayed create and how long to wait before repeating one still in flight.
 */
const EXPOSED_HEADERS = 'Link, Location, Deprecation, Sunset, WWW-Authenticate, X-Request-Id, ETag, Idempotent-Replayed, Retry-After';

/**
 * Request headers a browser may send: the key, the body's media type, a request id of its own (a
 * page that sets one to find its request in the server's log needs it allowed too), the entity
 * tag of a conditional GET, which the document advertises with its `ETag` and `304`, and the
 * idempotency key of a create (the typed client sends one with every create).
 */
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, If-None-Match, Idempotency-Key';

/**
 * What an answer to an origin that is not allowed (or to a request without `Origin`) carries when
 * CORS is on: only `Vary: Origin`, because the same URL answers an allowed origin with CORS headers,
 * and a shared cache must not hand this answer to that origin [Fetch standard, CORS protocol and HTTP caches].
 */
const VARY_ONLY: HeaderList = ['Vary', 'Origin'];

/** The CORS decisions of one core, built once from its `corsOrigins`. */
export interface Cors {
  /** Headers every answer to this `Origin` carries: the CORS headers for an allowed origin, otherwise only `Vary: Origin`. */
  headersFor(origin: string | undefined): HeaderList;
}

/** Whether the headers headersFor gave are an allowed origin's, which a preflight is answered for. */
export function isAllowedOrigin(headers: HeaderList | undefined): boolean {
  return headers !== undefined && headers !== VARY_ONLY;
}

/** The headers of every answer to an allowed origin; `Vary: Origin` because the answer depends on it. */
function answerHeaders(allowOrigin: string): HeaderList {
  return ['Access-Control-Allow-Origin', allowOrigin, 'Vary', 'Origin', 'Access-Control-Expose-Headers', EXPOSED_HEADERS];
}

/** The extra headers of a preflight's 204 on a route answering `allow` [Fetch standard, CORS protocol]. */
export function preflightHeaders(allow: string): HeaderList {
  return ['Access-Control-Allow-Methods', allow, 'Access-Control-Allow-Headers', ALLOWED_HEADERS, 'Access-Control-Max-Age', String(CORS_MAX_AGE)];
}

/** Checks that each configured origin is one as a browser sends it: scheme, host and port, nothing else. */
function checkOrigins(caller: string, origins: readonly string[]): void {
  if (!Array.isArray(origins as unknown)) throw new TypeError(`${caller}: \`corsOrigins\` must be a list of origins, or '*'`);
  if (origins.length === 0) throw new TypeError(`${caller}: \`corsOrigins\` must list at least one origin, or be '*'`);
  for (const origin of origins) {
    const serialized = URL.canParse(origin) ? new URL(origin).origin : undefined;
    if (serialized !== origin || serialized === 'null') {
      const rule = 'must be an origin as browsers send it, such as "https://app.example.com" (lower case, no path, no trailing slash)';
      throw new TypeError(`${caller}: every entry of \`corsOrigins\` ${rule}, not ${JSON.stringify(origin)}`);
    }
  }
}

/**
 * Creates the CORS decisions for `origins` [Fetch standard, CORS protocol]. Bearer keys are not
 * credentials in the CORS sense (no cookies), so `'*'` answers `Access-Control-Allow-Origin: *`.
 */
export function createCors(caller: string, origins: CorsOrigins): Cors {
  if (origins === '*') {
    const any = answerHeaders('*');
    return { headersFor: (origin) => (origin === undefined ? VARY_ONLY : any) };
  }
  checkOrigins(caller, origins);
  const allowed = new Map(origins.map((origin) => [origin, answerHeaders(origin)]));
  return { headersFor: (origin) => (origin === undefined ? VARY_ONLY : allowed.get(origin) ?? VARY_ONLY) };
}
