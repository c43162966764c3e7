import { freezePet, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, idempotencyUnsupportedError, IN_FLIGHT_RETRY_AFTER, INTERFACE_VERSION, keyInFlightError, keyReusedError, MAX_LIMIT, MIN_LIMIT, overflowError, PetstoreError, toErrorBody, validateListQuery, validateNewPet } from '../../../lib/index.js';
import type { ErrorBody, NewPet, Pet } from '../../../lib/index.js';
import { allowedMethods, parseIdempotencyKey } from '../../../server/core/index.js';
import { API_ROUTES } from './routes.js';
import type { JsonValue, OpenApiExample, OpenApiHeaderExample } from './types.js';

/** Examples keyed by name: a request example and the response example of its answer share the key. */
export type Examples = Record<string, OpenApiExample>;

/** Header examples keyed by name: the key of a body example when the value belongs to that answer [OpenAPI 3.1 §4.8.21]. */
export type HeaderExamples = Record<string, OpenApiHeaderExample>;

/** What the summary of an example says when no request alone produces its answer (a failing storage, a silent client). */
export const NOT_REPLAYABLE = 'not replayable';

/** The first pet of the examples' store: the one `getPet` finds. */
const FIRST_PET: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };

/** The pets every example assumes: created in this order into an empty store, so they hold ids 1 to 4. */
export const EXAMPLE_PETS: readonly NewPet[] = [
  FIRST_PET,
  { name: 'Tom', categoryId: 2, status: 'sold' },
  { name: 'Nemo', categoryId: 3 },
  { name: 'Luna', categoryId: 1, status: 'available' },
];

const STORED_PETS: readonly Pet[] = EXAMPLE_PETS.map((pet, index) => freezePet(index + 1, pet));

/** The id the next created pet gets in the store the examples assume. */
const NEXT_ID = EXAMPLE_PETS.length + 1;

/**
 * The body limit the examples state when the document is given none: the HTTP layer's default
 * (`DEFAULT_BODY_LIMIT`, which lib cannot import; test/extras/docs-site/openapi/examples.test.ts checks they agree).
 */
export const UNSTATED_BODY_LIMIT = 65_536;

/** The verb phrases the HTTP layer starts its messages with (server/core/operations.ts). */
const CREATE_ACTION = 'Cannot create pet';
const LIST_ACTION = 'Cannot list pets';
const GET_ACTION = 'Cannot get pet';

/** A Pet as a JSON value, fields in the order the server sends them. */
function petValue(pet: Pet): JsonValue {
  return pet.status === undefined ? { id: pet.id, name: pet.name, categoryId: pet.categoryId } : { id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status };
}

/** The example of an Error answer: the body exactly as the server serialises it, after what the example's description says. */
function errorExample(summary: string, body: ErrorBody, description?: string): OpenApiExample {
  const { code, message, status, details } = body;
  const value: JsonValue = details === undefined
    ? { code, message, status }
    : { code, message, status, details: details.map((detail) => ({ field: detail.field, message: detail.message })) };
  return description === undefined ? { summary, value } : { summary, description, value };
}

/** The Error body of what a call throws, or undefined when it succeeds: how the engine's own validators word the examples' messages. */
function rejectionOf(call: () => unknown): ErrorBody | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    return toErrorBody(error);
  }
}

/** What a call throws; a call that returns is a defect of the examples, shown as the generic 500 their checks then refuse. */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return new Error('the call was expected to throw');
}

/** The examples of one Error answer, under one key. */
function single(key: string, summary: string, error: unknown): Examples {
  return { [key]: errorExample(summary, toErrorBody(error)) };
}

/** An HTTP/1.1 request without `Host`: every operation's 400 `bad_request` (server/core/core.ts). */
export const MISSING_HOST_EXAMPLES: Examples = single(
  'missingHost',
  'A request without a Host header, which HTTP/1.1 requires (RFC 9112 §3.2)',
  new PetstoreError('bad_request', 'An HTTP/1.1 request must carry a Host header'),
);

