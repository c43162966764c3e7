import { errorResponse } from './error-response.js';
import { HttpError } from './http-error.js';
import type { BareResponse } from './response.js';
import { describeError } from './log.js';
import type { Logger } from './log.js';

/**
 * The keys a core accepts: a list, or a function asked on every authenticated request, so keys can
 * rotate without a restart. The function returns a new array to change them: the same array (by
 * identity) is taken as unchanged, so asking costs one call and one comparison; a new array with
 * the same keys costs a comparison of the keys, and no new digests.
 */
export type ApiKeys = readonly string[] | (() => readonly string[]);

/** The keys of one core, which may change while it serves. */
export interface Keyring {
  /** Checks an `Authorization` header against the keys in force now. */
  authenticate(authorization: string | undefined): AuthVerdict;
  /** Whether a client's text (a request id, an idempotency key) holds a run of a key in force (`keyScanner`): it is then never echoed, logged or stored. */
  holdsKey(text: string): boolean;
}

/** Whether a value is a list of the same keys in the same order. */
function isSameList(keys: unknown, inForce: readonly string[]): boolean {
  return Array.isArray(keys) && keys.length === inForce.length && inForce.every((key, index) => keys[index] === key);
}

/**
 * Creates the keys of a core. The first list must be usable (a TypeError naming `caller` otherwise).
 * A later list from the function that is not usable, or a function that throws, keeps the keys in
 * force and is reported through `log` once (never quoting a key); the same refused array is not
 * reported again.
 */
export function createKeyring(caller: string, apiKeys: ApiKeys, log: Logger | undefined): Keyring {
  const source = typeof apiKeys === 'function' ? apiKeys : undefined;
  let inForce = typeof apiKeys === 'function' ? apiKeys() : apiKeys;
  checkApiKeys(caller, inForce);
  let authenticate = createAuthenticator(inForce);
  let holdsKey = keyScanner(inForce);
  let refused: readonly string[] | undefined;
  let isSourceFailing = false;

  function refresh(ask: () => readonly string[]): void {
    let keys: readonly string[];
    try {
      keys = ask();
    } catch (error) {
      if (!isSourceFailing) log?.({ level: 'warn', msg: 'The API keys function failed; the keys in force stay', error: describeError(error) });
      isSourceFailing = true;
      return;
    }
    isSourceFailing = false;
    if (keys === inForce || keys === refused) return;
    if (isSameList(keys, inForce)) {
      inForce = keys;
      return;
    }
    const problem = apiKeysProblem(keys);
    if (problem !== undefined) {
      refused = keys;
      log?.({ level: 'warn', msg: 'The API keys function returned a list that cannot be used; the keys in force stay', problem });
      return;
    }
    inForce = keys;
    authenticate = createAuthenticator(inForce);
    holdsKey = keyScanner(inForce);
    log?.({ level: 'debug', msg: 'API keys changed', keys: inForce.length });
  }

  return {
    authenticate(authorization) {
      if (source !== undefined) refresh(source);
      return authenticate(authorization);
    },
    holdsKey(text) {
      if (source !== undefined) refresh(source);
      return holdsKey(text);
    },
  };
}

/** The run of a key a client's text may not hold: 12 characters, fewer than any key has (decided: docs/idempotency.md). */
export const KEY_RUN = 12;

/**
 * Whether a text holds a run of a key: a rolling hash of each of its runs, its multiplier drawn per key
 * set so that which texts reach the check of the run itself tells an outsider nothing of a key.
 */
function keyScanner(apiKeys: readonly string[]): (text: string) => boolean {
  const run = KEY_RUN;
  const base = (globalThis.crypto.getRandomValues(new Uint32Array(1))[0] as number) | 1;
  let power = 1;
  for (let index = 0; index < run; index++) power = Math.imul(power, base);
  const eachRun = (text: string, visit: (hash: number, start: number) => boolean): boolean => {
    for (let index = 0, hash = 0; index < text.length; index++) {
      hash = (Math.imul(hash, base) + text.charCodeAt(index) - (index >= run ? Math.imul(text.charCodeAt(index - run), power) : 0)) | 0;
      if (index >= run - 1 && visit(hash >>> 16, index + 1 - run)) return true;
    }
    return false;
  };
  const marks = new Uint8Array(1 << 16);
  const runs = new Set<string>();
  for (const key of apiKeys) eachRun(key, (hash, start) => ((marks[hash] = 1), runs.add(key.slice(start, start + run)), false));
  return (text) => eachRun(text, (hash, start) => marks[hash] === 1 && runs.has(text.slice(start, start + run)));
}

