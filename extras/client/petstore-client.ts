import { MAX_LIMIT, PetstoreError, validateIdempotencyKey, validateNewPet } from '../../lib/index.js';
import type { CreatePetOptions as EngineCreatePetOptions, ListPetsQuery, NewPet, Pet, PetStatus, PetstoreApi } from '../../lib/index.js';
import { decodingProblem, MAX_ANSWER_BYTES, readAnswerBody } from './answer-body.js';
import { asPet, asPets, errorFromAnswer, parseJson, unexpectedAnswer } from './answers.js';
import type { AnswerSource } from './answers.js';
import { PetstoreClientError } from './client-error.js';
import type { PetstoreClientErrorOptions } from './client-error.js';
import { readDeprecation } from './deprecation.js';
import type { DeprecationNotice } from './deprecation.js';
import type { FetchFunction, FetchInit, FetchResponse } from './fetch.js';
import { findLink, parseLinkHeader } from './link-header.js';
import { RETRY_DEFAULTS, RETRYABLE_STATUSES, RETRYABLE_WITHOUT_KEY_STATUSES, retryAfterDelay, retryDelay, retryPolicy } from './retry.js';
import type { RetryOptions, RetryPolicy } from './retry.js';

/** Options of the PetstoreClient constructor. */
export interface PetstoreClientOptions {
  /** Base URL of the interface, base path included, e.g. `http://127.0.0.1:8080/v1`; a `URL` object works too. */
  baseUrl: string | { readonly href: string };
  /** The API key, sent as `Authorization: Bearer <apiKey>` [spec 5]. */
  apiKey: string;
  /** The fetch to use. Default: the global `fetch` (Node ≥ 20). */
  fetch?: FetchFunction;
  /**
   * Called with every response that says its operation is deprecated (`Deprecation`, `Sunset`).
   * Default: one `DeprecationWarning` per operation through `process.emitWarning`.
   */
  onDeprecation?: (notice: DeprecationNotice) => void;
  /**
   * How every call retries a network failure, a request that timed out, or a 408, 409, 429, 502, 503
   * or 504 answer, and the time it may take, or `false` for a single request. Default:
   * `RETRY_DEFAULTS`: a call ends within 10 s, each request within 4 s.
   */
  retry?: RetryOptions | false;
  /**
   * The largest answer body read, in bytes; a larger one is refused as `unavailable` without reading
   * further. Default `MAX_ANSWER_BYTES` (1 MiB), over three times the largest valid answer.
   */
  maxAnswerBytes?: number;
}

/** Options of one call. */
export interface RequestOptions {
  /** How this call retries, over the client's `retry` option; `false` for a single request. */
  retry?: RetryOptions | false;
}

/** Options of `createPet()`: the engine's, and how the call retries. */
export interface CreatePetOptions extends RequestOptions, EngineCreatePetOptions {
  /**
   * The `Idempotency-Key` of this create, sent on every attempt, so the server stores the pet once
   * however many requests reach it: 1 to 255 printable ASCII characters, as the engine takes.
   * Default: a fresh `crypto.randomUUID()` per call, until the server answers that it cannot remember
   * keys (`idempotency_unsupported`); pass your own to make a create safe to repeat across calls or
   * processes: it is always sent, and such a server's 501 is then thrown, never a create without it.
   */
  idempotencyKey?: string;
}

/** Options of `pets()`. */
export interface PetsOptions extends RequestOptions {
  /** Only pets with this status. */
  status?: PetStatus;
  /** Pets per request, 1 to 100. Default 100, the fewest round trips. */
  pageSize?: number;
  /**
   * The most pages in a row that may list no pet while linking to a next one; the next such page ends
   * the iteration with an `unavailable` PetstoreClientError. At least 1. Default `MAX_EMPTY_PAGES` (10).
   */
  maxEmptyPages?: number;
}

/**
 * The default bound on pages in a row without a pet in `pets()` (decided). This interface never
 * sends one with a next link (a page is cut after its last pet); a server that pages a filter over a
 * window of ids might, and 10 lets it, while a server that sends empty pages whose links creep
 * forward ends the iteration after 11 requests instead of never: the caller's loop, which runs only
 * when a pet comes, could not break out.
 */