/** The two 401 answers [spec 5.4] (server/core/auth.ts), keyed like the `WWW-Authenticate` challenge each carries. */
export const UNAUTHORIZED_EXAMPLES: Examples = {
  ...single('missingKey', 'Sent without Authorization (or with another scheme, or an empty token)', new PetstoreError('unauthorized', 'Send the API key as `Authorization: Bearer <API_KEY>`')),
  ...single('invalidKey', 'Sent with Authorization: Bearer wrong-key, a token that matches no key', new PetstoreError('unauthorized', 'The bearer token is not a valid API key')),
};

/** The challenges of the two 401 answers (RFC 6750 §3), keyed like their bodies. */
export const CHALLENGE_EXAMPLES: HeaderExamples = {
  missingKey: { summary: 'No usable credential was sent', value: 'Bearer realm="petstore"' },
  invalidKey: { summary: 'The token matches no key (RFC 6750 §3.1)', value: 'Bearer realm="petstore", error="invalid_token"' },
};

/** The generic 500 every operation can answer: its detail goes to the log only. */
export const INTERNAL_ERROR_EXAMPLES: Examples = single(
  'internalError',
  `An unexpected failure, such as a storage defect (${NOT_REPLAYABLE}: no request causes it)`,
  new Error('the detail that stays in the log'),
);

/** What an operation was doing when its storage could not answer, as a 503's message names it. */
export type StorageAction = 'list pets' | 'store the pet' | 'read the pet';

/**
 * The 503 of an operation whose storage is PostgreSQL and the database refuses connections, in the
 * storage's own words: written here so the docs site imports no storage, and held to what the
 * PostgreSQL storage answers by the replay of the examples (test/extras/docs-site/openapi-examples-replay.test.ts).
 */
export function unavailableExamples(action: StorageAction): Examples {
  const error = new PetstoreError('unavailable', `Cannot ${action}: PostgreSQL is unavailable (ECONNREFUSED: nothing accepts connections at the configured host and port); start PostgreSQL or correct the connection URL (host and port).`);
  return single('unavailable', `The storage cannot answer now, here PostgreSQL refusing connections (${NOT_REPLAYABLE}: it depends on the storage)`, error);
}

/** The `X-Request-Id` of an answer: a new id when the request sent none (server/core/request-id.ts). */
export const REQUEST_ID_EXAMPLES: HeaderExamples = {
  generated: { summary: 'A new id: a random prefix per process, then a counter', value: 'p5GJ1t2VtbRXoqcN-1a' },
};

/** The `Allow` value of an interface path. */
function allowOf(path: string): string {
  const route = API_ROUTES.find((candidate) => candidate.path === path);
  if (route === undefined) throw new TypeError(`createOpenApiDocument: no route has the path ${path}`);
  return allowedMethods(route);
}

/** The `Allow` of an interface path as OPTIONS sends it, or as a 405 does under the key of its body example. */
export function allowExamples(path: string, key = 'allow'): HeaderExamples {
  return { [key]: { summary: `The methods of ${path}`, value: allowOf(path) } };
}

/** The example of a header whose value is always the same. */
export function fixedHeaderExamples(key: string, summary: string, value: string): HeaderExamples {
  return { [key]: { summary, value } };
}

/** The headers of the deprecated `getPet` [spec 4.3, 9], as server/core/operations.ts sends them. */
export function deprecationHeaderExamples(basePath: string): Record<'Deprecation' | 'Sunset' | 'Link', HeaderExamples> {
  return {
    Deprecation: fixedHeaderExamples('deprecated', 'Deprecated since 2026-01-01T00:00:00Z, in Unix seconds (RFC 9745)', `@${GET_PET_DEPRECATED_AT}`),
    Sunset: fixedHeaderExamples('sunset', 'Removed on 5 December 2030 (RFC 8594)', GET_PET_SUNSET),
    Link: fixedHeaderExamples('successor', 'Use the list with its status filter instead (RFC 8288)', `<${basePath}/pets>; rel="successor-version"`),
  };
}

