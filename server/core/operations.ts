import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET, PetstoreError } from '../../lib/index.js';
import type { NewPet, Petstore } from '../../lib/index.js';
import { createOpenApiDocument } from '../../extras/docs-site/openapi/index.js';
import { renderInterfacePage } from '../../extras/docs-site/reference/interface-page.js';
import { renderReferencePage } from '../../extras/docs-site/reference/page.js';
import { readJsonBody } from './body.js';
import { createNegotiatedRepresentation } from './compression.js';
import type { NegotiatedRepresentation } from './compression.js';
import { parseIdempotencyKey, replayHeaders, withRetryAfter } from './idempotency-key.js';
import { PageJsonCache, PetJsonCache } from './pet-json.js';
import { parseDecimalInteger, parseListQuery } from './query.js';
import type { CoreRequest } from './request.js';
import { jsonResponse } from './response.js';
import type { BareResponse, HeaderList } from './response.js';
import type { OperationName } from './routes.js';

/** One call of an operation: the request and what routing made of it. */
export interface OperationCall {
  readonly request: CoreRequest;
  /** The raw path segment of the route's parameter (`petId`), empty when the route has none. */
  readonly parameter: string;
  /** The query string, without `?`. */
  readonly query: string;
  /** The path prefix the client sees, for `Location` and `Link`: the host framework's mount path plus the base path. */
  readonly publicBase: string;
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
}

/** What the operations of one core share: the store, the JSON caches, and the description and page built at their first request. */
interface Operations {
  readonly store: Petstore;
  readonly bodyLimit: number;
  readonly json: PetJsonCache;
  readonly pages: PageJsonCache;
  readonly openApi: () => NegotiatedRepresentation;
  readonly referencePage: () => NegotiatedRepresentation;
  readonly interfacePage: () => NegotiatedRepresentation;
}

const NO_HEADERS: HeaderList = [];
const CREATE_ACTION = 'Cannot create pet';
/** Media types of the description and of the reference page. */
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** The headers of the deprecated `getPet` [spec 4.3]: when it was deprecated (RFC 9745), when it goes (RFC 8594), and its successor. */
function deprecationHeaders(publicBase: string): HeaderList {
  return ['Deprecation', `@${GET_PET_DEPRECATED_AT}`, 'Sunset', GET_PET_SUNSET, 'Link', `<${publicBase}/pets>; rel="successor-version"`];
}

/** RFC 8288: the link to the page after this one; the body stays the spec's plain array [spec 4.1]. */
function nextPageLink(publicBase: string, next: { limit: number; after: number; status?: string | undefined }): HeaderList {
  const status = next.status === undefined ? '' : `&status=${next.status}`;
  return ['Link', `<${publicBase}/pets?limit=${next.limit}&after=${next.after}${status}>; rel="next"`];
}

/** listPets [spec 4.1]: one page of pets, with a `Link` to the next when more match. */
async function listPets(operations: Operations, call: OperationCall): Promise<BareResponse> {
  const page = await operations.store.listPetsPage(parseListQuery(call.query));
  const { next, query } = page;
  const body = operations.pages.body(`${query.status ?? ''}:${query.after}:${query.limit}`, page.pets, next !== undefined);
  return jsonResponse(200, body, next === undefined ? NO_HEADERS : nextPageLink(call.publicBase, next));
}

/** createPet [spec 4.2]: the body read and checked as JSON, the pet stored, 201 with its `Location`. */
async function createPet(operations: Operations, call: OperationCall): Promise<BareResponse> {
  // Checked before the body is read, as every check on the request's head [draft-ietf-httpapi-idempotency-key-header-07 §2.7].
  const idempotencyKey = parseIdempotencyKey(call.request.headers);
  // The engine validates what it is given at run time (with the same errors), so the body goes in as it was parsed.
  const input = await readJsonBody(call.request, { limit: operations.bodyLimit, action: CREATE_ACTION }) as NewPet;
  const outcome = idempotencyKey === undefined
    ? await operations.store.createPetOutcome(input)
    : await operations.store.createPetOutcome(input, { idempotencyKey }).catch(withRetryAfter);
  const { pet } = outcome;
  // Not kept in the cache: a pet just created is not read more than others, and every create would churn it.
  return jsonResponse(201, JSON.stringify(pet), ['Location', `${call.publicBase}/pets/${pet.id}`, ...replayHeaders(outcome)]);
}

/** getPet [spec 4.3, deprecated]: the pet whose id the path names. */
async function getPet(operations: Operations, call: OperationCall): Promise<BareResponse> {
  const id = parseDecimalInteger(call.parameter);
  if (id === undefined) {
    throw new PetstoreError('invalid_parameter', `Cannot get pet: \`petId\` must be a decimal integer, not ${JSON.stringify(call.parameter.slice(0, 50))}`);
  }
  return jsonResponse(200, operations.json.pet(await operations.store.getPet(id)));
}

/** A value built at its first use and kept. */
function once(build: () => NegotiatedRepresentation): () => NegotiatedRepresentation {
  let built: NegotiatedRepresentation | undefined;
  return () => (built ??= build());
}

/** The operations' shared state, over one store. */
function operationsOf(context: OperationsContext): Operations {
  const { store, basePath, bodyLimit } = context;
  const json = new PetJsonCache(context.jsonCacheSize);
  // Constant for this core: the description and the page are generated from this one object, each
  // serialised, encoded and hashed once, at its first request (a few milliseconds a core that never serves them never spends),
  // and compressed once per content coding, at the first request that accepts it.
  const document = createOpenApiDocument({ basePath, bodyLimit });
  return {
    store,
    bodyLimit,
    json,
    pages: new PageJsonCache(json),
    openApi: once(() => createNegotiatedRepresentation(JSON.stringify(document), JSON_TYPE)),
    referencePage: once(() => {
      const { html, contentSecurityPolicy } = renderReferencePage(document, { bodyLimit });
      return createNegotiatedRepresentation(html, HTML_TYPE, { headers: ['Content-Security-Policy', contentSecurityPolicy, 'Referrer-Policy', 'no-referrer'] });
    }),
    interfacePage: once(() => {
      const { html, contentSecurityPolicy } = renderInterfacePage();
      return createNegotiatedRepresentation(html, HTML_TYPE, { headers: ['Content-Security-Policy', contentSecurityPolicy, 'Referrer-Policy', 'no-referrer'] });
    }),
  };
}

/** Every operation the route table names, over one store, with the JSON caches they share. */
export function createOperations(context: OperationsContext): Record<OperationName, Operation> {
  const operations = operationsOf(context);
  const defaultDeprecation = deprecationHeaders(context.basePath);
  return {
    listPets: { run: (call) => listPets(operations, call) },
    createPet: { run: (call) => createPet(operations, call) },
    getPet: {
      run: (call) => getPet(operations, call),
      // [spec 4.3] deprecated: every answer of this operation, errors included, says so.
      headers: (publicBase) => (publicBase === context.basePath ? defaultDeprecation : deprecationHeaders(publicBase)),
    },
    getOpenApiDescription: { run: (call) => operations.openApi().respond(call.request.headers) },
    getReferencePage: { run: (call) => operations.referencePage().respond(call.request.headers) },
    getInterfaceText: { run: (call) => operations.interfacePage().respond(call.request.headers) },
  };
}