export const MAX_EMPTY_PAGES = 10;

/** One answer, read whole: its status, body and headers, and how many requests the call sent to get it. */
interface Answer extends AnswerSource {
  response: FetchResponse;
  text: string;
  attempts: number;
}

/**
 * What one request brought back: an answer read whole, an answer larger than the bound (its body
 * left unread), no answer within the attempt's time (`isBudget` when the call's budget set that
 * time), or a failure of the network.
 */
type Outcome =
  | { kind: 'answer'; answer: Omit<Answer, 'attempts'> }
  | { kind: 'too large'; answer: Omit<Answer, 'attempts'> }
  | { kind: 'undecodable'; problem: string; failure: unknown }
  | { kind: 'timeout'; limit: number; isBudget: boolean; failure: Error }
  | { kind: 'unreachable'; failure: unknown };

/**
 * The key as a Structured Field String [RFC 9651 §3.3.3], the form draft-ietf-httpapi-idempotency-key-header
 * §2.1 gives the header: `"` and `\` escaped. A key the engine would refuse is refused here with the
 * same error, before anything is sent: a character a header cannot carry would make fetch reject,
 * which would read as a network failure.
 */
function idempotencyKeyField(key: unknown): string {
  return `"${validateIdempotencyKey(key).replace(/[\\"]/g, '\\$&')}"`;
}

