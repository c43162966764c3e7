import { MAX_LIMIT } from '../../lib/index.js';
import type { Pet } from '../../lib/index.js';
import type { Random } from './prng.js';
import { percentEncodeSome } from './requests.js';

/** What a request must get: a status and, for errors, the Error code; `anyOf` when either of two answers is right. */
export interface TargetVerdict {
  status: number;
  code?: string;
  /** For `GET /v1/pets`: the ids the page must hold, and whether a next page exists. */
  page?: { ids: number[]; hasNext: boolean };
  /** For `GET /v1/pets/{petId}`: the id of the pet returned. */
  petId?: number;
  /** A second acceptable verdict (e.g. when Node's parser may reject a byte the spec would accept). */
  orElse?: TargetVerdict;
}

/** The head of a request (request line and headers) beyond which Node answers 431 [Node's default --max-http-header-size]. */
export const MAX_HEAD_BYTES = 16_384;

/** Characters Node's parser refuses in a request target: the request is a 400 `bad_request` before any handler runs. */
const UNSAFE_CHARACTERS = ['\u0000', '\u0001', '\u001f', '\u007f', '\t', 'é', '\u0080', '\u00ff', '١'];

/**
 * Whether a request target holds a byte outside visible ASCII, which Node's parser refuses (400
 * `bad_request`). Spaces are never generated: a trailing one merely widens the request line's gap.
 */
function hasUnsafeByte(target: string): boolean {
  return target.length === 0 || /[^\x21-\x7e]/.test(target);
}

const LIST_NAMES = ['limit', 'status', 'after'] as const;
type ListName = (typeof LIST_NAMES)[number];

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

const DECIMAL = /^-?[0-9]+$/;

function digits(random: Random, length: number): string {
  let text = String(random.between(1, 9));
  while (text.length < length) text += String(random.below(10));
  return text;
}

function integerValue(random: Random): string {
  switch (random.below(12)) {
    case 0: return '0';
    case 1: return `-${random.between(1, 200)}`;
    case 2: return `00${random.between(0, 150)}`;
    case 3: return digits(random, random.pick([17, 30, 400]));
    case 4: return `-${digits(random, random.pick([17, 30]))}`;
    case 5: return '-0';
    case 6: return String(Number.MAX_SAFE_INTEGER + random.below(3));
    default: return String(random.between(1, 160));
  }
}

const BAD_VALUES = ['', '1.5', '1e3', 'abc', '+5', '%2B5', '%205', '5%20', '0x10', '-', '--1', '%zz', '%', '%e9', '%C3%A9', '%00', '١٢', '%D9%A1', 'null', '[]', 'true', '5;', '5,6', '\'5\'', '"5"', '{', '%25'];
const STATUS_VALUES = ['available', 'pending', 'sold', '%73old', 'av%61ilable', 'Available', 'SOLD', 'sold+', 'sold%20', '', 'unknown', 'sold%00', '%e9', 'pending,sold', 'sold&'];

function valueFor(name: string, random: Random): string {
  if (name === 'status') return random.chance(0.85) ? random.pick(STATUS_VALUES) : random.pick(BAD_VALUES);
  if (name === 'limit' || name === 'after') return random.chance(0.75) ? integerValue(random) : random.pick(BAD_VALUES);
  return random.pick(['1', 'x', '', '%zz', 'a%20b']);
}

function nameFor(random: Random): string {
  const name = random.chance(0.8) ? random.pick(LIST_NAMES) : random.pick(['foo', 'Limit', 'STATUS', 'limit[]', 'limit+', 'page', '', 'offset', '%zz', 'li%6Dit', 'st%61tus', '%61fter', 'limit%00', 'after%20']);
  return random.chance(0.1) ? percentEncodeSome(name, random) : name;
}

/** A fuzzed query string for `GET /v1/pets`. */
export function queryCase(random: Random): string {
  const pairs: string[] = [];
  for (let count = random.between(0, 4); count > 0; count--) {
    const name = nameFor(random);
    const form = random.below(10);
    if (form === 0) pairs.push(name);
    else if (form === 1) pairs.push(`${name}==${valueFor(name, random)}`);
    else pairs.push(`${name}=${random.chance(0.1) ? percentEncodeSome(valueFor(name, random), random) : valueFor(name, random)}`);
  }
  let query = pairs.join(random.chance(0.9) ? '&' : '&&');
  if (random.chance(0.05)) query += '&';
  if (random.chance(0.03)) query = `&${query}`;
  if (random.chance(0.03)) query += `&pad=${'x'.repeat(random.pick([2_000, 8_000, 20_000]))}`;
  if (random.chance(0.03)) query += random.pick(UNSAFE_CHARACTERS);
  return query;
}

/** The listing the interface promises for a query string, judged from the rules of issue 3 [spec 4.1]. */
export function queryVerdict(query: string, pets: readonly Pet[]): TargetVerdict {
  if (hasUnsafeByte(`/v1/pets?${query}`)) return { status: 400, code: 'bad_request' };
  if (query.length + 200 > MAX_HEAD_BYTES) return { status: 431, code: 'headers_too_large' };
  const seen = new Set<ListName>();
  let limit = 20;
  let status: string | undefined;
  let after = 0;
  const invalid: TargetVerdict = { status: 400, code: 'invalid_parameter' };
  if (query.length > 0) {
    for (const pair of query.split('&')) {
      const equals = pair.indexOf('=');
      const name = decode(equals === -1 ? pair : pair.slice(0, equals));
      if (name !== 'limit' && name !== 'status' && name !== 'after') continue;
      if (seen.has(name)) return invalid;
      seen.add(name);
      const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
      if (value === undefined || value === '') return invalid;
      if (name === 'status') {
        if (value !== 'available' && value !== 'pending' && value !== 'sold') return invalid;
        status = value;
      } else if (!DECIMAL.test(value)) {
        return invalid;
      } else if (name === 'limit') {
        limit = Math.min(MAX_LIMIT, Math.max(1, Number(value)));
      } else {
        if (!Number.isSafeInteger(Number(value))) return invalid;
        after = Math.max(0, Number(value));
      }
    }
  }
  const matching = pets.filter((pet) => pet.id > after && (status === undefined || pet.status === status)).map((pet) => pet.id).sort((a, b) => a - b);
  return { status: 200, page: { ids: matching.slice(0, limit), hasNext: matching.length > limit } };
}