/** What the requests of an operation get: the success bodies and headers of its request examples, and the 400s of its refused requests. */
interface Answers {
  success: Examples;
  /** The Error examples of the refused requests, each describing its request; their code is the one the operation answers invalid input with. */
  rejected: Examples;
}

/**
 * A request the server refuses with a 400, shown to learners beside its answer (in the description
 * of the answer's example) but never as a request example: the OpenAPI Specification says an example
 * SHOULD match its schema, and tools that replay request examples (Dredd, Schemathesis, Prism) take
 * them for valid requests.
 */
export interface RefusedRequest {
  operationId: 'listPets' | 'createPet' | 'getPet';
  /** The key of its answer among the examples of the operation's 400. */
  key: string;
  summary: string;
  method: 'GET' | 'POST';
  /** The request target below the base path, query included, as sent: `/pets?limit=ten`. */
  target: string;
  /** The query and path parameters it sends, by name. */
  parameters: Readonly<Record<string, string | number>>;
  /** The JSON body it sends, if any. */
  body?: JsonValue;
}

/** The description of the answer to a refused request: the request, as a learner would send it. */
function requestDescription(basePath: string, request: RefusedRequest): string {
  const line = `${request.method} ${basePath}${request.target}`;
  return request.body === undefined ? `The request: \`${line}\`.` : `The request: \`${line}\` with the body \`${JSON.stringify(request.body)}\`.`;
}

/** The query parameters of `listPets`. */
type ListParameter = 'limit' | 'status' | 'after';

/** A `listPets` request example: its query parameters, and what it shows. */
interface ListRequest {
  summary: string;
  query: Partial<Record<ListParameter, number | string>>;
}

/** Requests of `listPets` [spec 4.1], over the pets of EXAMPLE_PETS. */
const LIST_REQUESTS: Readonly<Record<string, ListRequest>> = {
  firstPage: { summary: 'A page of two animals; Link names the next page', query: { limit: 2 } },
  nextPage: { summary: 'The page that Link named, the animals after id 2: the last page, so without Link', query: { limit: 2, after: 2 } },
  available: { summary: 'Only the available animals, one a page; the next page\'s Link keeps the filter', query: { status: 'available', limit: 1 } },
  limitNotInteger: { summary: 'A limit that is not a decimal integer', query: { limit: 'ten' } },
  unknownStatus: { summary: 'A status that is not a PetStatus (the values are case-sensitive)', query: { status: 'Sold' } },
};

/** The answer of the HTTP layer to a `limit` that is not a decimal integer, before the engine sees it (server/core/operations.ts, parseListQuery). */
const LIMIT_NOT_DECIMAL = toErrorBody(new PetstoreError('invalid_parameter', `${LIST_ACTION}: query parameter \`limit\` must be a decimal integer (${MIN_LIMIT} to ${MAX_LIMIT}; others are clamped)`));

/** The examples of `listPets` [spec 4.1]: the values of each query parameter, and the page or Error each request gets. */
export interface ListPetsExamples extends Answers {
  parameters: Record<ListParameter, Examples>;
  /** The `Link: rel="next"` of the pages that have a next one. */
  links: HeaderExamples;
}

/** The Error a `listPets` query gets, or undefined when it is accepted. */
function listRejection(query: ListRequest['query']): ErrorBody | undefined {
  return typeof query.limit === 'string' ? LIMIT_NOT_DECIMAL : rejectionOf(() => validateListQuery(query));
}

/** The examples of one query parameter: its value in each accepted request that sends it. */
function parameterExamples(name: ListParameter): Examples {
  return Object.fromEntries(Object.entries(LIST_REQUESTS).flatMap(([key, { summary, query }]) => {
    const value = query[name];
    return value === undefined || listRejection(query) !== undefined ? [] : [[key, { summary, value }]];
  }));
}

/** A request of LIST_REQUESTS as a RefusedRequest. */
function refusedListRequest(key: string, { summary, query }: ListRequest): RefusedRequest {
  const search = Object.entries(query).map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&');
  return { operationId: 'listPets', key, summary, method: 'GET', target: `/pets?${search}`, parameters: query };
}