/** A fresh version 4 UUID [RFC 9562 §5.4]: `crypto.randomUUID()`, or the same layout from `crypto.getRandomValues` where that is missing. */
function randomUuid(): string {
  // Browsers offer randomUUID only in secure contexts; getRandomValues everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function seconds(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(1);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** One request of a call: what it sends, and its time in milliseconds (`isBudget` when what was left of the call's budget set it). */
interface AttemptRequest {
  method: string;
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  limit: number;
  isBudget: boolean;
}

/** What `#send` sends beside the method and URL. */
interface SendOptions extends RequestOptions {
  body?: string;
  /** The `Idempotency-Key` field value, already serialized. */
  idempotencyKey?: string;
  /**
   * A create sent without a key: a failure that leaves its fate unknown (no answer, or a 5xx) ends
   * the call at once instead of being retried, since a repeat could store the pet twice.
   */
  isUnrepeatable?: boolean;
}

/** Writes a number as the server reads it: whole numbers in decimal digits, even beyond 2^53, which `String` would write as `1e+21`. */
function decimal(value: number): string {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
}

/** The `after` cursor of a next link, or undefined when it has none that reads as a pet id. */
function cursorOf(url: string): number | undefined {
  const after = new URL(url).searchParams.get('after');
  if (after === null || !/^-?[0-9]{1,16}$/.test(after)) return undefined;
  const id = Number(after);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The error told again as a PetstoreClientError: its code, details, cause and request id, with this message and number of attempts. */
function retold(error: PetstoreError, message: string, attempts: number): PetstoreClientError {
  const options: PetstoreClientErrorOptions = { attempts };
  if (error.details !== undefined) options.details = error.details;
  if (error.cause !== undefined) options.cause = error.cause;
  if (error instanceof PetstoreClientError && error.requestId !== undefined) options.requestId = error.requestId;
  return new PetstoreClientError(error.code, message, options);
}

function warnOnce(): (notice: DeprecationNotice) => void {
  const warned = new Set<string>();
  return (notice) => {
    if (warned.has(notice.operation) || typeof process === 'undefined') return;
    warned.add(notice.operation);
    const sunset = notice.sunsetAt === undefined ? '' : `; it will be removed on ${notice.sunsetAt.toISOString().slice(0, 10)}`;
    const successor = notice.successor === undefined ? '' : `; use ${notice.successor} instead`;
    process.emitWarning(`Petstore operation ${notice.operation} is deprecated${sunset}${successor}`, { type: 'DeprecationWarning', code: 'PETSTORE_DEPRECATED_OPERATION' });
  };
}

/**
 * A typed client of the HTTP interface with the same operations, arguments and results as the
 * in-process store (`PetstoreApi`), so embedding code can switch between the two. Failures are the
 * same PetstoreErrors the server sent, as PetstoreClientErrors with the answer's `X-Request-Id` as
 * `requestId` (the id to look for in the server's log) and the call's `attempts`; an answer that is
 * not the interface's, or no answer at all, is an `unavailable` PetstoreClientError. Every call
 * retries what a retry may fix (see `RetryOptions`), and `createPet` sends one `Idempotency-Key` on
 * all its attempts, so the pet is stored once. On a server whose storage cannot remember keys (a 501
 * `idempotency_unsupported`), the client creates without a key from then on, and never repeats such
 * a create whose fate is unknown: it says so instead.
 */
export class PetstoreClient implements PetstoreApi {
  readonly #baseUrl: string;
  readonly #authorization: string;
  readonly #fetch: FetchFunction;
  readonly #onDeprecation: (notice: DeprecationNotice) => void;
  readonly #retry: RetryPolicy;
  readonly #maxAnswerBytes: number;
  /** False once the server answered that it cannot remember idempotency keys: later default creates go without one. */
  #canServerKeepKeys = true;

  constructor(options: PetstoreClientOptions) {
    const url = new URL(typeof options.baseUrl === 'string' ? options.baseUrl : options.baseUrl.href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('PetstoreClient: `baseUrl` must be an http or https URL');
    if (url.search !== '' || url.hash !== '') throw new TypeError('PetstoreClient: `baseUrl` must not have a query or fragment');
    if (typeof options.apiKey !== 'string' || options.apiKey === '' || /[\s\u0000-\u001f\u007f]/.test(options.apiKey)) {
      throw new TypeError('PetstoreClient: `apiKey` must be a non-empty string without white space or control characters');
    }
    this.#baseUrl = url.href.replace(/\/+$/, '');
    this.#authorization = `Bearer ${options.apiKey}`;
    this.#fetch = options.fetch ?? ((target, init) => fetch(target, init));
    this.#onDeprecation = options.onDeprecation ?? warnOnce();
    this.#retry = retryPolicy(RETRY_DEFAULTS, options.retry);
    const maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    if (!Number.isSafeInteger(maxAnswerBytes) || maxAnswerBytes < 1) throw new TypeError('PetstoreClient: `maxAnswerBytes` must be a whole number of bytes, at least 1');
    this.#maxAnswerBytes = maxAnswerBytes;
  }

  /** listPets [spec 4.1]: one page of pets in ascending id order; `limit` is clamped by the server to 1..100 (default 20). */
  async listPets(query: ListPetsQuery = {}, options: RequestOptions = {}): Promise<Pet[]> {
    const search = new URLSearchParams();
    if (query.limit !== undefined) search.set('limit', decimal(query.limit));
    if (query.status !== undefined) search.set('status', query.status);
    if (query.after !== undefined) search.set('after', decimal(query.after));
    const text = search.size === 0 ? '' : `?${search.toString()}`;
    return (await this.#listPage(`${this.#baseUrl}/pets${text}`, options)).pets;
  }

  /**
   * createPet [spec 4.2]: the server validates `input` as a NewPet (a JavaScript caller's too) and answers the stored Pet. Every
   * attempt carries the same `Idempotency-Key`, so a retry after a lost answer gets the pet stored by
   * the first request, never a second one. A server that cannot remember keys refuses the key with a
   * 501 `idempotency_unsupported` before storing anything: the client then sends the create without a
   * key, and keeps doing so for every later create of its own key (see `CreatePetOptions.idempotencyKey`).
   * Such a create is never repeated once its fate is unknown (no answer, or a 5xx): the `unavailable`
   * or 5xx PetstoreError says the pet may or may not have been stored.
   */
  async createPet(input: NewPet, options: CreatePetOptions = {}): Promise<Pet> {
    const ownKey = options.idempotencyKey;
    const key = ownKey !== undefined || this.#canServerKeepKeys ? idempotencyKeyField(ownKey ?? randomUuid()) : undefined;
    let body: string | undefined;
    try {
      body = JSON.stringify(input);
    } catch {
      body = undefined;
    }
    // What JSON cannot carry (undefined, functions, BigInt, cycles) is never a valid NewPet: answer as the engine would.
    if (body === undefined) {
      validateNewPet(input);
      throw new PetstoreError('validation_failed', 'Cannot create pet: the input cannot be sent as JSON');
    }
    const url = `${this.#baseUrl}/pets`;
    if (key !== undefined) {
      const answer = await this.#send('createPet', 'POST', url, { ...options, body, idempotencyKey: key });
      if (answer.status === 201) return this.#expect(answer, asPet(parseJson(answer.text)), 'not a Pet');
      const error = this.#failure(answer);
      // The server refused the key before storing anything; only a key the client chose may be dropped.
      if (ownKey !== undefined || error.code !== 'idempotency_unsupported') throw error;
      this.#canServerKeepKeys = false;
    }
    const answer = await this.#send('createPet', 'POST', url, { ...options, body, isUnrepeatable: true });
    if (answer.status === 201) return this.#expect(answer, asPet(parseJson(answer.text)), 'not a Pet');
    const error = this.#failure(answer);
    throw answer.status >= 500 ? this.#unknownFate(error) : error;
  }

  /** getPet [spec 4.3, deprecated]: the pet with this id; ids no pet has are a `not_found` PetstoreError. */
  async getPet(id: number, options: RequestOptions = {}): Promise<Pet> {
    const answer = await this.#send('getPet', 'GET', `${this.#baseUrl}/pets/${encodeURIComponent(typeof id === 'number' ? decimal(id) : String(id))}`, options);
    if (answer.status !== 200) throw this.#failure(answer);
    return this.#expect(answer, asPet(parseJson(answer.text)), 'not a Pet');
  }

  /**
   * Every pet (with `status`, if given), page by page, following `Link: rel="next"` (RFC 8288) until
   * the last page. Pets created meanwhile with larger ids are included; none is seen twice. The
   * cursor only moves forward: a page whose ids do not rise past the last id seen, or a next link
   * whose `after` does not, ends the iteration with an `unavailable` PetstoreError, so a server that
   * sends pages in a circle cannot make it endless; and more than `maxEmptyPages` pages in a row
   * without a pet end it with an `unavailable` PetstoreClientError, so one whose empty pages creep
   * forward cannot either.
   */
  async *pets(options: PetsOptions = {}): AsyncGenerator<Pet, void, undefined> {
    const maxEmptyPages = options.maxEmptyPages ?? MAX_EMPTY_PAGES;
    if (!Number.isSafeInteger(maxEmptyPages) || maxEmptyPages < 1) throw new TypeError('PetstoreClient: `maxEmptyPages` must be a whole number of pages, at least 1');
    const search = new URLSearchParams({ limit: decimal(options.pageSize ?? MAX_LIMIT) });
    if (options.status !== undefined) search.set('status', options.status);
    let url: string | undefined = `${this.#baseUrl}/pets?${search.toString()}`;
    // The id every later pet must be above: the last one seen, or the cursor of the page asked for.
    let position: number | undefined;
    let seen = 0;
    let emptyPages = 0;
    while (url !== undefined) {
      const page: { pets: Pet[]; next: string | undefined } = await this.#listPage(url, options);
      emptyPages = page.pets.length === 0 ? emptyPages + 1 : 0;
      if (emptyPages > maxEmptyPages && page.next !== undefined) {
        throw new PetstoreClientError('unavailable', `The pages of ${this.#baseUrl}/pets make no progress: ${plural(emptyPages, 'page')} in a row listed no pet, past the client's \`maxEmptyPages\` of ${maxEmptyPages}, and the last links to ${page.next}; stopped after ${plural(seen, 'pet')}`);
      }
      for (const pet of page.pets) {
        if (position !== undefined && pet.id <= position) {
          throw new PetstoreError('unavailable', `The page ${url} goes back: it lists pet ${pet.id}, not above ${position}, after ${plural(seen, 'pet')} (pages must rise in id)`);
        }
        position = pet.id;
        seen++;
        yield pet;
      }
      if (page.next !== undefined) {
        const after = cursorOf(page.next);
        if (after === undefined || (position !== undefined && after < position)) {
          const where = position === undefined ? 'the first page' : `pet ${position}, the last id seen`;
          throw new PetstoreError('unavailable', `The next page ${page.next} does not move forward: its \`after\` is ${after === undefined ? 'missing or not an id' : after}, not at or past ${where}; stopped after ${plural(seen, 'pet')}`);
        }
        // An empty page moves the cursor by its link alone, which must then go strictly forward.
        if (page.pets.length === 0 && position !== undefined && after <= position) {
          throw new PetstoreError('unavailable', `The next page ${page.next} of an empty page does not move forward: its \`after\` ${after} is not past ${position}; stopped after ${plural(seen, 'pet')}`);
        }
        position = after;
      }
      url = page.next;
    }
  }

  async #listPage(url: string, options: RequestOptions): Promise<{ pets: Pet[]; next: string | undefined }> {
    const answer = await this.#send('listPets', 'GET', url, options);
    if (answer.status !== 200) throw this.#failure(answer);
    const pets = this.#expect(answer, asPets(parseJson(answer.text)), 'not a Pet array');
    const link = findLink(parseLinkHeader(answer.response.headers.get('link') ?? ''), 'next');
    if (link === undefined) return { pets, next: undefined };
    const next = new URL(link, url);
    // The key goes only where the client was pointed: a next link to another origin is refused.
    if (next.origin !== new URL(this.#baseUrl).origin) throw this.#counted(unexpectedAnswer(answer, `its next page ${JSON.stringify(link)} is on another origin`), answer.attempts, '');
    return { pets, next: next.href };
  }

  /**
   * Sends one call's request until it gets an answer that is not worth retrying, or its budget is
   * spent: then it throws the last failure, saying how many attempts the call made. Each request gets
   * `attemptTimeout` or what is left of `totalTime`, whichever is smaller, so the call ends within
   * its budget; the wait before a retry is the drawn backoff, or a longer `Retry-After`.
   */
  async #send(operation: string, method: string, url: string, options: SendOptions): Promise<Answer> {
    const policy = retryPolicy(this.#retry, options.retry);
    const headers: Record<string, string> = { authorization: this.#authorization, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    const start = policy.now();
    const deadline = start + policy.totalTime;
    const budget = `the ${seconds(policy.totalTime)} s budget`;
    for (let attempt = 1; ; attempt++) {
      const left = deadline - policy.now();
      const isBudget = left < policy.attemptTimeout;
      const outcome = await this.#attempt(url, { method, headers, body: options.body, limit: isBudget ? Math.max(0, left) : policy.attemptTimeout, isBudget });
      const retryable = options.isUnrepeatable === true ? RETRYABLE_WITHOUT_KEY_STATUSES : RETRYABLE_STATUSES;
      if (outcome.kind === 'answer' && !retryable.has(outcome.answer.status)) {
        const notice = readDeprecation(outcome.answer.response.headers, operation, url);
        if (notice !== undefined) this.#onDeprecation(notice);
        return { ...outcome.answer, attempts: attempt };
      }
      // Reading more of an answer too large would not make it smaller, nor again one that cannot be decoded: neither is retried.
      if (outcome.kind === 'too large') {
        throw this.#counted(unexpectedAnswer(outcome.answer, `larger than ${this.#maxAnswerBytes} bytes, the client's \`maxAnswerBytes\`; not read further`), attempt, '');
      }
      if (outcome.kind === 'undecodable') {
        const error = new PetstoreError('unavailable', `Unexpected answer to ${method} ${url}: its body cannot be decoded (${outcome.problem}); not retried, as the same answer would come again`, { cause: outcome.failure });
        throw options.isUnrepeatable === true ? this.#unknownFate(this.#counted(error, attempt, '')) : this.#counted(error, attempt, '');
      }
      if (options.isUnrepeatable === true && outcome.kind !== 'answer') throw this.#unknownFate(this.#counted(this.#attemptError(url, outcome), attempt, ''));
      const now = policy.now();
      const asked = outcome.kind === 'answer' ? retryAfterDelay(outcome.answer.response.headers.get('retry-after'), now) : undefined;
      const wait = retryDelay(policy, attempt, asked);
      let reason: string | undefined;
      if (outcome.kind === 'timeout' && outcome.isBudget) reason = `${budget} is spent`;
      else if (policy.attempts === 1) reason = 'retries are off';
      else if (attempt >= policy.attempts) reason = `the retry budget of ${plural(policy.attempts, 'attempt')} is spent`;
      else if (asked !== undefined && now + asked >= deadline) reason = `Retry-After asks for ${seconds(asked)} s, past ${budget}`;
      else if (now + wait >= deadline) reason = `${budget} leaves no time for another attempt`;
      if (reason !== undefined) throw this.#counted(this.#attemptError(url, outcome), attempt, ` in ${seconds(now - start)} s; ${reason}`);
      await policy.sleep(wait);
    }
  }

  /**
   * One request, its answer's body read up to the bound, all within `limit` milliseconds: then the
   * request is aborted and the attempt is a timeout. A fetch that rejects, or a body cut off, is a
   * failure of the network.
   */
  async #attempt(url: string, request: AttemptRequest): Promise<Outcome> {
    const { method, body } = request;
    const controller = new AbortController();
    const timeout = new Error(`no answer within ${request.limit} ms`);
    timeout.name = 'TimeoutError';
    let isExpired = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        isExpired = true;
        controller.abort(timeout);
        reject(timeout);
      }, request.limit);
    });
    expired.catch(() => undefined);
    const init: FetchInit = { method, headers: { ...request.headers }, redirect: 'manual', signal: controller.signal };
    if (body !== undefined) init.body = body;
    try {
      const fetched = this.#fetch(url, init);
      fetched.catch(() => undefined);
      const response = await Promise.race([fetched, expired]);
      const source = { method, url, status: response.status, requestId: response.headers.get('x-request-id') ?? undefined, response };
      const text = await readAnswerBody(response, this.#maxAnswerBytes, expired);
      if (text === undefined) return { kind: 'too large', answer: { ...source, text: '' } };
      return { kind: 'answer', answer: { ...source, text } };
    } catch (failure) {
      if (isExpired) return { kind: 'timeout', limit: request.limit, isBudget: request.isBudget, failure: timeout };
      const problem = decodingProblem(failure);
      return problem === undefined ? { kind: 'unreachable', failure } : { kind: 'undecodable', problem, failure };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The error of an attempt that gave no answer worth returning, each kind with its own message. */
  #attemptError(url: string, outcome: Exclude<Outcome, { kind: 'too large' | 'undecodable' }>): PetstoreError {
    if (outcome.kind === 'answer') return this.#failure({ ...outcome.answer, attempts: 1 });
    if (outcome.kind === 'unreachable') {
      const reason = outcome.failure instanceof Error ? outcome.failure.message : String(outcome.failure);
      return new PetstoreError('unavailable', `Cannot reach the Petstore at ${url}: ${reason}`, { cause: outcome.failure });
    }
    const within = outcome.isBudget ? `before the call's budget ran out (${Math.round(outcome.limit)} ms of it were left for this attempt)` : `within the ${seconds(outcome.limit)} s attempt timeout`;
    return new PetstoreError('unavailable', `No answer from the Petstore at ${url} ${within}`, { cause: outcome.failure });
  }

  /** The error of a create without a key that may have been stored: it was not repeated, and the caller is told how to find out. */
  #unknownFate(error: PetstoreClientError): PetstoreClientError {
    const message = `${error.message}; the pet may or may not have been stored: this server cannot remember idempotency keys, so the create was not repeated (a repeat could store it twice); list the pets to see whether it is there before creating it again`;
    return retold(error, message, error.attempts);
  }

  /**
   * The error with the number of attempts the call made: in `attempts`, and in the message when the
   * call gave up (`detail` says why) or needed more than one request, so a server's own message on a
   * first answer stays as the server wrote it.
   */
  #counted(error: PetstoreError, attempts: number, detail: string): PetstoreClientError {
    return retold(error, detail === '' && attempts === 1 ? error.message : `${error.message} (${plural(attempts, 'attempt')}${detail})`, attempts);
  }

  #failure(answer: Answer): PetstoreClientError {
    return this.#counted(errorFromAnswer(answer, answer.text, answer.response.headers.get('content-type')), answer.attempts, '');
  }

  #expect<T>(answer: Answer, value: T | undefined, problem: string): T {
    if (value === undefined) throw this.#counted(unexpectedAnswer(answer, `${problem}: ${JSON.stringify(answer.text.slice(0, 200))}`), answer.attempts, '');
    return value;
  }
}
