import { createPetstore } from '../../lib/index.js';
import type { NewPet, Petstore } from '../../lib/index.js';
import { API_KEY } from './http.js';

/** One request every door of the interface must answer alike. */
export interface ParityCase {
  /** What the case checks, for the test name. */
  name: string;
  method: string;
  /** The request target, path and query, as the client sends it. */
  path: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
}

/** How many pets each store holds before a case runs: more than one default page [spec 4.1: limit defaults to 20]. */
const PREFILLED_PETS = 25;

const STATUSES = ['available', 'pending', 'sold', undefined] as const;

/** The pets every store is prefilled with, ids 1 to PREFILLED_PETS, the statuses cycling and one pet without a status in four. */
function prefilledPets(): NewPet[] {
  return Array.from({ length: PREFILLED_PETS }, (_, index) => {
    const status = STATUSES[index % STATUSES.length];
    const pet: NewPet = { name: `pet ${index + 1}`, categoryId: index % 3 };
    if (status !== undefined) pet.status = status;
    return pet;
  });
}

/** A fresh in-memory store holding prefilledPets(), so every door of a case starts from the same data. */
export async function createPrefilledStore(): Promise<Petstore> {
  const store = createPetstore();
  for (const pet of prefilledPets()) await store.createPet(pet);
  return store;
}

const encoder = new TextEncoder();

/** The number of bytes of a case's body. */
function bodyLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? encoder.encode(body).length : body.length;
}

/**
 * The headers of a case as they travel on the wire: a body comes with its `Content-Length`, as a
 * client over a socket sends it and as Deno and Bun hand it to a fetch handler.
 */
export function wireHeaders(parityCase: ParityCase): Record<string, string> {
  const headers: Record<string, string> = { ...parityCase.headers };
  const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  if (parityCase.body !== undefined && !hasLength) headers['content-length'] = String(bodyLength(parityCase.body));
  return headers;
}

/** The body of a case as bytes: a fetch `Request` built from a string would add `Content-Type: text/plain` of its own. */
export function bodyBytes(parityCase: ParityCase): Uint8Array | undefined {
  const { body } = parityCase;
  return typeof body === 'string' ? encoder.encode(body) : body;
}

const AUTH = { authorization: `Bearer ${API_KEY}` };
const JSON_POST = { ...AUTH, 'content-type': 'application/json' };
/** A body just over the default limit of 65536 bytes, sent with its Content-Length. */
const OVERSIZED_BODY = JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 });

/**
 * The requests the node:http server, the fetch handler and inject() must answer byte for byte alike.
 * Two `Host` headers are left out: the fetch API keeps one value per name, so a request cannot carry them.
 * `/healthz` is left out too: it is the standalone server's own route, which the fetch handler does not serve.
 */