/** Realm named in every `WWW-Authenticate` challenge. */
const REALM = 'petstore';

/** Challenge for a request without a usable bearer credential [spec 5; RFC 6750 §3]. */
export const MISSING_CREDENTIAL_HEADERS: readonly string[] = ['WWW-Authenticate', `Bearer realm="${REALM}"`];

/** Challenge for a bearer token that matches no key [RFC 6750 §3.1: error="invalid_token"]. */
export const INVALID_TOKEN_HEADERS: readonly string[] = ['WWW-Authenticate', `Bearer realm="${REALM}", error="invalid_token"`];

/** How many accepted header values are remembered; past it the memory is emptied and refilled. */
const VERDICT_CACHE_SIZE = 256;

/**
 * Longest bearer token (and API key) accepted, in characters (decided; RFC 6750 sets no bound): far
 * above any generated key, and a longer token is refused before it is compared, so a 16 KB guess
 * costs no more than a short one.
 */
export const MAX_TOKEN_LENGTH = 4096;

/** Longest `Authorization` value looked at: the scheme, a token of MAX_TOKEN_LENGTH and spaces around it; a longer one is not even trimmed. */
const MAX_AUTHORIZATION_LENGTH = MAX_TOKEN_LENGTH + 64;

/** The outcome of checking a request's `Authorization` header; `oversized` is a token longer than MAX_TOKEN_LENGTH, never compared. */
export type AuthVerdict = 'accepted' | 'missing' | 'invalid' | 'oversized';

/**
 * RFC 6750 §2.1: what may follow `Bearer `, the b64token (token68 in RFC 9110 §11.2): letters,
 * digits and `-._~+/`, then `=` padding. Anything else a client could not send, or not unaltered.
 */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What every key must be, for messages: never quoting the key. */
export const TOKEN68_RULE =
  'an RFC 6750 token68: letters, digits and - . _ ~ + / then = padding, with no white space, comma, "#", control or non-ASCII character';

/** Whether a key is an RFC 6750 token68, so a client can send it as `Authorization: Bearer <key>`. */
export function isToken68(key: string): boolean {
  return TOKEN68.test(key);
}

/** The fewest characters of an API key, everywhere (decided): keys are guessed as fast as 401s come back; 16 random token68 characters hold about 96 bits. */
export const MIN_API_KEY_LENGTH = 16;

/** The one check of an API key, which the doors and the command line share: a character no client can send, too short, too long, or usable (undefined). */
export function apiKeyFault(key: unknown): 'character' | 'short' | 'long' | undefined {
  if (typeof key !== 'string' || !isToken68(key)) return 'character';
  return key.length < MIN_API_KEY_LENGTH ? 'short' : key.length > MAX_TOKEN_LENGTH ? 'long' : undefined;
}

/** Why a list of keys cannot be used, or undefined when it can; the reason never quotes a key. */
export function apiKeysProblem(apiKeys: unknown): string | undefined {
  if (!Array.isArray(apiKeys)) return '`apiKeys` must be a list of keys';
  if (apiKeys.length === 0) return '`apiKeys` must list at least one key';
  const rules = {
    character: TOKEN68_RULE,
    short: `at least ${MIN_API_KEY_LENGTH} characters long, or it is easy to guess`,
    long: `at most ${MAX_TOKEN_LENGTH} characters long`,
  };
  const fault = (apiKeys as readonly unknown[]).map(apiKeyFault).find((found) => found !== undefined);
  return fault === undefined ? undefined : `every API key must be ${rules[fault]}`;
}

/** Throws a TypeError naming `caller` when a list of keys cannot be used. */
export function checkApiKeys(caller: string, apiKeys: unknown): asserts apiKeys is readonly string[] {
  const problem = apiKeysProblem(apiKeys);
  if (problem !== undefined) throw new TypeError(`${caller}: ${problem}`);
}

