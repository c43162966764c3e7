import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET, MAX_LIMIT, MIN_LIMIT, PetstoreError } from '../../lib/index.js';
import type { CreatePetOutcome, ListPetsQuery, NewPet, Petstore } from '../../lib/index.js';
import { readJsonBody } from './request.js';
import { parseIdempotencyKey, replayHeaders, withRetryAfter } from './idempotency-key.js';
import { PageJsonCache, PetJsonCache } from './pet-json.js';
import { jsonResponse } from './response.js';
import type { BareResponse, HeaderList } from './response.js';
import type { InterfaceState, OperationCall, Route } from './router.js';

/**
 * The interface's routes [spec 4]: each method names the function that answers it. The core
 * matches requests against this table (with the routes of its plug-ins after it), and `Allow`,
 * `OPTIONS` and the 405s derive from it.
 */
export const ROUTES: readonly Route[] = [
  { path: '/pets', operations: { GET: { name: 'listPets', run: listPets }, POST: { name: 'createPet', run: createPet } }, isPublic: false },
  // [spec 4.3] deprecated: every answer of getPet, errors included, says so.
  { path: '/pets/{petId}', operations: { GET: { name: 'getPet', run: getPet, headers: deprecationHeaders } }, isPublic: false },
];

/** The state the interface's operations share in one core: the store, the body limit and the JSON caches. */
export function createInterfaceState(store: Petstore, bodyLimit: number, jsonCacheSize: number | undefined): InterfaceState {
  const json = new PetJsonCache(jsonCacheSize);
  return { store, bodyLimit, json, pages: new PageJsonCache(json) };
}

/** listPets [spec 4.1]: one page of pets, with a `Link` to the next when more match. */
async function listPets(call: OperationCall): Promise<BareResponse> {
  const page = await call.state.store.listPetsPage(parseListQuery(call.query));
  const { next, query } = page;
  const body = call.state.pages.body(`${query.status ?? ''}:${query.after}:${query.limit}`, page.pets, next !== undefined);
  return jsonResponse(200, body, next === undefined ? NO_HEADERS : nextPageLink(call.publicBase, next));
}

/** createPet [spec 4.2]: the body read and checked as JSON, the pet stored, 201 with its `Location`. */
async function createPet(call: OperationCall): Promise<BareResponse> {
  // Checked before the body is read, as every check on the request's head [draft-ietf-httpapi-idempotency-key-header-07 §2.7].
  const idempotencyKey = parseIdempotencyKey(call.request.headers, call.state.holdsKey);
  // The engine validates what it is given at run time (with the same errors), so the body goes in as it was parsed.
  const input = await readJsonBody(call.request, { limit: call.state.bodyLimit, action: CREATE_ACTION }) as NewPet;
  let outcome: CreatePetOutcome;
  try {
    outcome = await call.state.store.createPetOutcome(input, idempotencyKey === undefined ? undefined : { idempotencyKey });
  } catch (error) {
    // A catch rather than .catch(): one promise fewer on every create.
    return withRetryAfter(error);
  }
  const { pet } = outcome;
  // Not kept in the cache: a pet just created is not read more than others, and every create would churn it.
  return jsonResponse(201, JSON.stringify(pet), ['Location', `${call.publicBase}/pets/${pet.id}`, ...replayHeaders(outcome)]);
}

/** getPet [spec 4.3, deprecated]: the pet whose id the path names. */
async function getPet(call: OperationCall): Promise<BareResponse> {
  const id = parseDecimalInteger(call.parameter);
  if (id === undefined) {
    throw new PetstoreError('invalid_parameter', `Cannot get pet: \`petId\` must be a decimal integer, not ${JSON.stringify(call.parameter.slice(0, 50))}`);
  }
  return jsonResponse(200, call.state.json.pet(await call.state.store.getPet(id)));
}

/** RFC 8288: the link to the page after this one; the body stays the spec's plain array [spec 4.1]. */
function nextPageLink(publicBase: string, next: { limit: number; after: number; status?: string | undefined }): HeaderList {
  const status = next.status === undefined ? '' : `&status=${next.status}`;
  return ['Link', `<${publicBase}/pets?limit=${next.limit}&after=${next.after}${status}>; rel="next"`];
}

const NO_HEADERS: HeaderList = [];
const CREATE_ACTION = 'Cannot create pet';

/**
 * The headers of the deprecated `getPet` [spec 4.3]: when it was deprecated (RFC 9745), when it goes
 * (RFC 8594), and its successor; kept for the last base seen, as a core has one.
 */
function deprecationHeaders(publicBase: string): HeaderList {
  if (publicBase !== lastDeprecation.publicBase) {
    const headers = ['Deprecation', `@${GET_PET_DEPRECATED_AT}`, 'Sunset', GET_PET_SUNSET, 'Link', `<${publicBase}/pets>; rel="successor-version"`];
    lastDeprecation = { publicBase, headers };
  }
  return lastDeprecation.headers;
}
let lastDeprecation: { publicBase: string; headers: HeaderList } = { publicBase: '', headers: NO_HEADERS };

/** A decimal integer as the interface accepts it in paths and queries: optional minus, digits only. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * The number a decimal integer text stands for, or undefined when the text is not one. Every such
 * text is an integer, however long: past the largest number it saturates at ±Number.MAX_VALUE, so
 * it still compares as the integer it is (the engine clamps a limit and refuses an id beyond ±2^53).
 */
function parseDecimalInteger(text: string): number | undefined {
  if (!DECIMAL_INTEGER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : Math.sign(value) * Number.MAX_VALUE;
}

function invalid(name: string, problem: string): PetstoreError {
  return new PetstoreError('invalid_parameter', `Cannot list pets: query parameter \`${name}\` ${problem}`);
}

function decode(text: string): string | undefined {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** What the query string of `GET /pets` says, as values: the engine's validator decides what they may be. */
type ListQueryValues = Record<keyof ListPetsQuery, unknown>;

/**
 * Turns the query string of `GET /pets` [spec 4.1] into values without building a URL object:
 * `limit` and `after` must be decimal integers, `status` text; an empty, malformed or repeated one is
 * a 400 naming it. Unknown parameters are ignored. Membership, clamping and ranges are the engine's.
 */
function parseListQuery(queryString: string): Partial<ListQueryValues> {
  const query: Partial<ListQueryValues> = {};
  let start = 0;
  while (start < queryString.length) {
    const found = queryString.indexOf('&', start);
    const end = found === -1 ? queryString.length : found;
    readParameter(query, queryString.slice(start, end));
    start = end + 1;
  }
  return query;
}

/** Reads one `name=value` pair into the query, if it names a parameter of listPets. */
function readParameter(query: Partial<ListQueryValues>, pair: string): void {
  const equals = pair.indexOf('=');
  const name = decode(equals === -1 ? pair : pair.slice(0, equals));
  if (name !== 'limit' && name !== 'status' && name !== 'after') return;
  if (query[name] !== undefined) throw invalid(name, 'is given more than once');
  const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
  if (value === undefined) throw invalid(name, 'is not valid percent-encoding');
  if (value.length === 0) throw invalid(name, 'is empty');
  if (name === 'status') {
    query.status = value;
    return;
  }
  const number = parseDecimalInteger(value);
  const expected = name === 'limit' ? `a decimal integer (${MIN_LIMIT} to ${MAX_LIMIT}; others are clamped)` : 'a decimal integer pet id';
  if (number === undefined) throw invalid(name, `must be ${expected}`);
  query[name] = number;
}
