import { MAX_LIMIT, MIN_LIMIT, PetstoreError } from '../../lib/index.js';
import type { ListPetsQuery } from '../../lib/index.js';

/** A decimal integer as the interface accepts it in paths and queries: optional minus, digits only. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * The number a decimal integer text stands for, or undefined when the text is not one. Every such
 * text is an integer, however long: past the largest number it saturates at ±Number.MAX_VALUE, so
 * it still compares as the integer it is (the engine clamps a limit and refuses an id beyond ±2^53).
 */
export function parseDecimalInteger(text: string): number | undefined {
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
export function parseListQuery(queryString: string): Partial<ListQueryValues> {
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
  if (number === undefined) throw invalid(name, name === 'limit' ? `must be a decimal integer (${MIN_LIMIT} to ${MAX_LIMIT}; others are clamped)` : 'must be a decimal integer pet id');
  query[name] = number;
}
