import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET, PetstoreError } from '../../lib/index.js';
import { createOpenApiDocument } from '../openapi/index.js';
import type { HeaderList, Petstore } from '../../lib/index.js';
import type { OperationName } from './routes.js';
import { readJsonBody } from './body.js';
import { createRepresentation, representationResponse } from './conditional.js';
import type { Representation } from './conditional.js';
import { parseIdempotencyKey, replayHeaders } from './idempotency-key.js';
import { PageJsonCache, PetJsonCache } from './pet-json.js';
import { parseDecimalInteger, parseListQuery } from './query.js';
import { checkReadiness } from './readiness.js';
import type { ReadinessOptions } from './readiness.js';
import type { CoreRequest } from './request.js';
import { renderReferencePage } from '../reference/page.js';
import { jsonResponse, PROMETHEUS_TEXT_TYPE, textResponse, withoutBody } from './response.js';
import type { BareResponse } from './response.js';

/** One call of an operation: the request and what routing made of it. */
export interface OperationCall {
  readonly request: CoreRequest;
  /** The raw path segment of the route's parameter (`petId`), empty when the route has none. */
  readonly parameter: string;
  /** The query string, without `?`. */
  readonly query: string;
  /** The path prefix the client sees, for `Location` and `Link`: the host framework's mount path plus the base path. */
  readonly publicBase: string;
  readonly isHead: boolean;
}

/** What an operation does, and the headers every one of its answers carries, errors included. */
export interface Operation {
  run(call: OperationCall): BareResponse | Promise<BareResponse>;
  headers?(publicBase: string): HeaderList;
}

/** What the operations are built from. */
export interface OperationsContext {
  store: Petstore;
  basePath: string;
  bodyLimit: number;
  jsonCacheSize: number | undefined;
  /** What `/readyz` asks beside the storage. */
  readiness: ReadinessOptions;
  /** The text `/metrics` answers; undefined when metrics are off (the route is not served then). */
  metricsText: (() => string) | undefined;
}

const NO_HEADERS: HeaderList = [];
const CREATE_ACTION = 'Cannot create pet';
const HEALTHY = JSON.stringify({ status: 'ok' });
const READY = JSON.stringify({ status: 'ready' });

/** The headers of the deprecated `getPet` [spec 4.3]: when it was deprecated (RFC 9745), when it goes (RFC 8594), and its successor. */
function deprecationHeaders(publicBase: string): HeaderList {
  return ['Deprecation', `@${GET_PET_DEPRECATED_AT}`, 'Sunset', GET_PET_SUNSET, 'Link', `<${publicBase}/pets>; rel="successor-version"`];
}

/** Media types of the description and of the reference page. */
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** A value built at its first use and kept. */
function once(build: () => Representation): () => Representation {
  let built: Representation | undefined;
  return () => (built ??= build());
}

/**
 * `GET /` of the standalone server: a 302 to the reference page, so a browser pointed at the server
 * lands on it; temporary, as the root may one day serve something else. The short text says the same
 * to a client that does not follow redirects.
 */
function redirectToReferencePage(basePath: string): BareResponse {
  const location = `${basePath}/docs`;
  const text = textResponse(302, `The reference page of this server is at ${location}\n`, 'text/plain; charset=utf-8');
  return { ...text, headers: ['Location', location, ...text.headers] };
}

/** The standalone server's own operations: the redirect to the reference page, liveness, readiness and metrics. */
function serverOperations(context: OperationsContext): Record<'redirectToReferencePage' | 'checkHealth' | 'checkReadiness' | 'getMetrics', Operation> {
  const { store, readiness, metricsText } = context;
  const redirect = redirectToReferencePage(context.basePath);
  return {
    redirectToReferencePage: { run: (call) => (call.isHead ? withoutBody(redirect) : redirect) },
    checkHealth: { run: (call) => jsonResponse(200, HEALTHY, NO_HEADERS, call.isHead) },
    checkReadiness: {
      async run(call) {
        await checkReadiness(store, readiness);
        return jsonResponse(200, READY, NO_HEADERS, call.isHead);
      },
    },
    getMetrics: {
      run(call) {
        if (metricsText === undefined) throw new PetstoreError('not_found', 'Metrics are off on this server');
        return textResponse(200, metricsText(), PROMETHEUS_TEXT_TYPE, call.isHead);
      },
    },
  };
}

/** Every operation the route table names, over one store, with the JSON caches they share. */
export function createOperations(context: OperationsContext): Record<OperationName, Operation> {
  const { store, basePath, bodyLimit } = context;
  const json = new PetJsonCache(context.jsonCacheSize);
  const pages = new PageJsonCache(json);
  const defaultDeprecation = deprecationHeaders(basePath);
  const getPetHeaders = (publicBase: string): HeaderList => (publicBase === basePath ? defaultDeprecation : deprecationHeaders(publicBase));
  // Constant for this handler: the description and the page are generated from this one object, each
  // serialised, encoded and hashed once, at its first request (a few milliseconds a core that never serves them never spends).
  const document = createOpenApiDocument({ basePath, bodyLimit });
  const openApi = once(() => createRepresentation(JSON.stringify(document), JSON_TYPE));
  const referencePage = once(() => {
    const { html, contentSecurityPolicy } = renderReferencePage(document, { bodyLimit });
    return createRepresentation(html, HTML_TYPE, ['Content-Security-Policy', contentSecurityPolicy, 'Referrer-Policy', 'no-referrer']);
  });

  return {
    listPets: {
      async run(call) {
        const page = await store.listPetsPage(parseListQuery(call.query));
        const { next, query } = page;
        // RFC 8288: the next page; the body stays the spec's plain array [spec 4.1].
        const headers = next === undefined
          ? NO_HEADERS
          : ['Link', `<${call.publicBase}/pets?limit=${next.limit}&after=${next.after}${next.status === undefined ? '' : `&status=${next.status}`}>; rel="next"`];
        const body = pages.body(`${query.status ?? ''}:${query.after}:${query.limit}`, page.pets, next !== undefined);
        return jsonResponse(200, body, headers, call.isHead);
      },
    },
    createPet: {
      async run(call) {
        // Checked before the body is read, as every check on the request's head [draft-ietf-httpapi-idempotency-key-header-07 §2.7].
        const idempotencyKey = parseIdempotencyKey(call.request.headers);
        const body = await readJsonBody(call.request, { limit: bodyLimit, action: CREATE_ACTION });
        const outcome = await store.createPetOutcome(body, idempotencyKey === undefined ? {} : { idempotencyKey });
        const { pet } = outcome;
        // Not kept in the cache: a pet just created is not read more than others, and every create would churn it.
        return jsonResponse(201, JSON.stringify(pet), ['Location', `${call.publicBase}/pets/${pet.id}`, ...replayHeaders(outcome)]);
      },
    },
    getPet: {
      async run(call) {
        const id = parseDecimalInteger(call.parameter);
        if (id === undefined) {
          throw new PetstoreError('invalid_parameter', `Cannot get pet: \`petId\` must be a decimal integer, not ${JSON.stringify(call.parameter.slice(0, 50))}`);
        }
        return jsonResponse(200, json.pet(await store.getPet(id)), getPetHeaders(call.publicBase), call.isHead);
      },
      // [spec 4.3] deprecated: every answer of this operation, errors included, says so.
      headers: getPetHeaders,
    },
    getOpenApiDescription: { run: (call) => representationResponse(openApi(), call.request.headers, call.isHead) },
    getReferencePage: { run: (call) => representationResponse(referencePage(), call.request.headers, call.isHead) },
    ...serverOperations(context),
  };
}