/** The examples of `listPets` [spec 4.1]: each request's parameters, and the page the store of EXAMPLE_PETS answers, or the Error. */
export function listPetsExamples(basePath: string): ListPetsExamples {
  const examples: ListPetsExamples = {
    parameters: { limit: parameterExamples('limit'), status: parameterExamples('status'), after: parameterExamples('after') },
    success: {},
    links: {},
    rejected: {},
  };
  for (const [key, request] of Object.entries(LIST_REQUESTS)) {
    const { summary, query } = request;
    const rejection = listRejection(query);
    if (rejection !== undefined) {
      examples.rejected[key] = errorExample(summary, rejection, requestDescription(basePath, refusedListRequest(key, request)));
      continue;
    }
    const wanted = validateListQuery(query);
    const matching = STORED_PETS.filter((pet) => pet.id > wanted.after && (wanted.status === undefined || pet.status === wanted.status));
    const pets = matching.slice(0, wanted.limit);
    examples.success[key] = { summary, value: pets.map(petValue) };
    const last = pets.at(-1);
    if (matching.length > wanted.limit && last !== undefined) {
      // The order server/core/operations.ts writes them in.
      const next = `${basePath}/pets?limit=${wanted.limit}&after=${last.id}${wanted.status === undefined ? '' : `&status=${wanted.status}`}`;
      examples.links[key] = { summary: 'The next page: the same query after the last id of this one', value: `<${next}>; rel="next"` };
    }
  }
  return examples;
}

/** Request bodies of `createPet` [spec 4.2]; the engine's validator decides which are accepted and words the refusals. */
const CREATE_REQUESTS: Readonly<Record<string, { summary: string; body: JsonValue }>> = {
  valid: { summary: 'A NewPet with every field', body: { name: 'Bella', categoryId: 2, status: 'pending' } },
  withoutStatus: { summary: 'A NewPet without status, which then stays absent: there is no default', body: { name: 'Milo', categoryId: 1 } },
  missingName: { summary: 'Without the required name', body: { categoryId: 1, status: 'available' } },
  wrongStatus: { summary: 'A status that is not a PetStatus (the values are case-sensitive)', body: { name: 'Rex', categoryId: 1, status: 'Available' } },
  severalProblems: { summary: 'Three problems at once, each listed in details: an id, an empty name, a categoryId sent as a string', body: { id: 7, name: '', categoryId: '1' } },
  withKey: { summary: 'A NewPet sent with an Idempotency-Key, so that repeating the request cannot add a second animal', body: { name: 'Coco', categoryId: 4, status: 'available' } },
};

/** The key of the `withKey` example: a fresh UUID as a Structured Field String, as the draft writes it. */
const EXAMPLE_IDEMPOTENCY_KEY = '"8e03978e-40d5-43e8-bc93-6894a57f9324"';

/** An `Idempotency-Key` that is not a Structured Field String: its closing quote is missing. */
const MALFORMED_IDEMPOTENCY_KEY = '"8e03978e-40d5';

/** A body of CREATE_REQUESTS as a RefusedRequest. */
function refusedCreateRequest(key: string, summary: string, body: JsonValue): RefusedRequest {
  return { operationId: 'createPet', key, summary, method: 'POST', target: '/pets', parameters: {}, body };
}

/** The examples of `createPet` [spec 4.2]: the bodies, their answers, and the answers a JSON body cannot provoke. */
export interface CreatePetExamples extends Answers {
  requestBody: Examples;
  /** The `Location` of each pet created. */
  locations: HeaderExamples;
  invalidJson: Examples;
  payloadTooLarge: Examples;
  unsupportedMediaType: Examples;
  /** The `Idempotency-Key` the `withKey` request sends. */
  idempotencyKeys: Examples;
  /** The `Idempotent-Replayed` of the replayed answer. */
  replayedMarks: HeaderExamples;
  invalidKey: Examples;
  keyInFlight: Examples;
  /** The `Retry-After` of the 409. */
  retryAfter: HeaderExamples;
  keyReused: Examples;
  unsupported: Examples;
  insufficientStorage: Examples;
}

