import { MAX_LIMIT, MIN_LIMIT, PetstoreError, clampLimit, isPetStatus } from '../lib/index.js';
import type { ListPetsQuery } from '../lib/index.js';

/** A decimal integer as the interface accepts it in paths and queries: optional minus, digits only. */
export const DECIMAL_INTEGER = /^-?[0-9]+$/;

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

/**
 * Parses the query string of `GET /pets` [spec 4.1] without building a URL object. `limit` and
 * `after` are decimal integers (`limit` clamped to 1..100), `status` one of PetStatus; an empty,
 * malformed or repeated one is a 400 naming it. Unknown parameters are ignored.
 */
export function parseListQuery(queryString: string): ListPetsQuery {
  const query: ListPetsQuery = {};
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
function readParameter(query: ListPetsQuery, pair: string): void {
  const equals = pair.indexOf('=');
  const name = decode(equals === -1 ? pair : pair.slice(0, equals));
  if (name !== 'limit' && name !== 'status' && name !== 'after') return;
  if (query[name] !== undefined) throw invalid(name, 'is given more than once');
  const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
  if (value === undefined) throw invalid(name, 'is not valid percent-encoding');
  if (value.length === 0) throw invalid(name, 'is empty');
  if (name === 'status') {
    if (!isPetStatus(value)) throw invalid(name, `must be one of \`available\`, \`pending\`, \`sold\`, not ${JSON.stringify(value.slice(0, 50))}`);
    query.status = value;
  } else if (!DECIMAL_INTEGER.test(value)) {
    throw invalid(name, name === 'limit' ? `must be a decimal integer (${MIN_LIMIT} to ${MAX_LIMIT}; others are clamped)` : 'must be a decimal integer pet id');
  } else if (name === 'limit') {
    // Any length of digits is an integer; beyond 2^53 Number() gives ±Infinity, which clamps too.
    query.limit = clampLimit(Number(value));
  } else {
    const after = Number(value);
    if (!Number.isSafeInteger(after)) throw invalid(name, `must be within ±${Number.MAX_SAFE_INTEGER}`);
    query.after = after;
  }
}