export const PARITY_CASES: readonly ParityCase[] = [
  { name: 'listPets, first page with Link next', method: 'GET', path: '/v1/pets', headers: AUTH },
  { name: 'listPets with a limit', method: 'GET', path: '/v1/pets?limit=5', headers: AUTH },
  { name: 'listPets clamps limit 0 to 1', method: 'GET', path: '/v1/pets?limit=0', headers: AUTH },
  { name: 'listPets clamps limit 1000 to 100', method: 'GET', path: '/v1/pets?limit=1000', headers: AUTH },
  { name: 'listPets by status', method: 'GET', path: '/v1/pets?status=sold', headers: AUTH },
  { name: 'listPets by status with a next page', method: 'GET', path: '/v1/pets?status=available&limit=2', headers: AUTH },
  { name: 'listPets after a cursor', method: 'GET', path: '/v1/pets?after=20', headers: AUTH },
  { name: 'listPets after the last pet', method: 'GET', path: '/v1/pets?after=25', headers: AUTH },
  { name: 'listPets with percent-encoded and unknown parameters', method: 'GET', path: '/v1/pets?%6Cimit=2&sort=name', headers: AUTH },
  { name: 'listPets refuses a non-integer limit', method: 'GET', path: '/v1/pets?limit=abc', headers: AUTH },
  { name: 'listPets refuses a fractional limit', method: 'GET', path: '/v1/pets?limit=1.5', headers: AUTH },
  { name: 'listPets refuses an empty limit', method: 'GET', path: '/v1/pets?limit=', headers: AUTH },
  { name: 'listPets refuses a repeated limit', method: 'GET', path: '/v1/pets?limit=1&limit=2', headers: AUTH },
  { name: 'listPets refuses an unknown status', method: 'GET', path: '/v1/pets?status=lost', headers: AUTH },
  { name: 'listPets refuses a non-integer cursor', method: 'GET', path: '/v1/pets?after=x', headers: AUTH },
  { name: 'listPets refuses bad percent-encoding', method: 'GET', path: '/v1/pets?status=%E0%A4%A', headers: AUTH },
  { name: 'createPet with a status', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '{"name":"Rex","categoryId":1,"status":"available"}' },
  { name: 'createPet without a status', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '{"name":"Tom","categoryId":2}' },
  { name: 'createPet with a charset parameter', method: 'POST', path: '/v1/pets', headers: { ...AUTH, 'content-type': 'Application/JSON; charset=utf-8' }, body: '{"name":"Äffchen 🐒","categoryId":3}' },
  { name: 'createPet refuses a missing categoryId', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '{"name":"Rex"}' },
  { name: 'createPet reports every problem at once', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '{"name":"","categoryId":1.5,"status":"lost","id":7}' },
  { name: 'createPet refuses an array', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '[]' },
  { name: 'createPet refuses broken JSON', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '{"name":' },
  { name: 'createPet refuses an empty body', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: '' },
  { name: 'createPet refuses a body that is not UTF-8', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: Uint8Array.of(0x7b, 0x22, 0xff, 0x22, 0x7d) },
  { name: 'createPet refuses text/plain', method: 'POST', path: '/v1/pets', headers: { ...AUTH, 'content-type': 'text/plain' }, body: '{"name":"Rex","categoryId":1}' },
  { name: 'createPet refuses a body without Content-Type', method: 'POST', path: '/v1/pets', headers: AUTH, body: '{"name":"Rex","categoryId":1}' },
  { name: 'createPet refuses a content coding', method: 'POST', path: '/v1/pets', headers: { ...JSON_POST, 'content-encoding': 'gzip' }, body: '{"name":"Rex","categoryId":1}' },
  { name: 'createPet refuses a body over the limit by its Content-Length', method: 'POST', path: '/v1/pets', headers: JSON_POST, body: OVERSIZED_BODY },
  { name: 'createPet without a key, body unread', method: 'POST', path: '/v1/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' },
  { name: 'getPet', method: 'GET', path: '/v1/pets/1', headers: AUTH },
  { name: 'getPet of a pet without a status', method: 'GET', path: '/v1/pets/4', headers: AUTH },
  { name: 'getPet with a percent-encoded id', method: 'GET', path: '/v1/pets/%31', headers: AUTH },
  { name: 'getPet of an unknown id', method: 'GET', path: '/v1/pets/999', headers: AUTH },
  { name: 'getPet of an id beyond 2^53', method: 'GET', path: '/v1/pets/99999999999999999999', headers: AUTH },
  { name: 'getPet refuses a non-integer id', method: 'GET', path: '/v1/pets/abc', headers: AUTH },
  { name: 'getPet refuses a signed fraction', method: 'GET', path: '/v1/pets/-1.5', headers: AUTH },
  { name: 'HEAD on listPets', method: 'HEAD', path: '/v1/pets?limit=2', headers: AUTH },
  { name: 'HEAD on getPet', method: 'HEAD', path: '/v1/pets/1', headers: AUTH },
  { name: 'HEAD on getPet of an unknown id', method: 'HEAD', path: '/v1/pets/999', headers: AUTH },
  { name: 'HEAD on the OpenAPI description', method: 'HEAD', path: '/v1/openapi.json' },
  { name: 'HEAD without a key', method: 'HEAD', path: '/v1/pets' },
  { name: 'OPTIONS on /pets', method: 'OPTIONS', path: '/v1/pets' },
  { name: 'OPTIONS on /pets/{petId}', method: 'OPTIONS', path: '/v1/pets/1' },
  { name: 'OPTIONS on the OpenAPI description', method: 'OPTIONS', path: '/v1/openapi.json' },
  { name: 'OPTIONS on an unknown path, without a key', method: 'OPTIONS', path: '/v1/nowhere' },
  { name: 'DELETE on a pet is a 405 with Allow', method: 'DELETE', path: '/v1/pets/1', headers: AUTH },
  { name: 'PUT on /pets is a 405 with Allow', method: 'PUT', path: '/v1/pets', headers: JSON_POST, body: '{}' },
  { name: 'POST on the OpenAPI description is a 405 with Allow', method: 'POST', path: '/v1/openapi.json', headers: JSON_POST, body: '{}' },
  { name: 'a request without a key is a 401', method: 'GET', path: '/v1/pets' },
  { name: 'a request with an unknown key is a 401 invalid_token', method: 'GET', path: '/v1/pets', headers: { authorization: 'Bearer not-the-key' } },
  { name: 'a request with a Basic credential is a 401', method: 'GET', path: '/v1/pets', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
  { name: 'a bearer scheme in lower case is accepted', method: 'GET', path: '/v1/pets?limit=1', headers: { authorization: `bearer ${API_KEY}` } },
  { name: 'an unknown path below /v1 is a 404', method: 'GET', path: '/v1/nowhere', headers: AUTH },
  { name: 'an unknown path below /v1, without a key, is a 401', method: 'GET', path: '/v1/nowhere' },
  { name: 'the base path itself is a 404', method: 'GET', path: '/v1', headers: AUTH },
  { name: 'a trailing slash is a 404', method: 'GET', path: '/v1/pets/', headers: AUTH },
  { name: 'a path outside /v1 is a 404', method: 'GET', path: '/v2/pets', headers: AUTH },
  { name: 'a path that only starts like /v1 is a 404', method: 'GET', path: '/v1pets' },
  // Not `/`: the standalone server redirects it to the reference page, which an embedded handler leaves to its host.
  { name: 'a path outside /v1, without a key, is a 404', method: 'GET', path: '/favicon.ico' },
  { name: 'the reference page, without a key', method: 'GET', path: '/v1/docs' },
  { name: 'HEAD on the reference page', method: 'HEAD', path: '/v1/docs' },
  { name: 'the reference page, not modified', method: 'GET', path: '/v1/docs', headers: { 'if-none-match': '*' } },
  { name: 'the interface\'s text, without a key', method: 'GET', path: '/v1/docs/interface' },
  { name: 'HEAD on the OpenAPI description, not modified', method: 'HEAD', path: '/v1/openapi.json', headers: { 'if-none-match': '*' } },
  { name: 'the OpenAPI description, with an If-None-Match that does not match', method: 'GET', path: '/v1/openapi.json', headers: { 'if-none-match': 'W/"other"' } },
  { name: 'the OpenAPI description, without a key', method: 'GET', path: '/v1/openapi.json' },
  { name: 'the OpenAPI description, with an unknown key', method: 'GET', path: '/v1/openapi.json', headers: { authorization: 'Bearer not-the-key' } },
  { name: 'a request id the client sent comes back', method: 'GET', path: '/v1/pets/1', headers: { ...AUTH, 'x-request-id': 'parity-Case_1.2:3' } },
  { name: 'a request id the client sent comes back on a 401', method: 'GET', path: '/v1/pets', headers: { 'x-request-id': 'parity-401' } },
  { name: 'a request id of 128 characters comes back', method: 'GET', path: '/v1/pets?limit=1', headers: { ...AUTH, 'x-request-id': 'i'.repeat(128) } },
  { name: 'a request id of 129 characters is replaced', method: 'GET', path: '/v1/pets?limit=1', headers: { ...AUTH, 'x-request-id': 'i'.repeat(129) } },
  { name: 'a request id with a space is replaced', method: 'GET', path: '/v1/pets?limit=1', headers: { ...AUTH, 'x-request-id': 'two words' } },
];