/** The examples of `createPet` [spec 4.2]: each body, and the Pet or Error it gets, in the store of EXAMPLE_PETS. */
export function createPetExamples(basePath: string, bodyLimit: number): CreatePetExamples {
  const examples: CreatePetExamples = {
    requestBody: {},
    success: {},
    locations: {},
    rejected: {},
    invalidJson: single('emptyBody', 'An empty body', new PetstoreError('invalid_json', `${CREATE_ACTION}: the body is empty; send a JSON object`)),
    payloadTooLarge: single('tooLarge', `A body larger than ${bodyLimit} bytes`, new PetstoreError('payload_too_large', `${CREATE_ACTION}: the body must be at most ${bodyLimit} bytes`)),
    insufficientStorage: single(
      'storeFull',
      `The store of these examples, run with a capacity of ${EXAMPLE_PETS.length} pets (--max-pets ${EXAMPLE_PETS.length}), is full`,
      overflowError({ maxPets: EXAMPLE_PETS.length }, { pets: EXAMPLE_PETS.length, bytes: 0 }, 0),
    ),
    unsupportedMediaType: single(
      'notJson',
      'Sent as Content-Type: text/plain',
      new PetstoreError('unsupported_media_type', `${CREATE_ACTION}: send the body as \`Content-Type: application/json\`, not \`text/plain\``),
    ),
    idempotencyKeys: { withKey: { summary: 'A fresh UUID as a Structured Field String', value: EXAMPLE_IDEMPOTENCY_KEY } },
    replayedMarks: { replayed: { summary: 'This answer repeats the one the first request with this key got', value: 'true' } },
    invalidKey: single(
      'malformedKey',
      `Sent with Idempotency-Key: ${MALFORMED_IDEMPOTENCY_KEY}, a quoted string without its closing quote`,
      thrownBy(() => parseIdempotencyKey({ 'idempotency-key': MALFORMED_IDEMPOTENCY_KEY })),
    ),
    keyInFlight: single('keyInFlight', 'The withKey request sent again while the first one is still being stored', keyInFlightError()),
    retryAfter: { keyInFlight: { summary: `Repeat the request after ${IN_FLIGHT_RETRY_AFTER} second`, value: String(IN_FLIGHT_RETRY_AFTER) } },
    keyReused: single('keyReused', 'The valid body sent with the key the withKey request already used', keyReusedError(NEXT_ID)),
    unsupported: single('idempotencyUnsupported', 'The withKey request to a server whose storage has no insertOnce, such as a custom storage written before idempotency keys', idempotencyUnsupportedError()),
  };
  for (const [key, { summary, body }] of Object.entries(CREATE_REQUESTS)) {
    const rejection = rejectionOf(() => validateNewPet(body));
    if (rejection !== undefined) {
      examples.rejected[key] = errorExample(summary, rejection, requestDescription(basePath, refusedCreateRequest(key, summary, body)));
      continue;
    }
    examples.requestBody[key] = { summary, value: body };
    examples.success[key] = { summary: `${summary}: stored under the next id`, value: petValue(freezePet(NEXT_ID, validateNewPet(body))) };
    examples.locations[key] = { summary: 'Where the new animal is', value: `${basePath}/pets/${NEXT_ID}` };
  }
  const { withKey } = CREATE_REQUESTS;
  if (withKey !== undefined) {
    examples.success['replayed'] = { summary: 'The withKey request sent again with the same key and body: the animal it added, not a new one', value: petValue(freezePet(NEXT_ID, validateNewPet(withKey.body))) };
    examples.locations['replayed'] = { summary: 'Where the animal the first request added is', value: `${basePath}/pets/${NEXT_ID}` };
  }
  return examples;
}

/** The pet `getPet` finds, and an id no pet of EXAMPLE_PETS has. */
const FOUND_PET = freezePet(1, FIRST_PET);
const UNKNOWN_ID = 999;

/** Values of `petId` [spec 4.3], keyed like the `getPet` answers they get. */
export const PET_ID_EXAMPLES: Examples = {
  found: { summary: 'An animal that exists', value: FOUND_PET.id },
  unknownId: { summary: 'An id no animal has', value: UNKNOWN_ID },
};