/** One fuzzed request target and method. */
export interface TargetCase {
  method: string;
  target: string;
  authorization: string | undefined;
}

const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'];
const PREFIXES = ['/v1', '/v1', '/v1', '/v1', '//v1', '/v1/', '/V1', '/v2', '/v10', '', '/v1/.', '/v1/..', '/./v1', '/v1%2F', '/%76%31', 'http://127.0.0.1/v1', 'HTTP://x:8080/v1', 'https://x/v1', '/healthz', '*', '/v1pets', '/v1;x'];
const ROUTES = ['/pets', '/pets', '/pets', '/pets/{id}', '/pets/{id}', '/pets/{id}', '/pets/', '/pets/{id}/', '//pets', '/pets/..', '/pets/./{id}', '/pets/{id}/x', '/pets%2F{id}', '/Pets', '/pets;x', '/pets#x', '/pets?limit=1', '/pets/{id}?x=1', '', '/', '/pets.json', '/pets/{id}%00', '/pets?', '/pets/{id}#frag'];

function idFor(random: Random, knownIds: readonly number[]): string {
  switch (random.below(16)) {
    case 0: return '0';
    case 1: return '-1';
    case 2: return `00${random.pick(knownIds)}`;
    case 3: return '-0';
    case 4: return `%3${random.between(1, 9)}`;
    case 5: return random.pick(['1.0', '1e2', '0x1', 'NaN', 'Infinity', '+1', '%2B1', '..', '.', '%F0%9F%90%95', 'null', '%00', '%20', '1%20']);
    case 6: return digits(random, random.pick([16, 17, 30, 5_000]));
    case 7: return String(Number.MAX_SAFE_INTEGER + random.below(3));
    case 8: return String(random.between(1_000_000, 2_000_000));
    case 9: return random.pick(UNSAFE_CHARACTERS);
    case 10: return 'a'.repeat(random.pick([100, 20_000]));
    default: return String(random.pick(knownIds));
  }
}

/** A fuzzed method and request target. */
export function targetCase(random: Random, apiKey: string, knownIds: readonly number[]): TargetCase {
  let target = `${random.pick(PREFIXES)}${random.pick(ROUTES)}`.replace('{id}', idFor(random, knownIds));
  // Origin-form only, past its first `/`: an encoded `/` or scheme is no longer a request target at all.
  if (target.startsWith('/') && random.chance(0.05)) target = `/${percentEncodeSome(target.slice(1), random, 0.1)}`;
  const auth = random.below(25);
  const authorization = auth === 0 ? undefined : auth === 1 ? 'Bearer not-the-key' : `Bearer ${apiKey}`;
  return { method: random.pick(METHODS), target, authorization };
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** What a request target must get from the standalone server, judged from the rules of issue 3 [spec 4]. */
export function targetVerdict(fuzzed: TargetCase, apiKey: string, existing: ReadonlySet<number>): TargetVerdict {
  const { method, target } = fuzzed;
  if (hasUnsafeByte(target)) return { status: 400, code: 'bad_request' };
  if (target.length + 200 > MAX_HEAD_BYTES) return { status: 431, code: 'headers_too_large' };
  if (target === '/healthz' || target.startsWith('/healthz?')) {
    return method === 'GET' || method === 'HEAD' ? { status: 200 } : { status: 405, code: 'method_not_allowed' };
  }
  // The standalone server sends a browser at its root to the reference page.
  if (target === '/' || target.startsWith('/?')) {
    return method === 'GET' || method === 'HEAD' ? { status: 302 } : { status: 405, code: 'method_not_allowed' };
  }
  let url = target;
  if (!url.startsWith('/')) {
    const authority = ABSOLUTE_FORM.exec(url);
    if (authority !== null) {
      const rest = url.slice(authority[0].length);
      url = rest.startsWith('/') ? rest : `/${rest}`;
    }
  }
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (!path.startsWith('/v1') || (path.length > 3 && path[3] !== '/')) return { status: 404, code: 'not_found' };
  const below = path.slice(3);
  const isPets = below === '/pets';
  const petSegment = below.startsWith('/pets/') && below.length > 6 && below.indexOf('/', 6) === -1 ? below.slice(6) : undefined;
  const isKnown = isPets || petSegment !== undefined;
  if (method === 'OPTIONS' && isKnown) return { status: 204 };
  if (fuzzed.authorization !== `Bearer ${apiKey}`) return { status: 401, code: 'unauthorized' };
  if (!isKnown) return { status: 404, code: 'not_found' };
  const allowed = isPets ? ['GET', 'HEAD', 'POST', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS'];
  if (!allowed.includes(method)) return { status: 405, code: 'method_not_allowed' };
  if (isPets) return method === 'POST' ? { status: 201 } : { status: 200 };
  if (!DECIMAL.test(petSegment as string)) return { status: 400, code: 'invalid_parameter' };
  const id = Number(petSegment);
  return existing.has(id) ? { status: 200, petId: id } : { status: 404, code: 'not_found' };
}