/** The keys as character codes, each padded with zeros to the longest key's length, and their true lengths. */
function padKeys(apiKeys: readonly string[]): { width: number; codes: Uint16Array[]; lengths: number[] } {
  const width = Math.max(...apiKeys.map((key) => key.length));
  const codes = apiKeys.map((key) => {
    const padded = new Uint16Array(width);
    for (let index = 0; index < key.length; index++) padded[index] = key.charCodeAt(index);
    return padded;
  });
  return { width, codes, lengths: apiKeys.map((key) => key.length) };
}

/**
 * Whether a token is one of the keys, compared in constant time: every key, every position up to the
 * longest key's length, differences XOR-accumulated with no early exit. The time depends on the
 * number of keys and the longest one's length (the configuration), never on where a guess differs,
 * how long it is, or which key it matched; no hash is needed.
 */
function isKnownKey(token: string, keys: ReturnType<typeof padKeys>): boolean {
  const { width, codes, lengths } = keys;
  const tokenLength = token.length;
  let matches = 0;
  for (let key = 0; key < codes.length; key++) {
    const padded = codes[key] as Uint16Array;
    let difference = tokenLength ^ (lengths[key] as number);
    for (let index = 0; index < width; index++) {
      // Past its end the token reads as zeros, as the padded keys do; its length is the guesser's own.
      difference |= (index < tokenLength ? token.charCodeAt(index) : 0) ^ (padded[index] as number);
    }
    // 1 when the difference is 0, else 0, without a branch on which key matched.
    matches |= ((difference | -difference) >>> 31) ^ 1;
  }
  return matches === 1;
}

/**
 * Checks `Authorization: Bearer <key>` headers against the configured keys [spec 5].
 *
 * A token is compared with every key in constant time (`isKnownKey`), so two keys can be valid
 * during a rotation. Header values that were accepted are remembered in a small set: a hit only ever
 * happens for a value that already proved itself, so its speed reveals nothing an attacker does not
 * already know. Rejected values are never remembered, so guesses cannot fill the set, and every
 * guess pays the full comparison.
 */
export function createAuthenticator(apiKeys: readonly string[]): (authorization: string | undefined) => AuthVerdict {
  checkApiKeys('createAuthenticator', apiKeys);
  const keys = padKeys(apiKeys);
  const accepted = new Set<string>();

  return function authenticate(authorization) {
    if (authorization === undefined) return 'missing';
    if (authorization.length > MAX_AUTHORIZATION_LENGTH) return 'oversized';
    if (accepted.has(authorization)) return 'accepted';
    // RFC 9110 §11.1: the scheme name is case-insensitive; RFC 6750 §2.1: one or more spaces follow it.
    if (authorization.length < 7 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return 'missing';
    const token = authorization.slice(7).replace(/^ +| +$/g, '');
    if (token.length === 0) return 'missing';
    if (token.length > MAX_TOKEN_LENGTH) return 'oversized';
    if (!isKnownKey(token, keys)) return 'invalid';
    if (accepted.size >= VERDICT_CACHE_SIZE) accepted.clear();
    accepted.add(authorization);
    return 'accepted';
  };
}

/** The 401 error for a verdict other than `accepted`, carrying its challenge header. */
export function authError(verdict: Exclude<AuthVerdict, 'accepted'>): HttpError {
  const message = verdict === 'missing' ? 'Send the API key as `Authorization: Bearer <API_KEY>`'
    : verdict === 'oversized' ? `The bearer token is longer than ${MAX_TOKEN_LENGTH} characters, so it is no API key; it was not checked`
      : 'The bearer token is not a valid API key';
  return new HttpError('unauthorized', message, { headers: verdict === 'missing' ? MISSING_CREDENTIAL_HEADERS : INVALID_TOKEN_HEADERS });
}

/** The 401 answers, built once: they are the most frequent answers under attack or misconfiguration. */
export const UNAUTHORIZED_RESPONSES: Readonly<Record<Exclude<AuthVerdict, 'accepted'>, BareResponse>> = {
  missing: errorResponse(authError('missing')),
  invalid: errorResponse(authError('invalid')),
  oversized: errorResponse(authError('oversized')),
};