/** A `petId` that is not a decimal integer, which `getPet` refuses. */
const REFUSED_PET_ID: RefusedRequest = { operationId: 'getPet', key: 'notInteger', summary: 'Not a decimal integer', method: 'GET', target: '/pets/abc', parameters: { petId: 'abc' } };

/** The examples of `getPet` [spec 4.3]: the Pet or Error each `petId` of PET_ID_EXAMPLES gets, and the refused one's. */
export interface GetPetExamples extends Answers {
  notFound: Examples;
}

/** The answers `getPet` gives each `petId` of PET_ID_EXAMPLES, and the one it refuses. */
export function getPetExamples(basePath: string): GetPetExamples {
  const notInteger = new PetstoreError('invalid_parameter', `${GET_ACTION}: \`petId\` must be a decimal integer, not "abc"`);
  return {
    success: { found: { summary: 'An animal that exists', value: petValue(FOUND_PET) } },
    rejected: { [REFUSED_PET_ID.key]: errorExample(REFUSED_PET_ID.summary, toErrorBody(notInteger), requestDescription(basePath, REFUSED_PET_ID)) },
    notFound: single('unknownId', 'An id no animal has', new PetstoreError('not_found', `Pet ${UNKNOWN_ID} was not found`)),
  };
}

/** Every request of the examples that the server refuses with a 400, in the order of the operations: kept out of the request examples, each described in its answer's example. */
export function refusedRequests(): RefusedRequest[] {
  const list = Object.entries(LIST_REQUESTS).filter(([, { query }]) => listRejection(query) !== undefined).map(([key, request]) => refusedListRequest(key, request));
  const create = Object.entries(CREATE_REQUESTS)
    .filter(([, { body }]) => rejectionOf(() => validateNewPet(body)) !== undefined)
    .map(([key, { summary, body }]) => refusedCreateRequest(key, summary, body));
  return [...list, ...create, REFUSED_PET_ID];
}

/** The body of `getOpenApiDescription`, abridged to what its schema describes. */
export const DESCRIPTION_EXAMPLES: Examples = {
  abridged: {
    summary: 'This document, abridged to its version, title and one path',
    value: { openapi: '3.1.0', info: { title: 'Petstore', version: INTERFACE_VERSION }, paths: { '/pets/{petId}': {} } },
  },
};

/** The Error codes of the responses no operation owns. */
export type SharedErrorCode = 'not_found' | 'method_not_allowed' | 'bad_request' | 'request_timeout' | 'expectation_failed' | 'headers_too_large';

/** The Error examples of the responses no operation owns (`components.responses`), by code. */
export function sharedErrorExamples(basePath: string): Record<SharedErrorCode, Examples> {
  return {
    not_found: single(
      'unknownPath',
      `GET ${basePath}/store/orders, a path the spec names but does not describe [spec 4.4]`,
      new PetstoreError('not_found', `There is no resource at ${JSON.stringify(`${basePath}/store/orders`)}`),
    ),
    method_not_allowed: single('deletePets', `DELETE ${basePath}/pets`, new PetstoreError('method_not_allowed', `DELETE is not allowed here; allowed: ${allowOf('/pets')}`)),
    bad_request: single('malformedRequest', 'A request line that is not HTTP: GARBAGE', new PetstoreError('bad_request', 'The request is not valid HTTP/1.1 (HPE_INVALID_METHOD)')),
    request_timeout: single(
      'requestTimeout',
      `Request headers that did not arrive within 10 s (${NOT_REPLAYABLE}: it takes a silent client)`,
      new PetstoreError('request_timeout', 'The request was not received in time'),
    ),
    expectation_failed: single('unknownExpectation', 'Sent with Expect: teapot', new PetstoreError('expectation_failed', 'Only `Expect: 100-continue` is supported, not "teapot"')),
    headers_too_large: single('headersTooLarge', 'Request headers of more than 16 KiB', new PetstoreError('headers_too_large', 'The request headers are too large')),
  };
}
