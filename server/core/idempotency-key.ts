import { IN_FLIGHT_RETRY_AFTER, MAX_IDEMPOTENCY_KEY_LENGTH, PetstoreError } from '../../lib/index.js';
import type { CreatePetOutcome } from '../../lib/index.js';
import { HttpError } from './http-error.js';
import type { RequestHeaders } from './request.js';
import type { HeaderList } from './response.js';

/** The request header of an idempotent create [draft-ietf-httpapi-idempotency-key-header-07 §2], lower-cased as the core reads headers. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The response header that marks a replayed create, as Stripe names it (the draft names none). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const REPLAYED: HeaderList = [REPLAYED_HEADER, 'true'];
const NOT_REPLAYED: HeaderList = [];

/** Characters of an unquoted key: RFC 9110 §5.6.2 tchar plus `:` and `/`, as in an sf-token [RFC 8941 §3.3.4], with any of them first. */
const BARE_KEY = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]+$/;

const EXAMPLE = 'such as `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`';

function invalidKey(problem: string): PetstoreError {
  return new PetstoreError('invalid_idempotency_key', `Cannot create pet: \`Idempotency-Key\` ${problem}`);
}

/** The length check shared by both forms: the key as the storage keeps it, 1 to MAX_IDEMPOTENCY_KEY_LENGTH characters. */
function bounded(key: string): string {
  if (key.length === 0) throw invalidKey(`must not be empty; send 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, ${EXAMPLE}`);
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw invalidKey(`must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters long (it has ${key.length}); a UUID has 36`);
  }
  return key;
}

/**
 * A Structured Field String [RFC 8941 §4.2.5] starting at the value's first character: printable
 * ASCII between double quotes, where only `\"` and `\\` are escapes. Anything after the closing
 * quote (a second value of a repeated header, or parameters) is refused.
 */
function parseQuotedKey(value: string): string {
  let key = '';
  for (let index = 1; index < value.length; index++) {
    const character = value[index] as string;
    const code = value.charCodeAt(index);
    if (character === '\\') {
      const next = value[index + 1];
      if (next !== '"' && next !== '\\') throw invalidKey('is a quoted string in which a backslash may only escape `"` or `\\`');
      key += next;
      index++;
    } else if (character === '"') {
      const rest = value.slice(index + 1);
      if (rest === '') return bounded(key);
      if (/^[ \t]*,/.test(rest)) throw invalidKey('must be sent once; this request carries the header more than once');
      throw invalidKey(`must be one quoted string and nothing after it, ${EXAMPLE}`);
    } else if (code < 0x20 || code > 0x7e) {
      throw invalidKey('may contain only printable ASCII characters (0x20 to 0x7E)');
    } else {
      key += character;
    }
  }
  throw invalidKey(`is a quoted string without its closing quote, ${EXAMPLE}`);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * The key of the common form, a quoted string without escapes and nothing around it (as the typed
 * client sends a UUID), read in one pass; undefined for any other value, which parseQuotedKey or the
 * bare form then reads (and refuses with its reason). The key is a copy of its own in two pieces,
 * which the engine's check flattens: a slice would keep the whole header value alive as long as the
 * storage keeps the key.
 */
function plainQuotedKey(raw: string): string | undefined {
  const last = raw.length - 1;
  if (last < 1 || raw.charCodeAt(0) !== 0x22 || raw.charCodeAt(last) !== 0x22) return undefined;
  for (let index = 1; index < last; index++) {
    const code = raw.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return undefined;
  }
  const middle = Math.min(13, last);
  return raw.slice(1, middle) + raw.slice(middle, last);
}

/**
 * The key of `Idempotency-Key`, or undefined when the request has none
 * [draft-ietf-httpapi-idempotency-key-header-07 §2.1]. The draft's form is a Structured Field String
 * (`"…"`); an unquoted key made of token characters is accepted too, and means the same key as its
 * quoted form (decided: Stripe's clients send it bare). An empty, malformed, too long or repeated
 * key, or one holding a run of an API key (`holdsKey`, the keyring's), is an `invalid_idempotency_key` PetstoreError.
 */
export function parseIdempotencyKey(headers: RequestHeaders, holdsKey?: (key: string) => boolean): string | undefined {
  const raw = headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw invalidKey('must be sent once; this request carries the header more than once');
  const key = bounded(plainQuotedKey(raw) ?? parseOtherKey(raw));
  if (holdsKey?.(key) === true) {
    throw invalidKey('holds an API key or a long part of one, and keys are stored with their pets; send a fresh random key, such as a UUID');
  }
  return key;
}

/** A key in any form but the plain quoted one. */
function parseOtherKey(raw: string): string {
  // RFC 8941 §4.2: leading and trailing spaces are not part of the value.
  const value = isSpace(raw.charCodeAt(0)) || isSpace(raw.charCodeAt(raw.length - 1)) ? raw.replace(/^[ \t]+|[ \t]+$/g, '') : raw;
  if (value.startsWith('"')) return parseQuotedKey(value);
  if (value === '') return bounded(value);
  if (value.includes(',')) throw invalidKey('must be sent once; this request carries the header more than once');
  if (!BARE_KEY.test(value)) {
    throw invalidKey(`must be a quoted string, ${EXAMPLE}; unquoted, it may contain only letters, digits and !#$%&'*+-.^_\`|~:/`);
  }
  return bounded(value);
}

/** The headers that mark a create's answer as a replay of an earlier create with the same key; none otherwise. */
export function replayHeaders(outcome: CreatePetOutcome): HeaderList {
  return outcome.isReplay ? REPLAYED : NOT_REPLAYED;
}

/**
 * The engine's 409 for a key in flight, with the `Retry-After` the draft asks of it (§2.7) [RFC 9110
 * §10.2.3]; any other failure passes through as it is.
 */
export function withRetryAfter(error: unknown): never {
  if (error instanceof PetstoreError && error.code === 'idempotency_key_in_use') {
    throw new HttpError(error.code, error.message, { cause: error, headers: ['Retry-After', String(IN_FLIGHT_RETRY_AFTER)] });
  }
  throw error;
}
