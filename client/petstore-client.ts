import { MAX_LIMIT, PetstoreError } from '../lib/index.js';
import { validateNewPet } from '../lib/validate.js';
import type { ListPetsQuery, NewPet, Pet, PetStatus, PetstoreApi } from '../lib/index.js';
import { asPet, asPets, errorFromAnswer, parseJson, unexpectedAnswer } from './answers.js';
import type { AnswerSource } from './answers.js';
import { readDeprecation } from './deprecation.js';
import type { DeprecationNotice } from './deprecation.js';
import type { FetchFunction, FetchInit, FetchResponse } from './fetch.js';
import { findLink, parseLinkHeader } from './link-header.js';

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
}

/** Options of `pets()`. */
export interface PetsOptions {
  /** Only pets with this status. */
  status?: PetStatus;
  /** Pets per request, 1 to 100. Default 100, the fewest round trips. */
  pageSize?: number;
}

/** One answer, read whole: its status, body and headers. */
interface Answer extends AnswerSource {
  response: FetchResponse;
  text: string;
}

/** Writes a number as the server reads it: whole numbers in decimal digits, even beyond 2^53, which `String` would write as `1e+21`. */
function decimal(value: number): string {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
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
 * same PetstoreErrors the server sent, with the answer's `X-Request-Id` as `requestId` (the id to
 * look for in the server's log); an answer that is not the interface's, or no answer at all, is an
 * `unavailable` PetstoreError.
 */
export class PetstoreClient implements PetstoreApi {
  readonly #baseUrl: string;
  readonly #authorization: string;
  readonly #fetch: FetchFunction;
  readonly #onDeprecation: (notice: DeprecationNotice) => void;

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
  }

  /** listPets [spec 4.1]: one page of pets in ascending id order; `limit` is clamped by the server to 1..100 (default 20). */
  async listPets(query: ListPetsQuery = {}): Promise<Pet[]> {
    const search = new URLSearchParams();
    if (query.limit !== undefined) search.set('limit', decimal(query.limit));
    if (query.status !== undefined) search.set('status', query.status);
    if (query.after !== undefined) search.set('after', decimal(query.after));
    const text = search.size === 0 ? '' : `?${search.toString()}`;
    return (await this.#listPage(`${this.#baseUrl}/pets${text}`)).pets;
  }

  /** createPet [spec 4.2]: the server validates `input` as a NewPet (a JavaScript caller's too) and answers the stored Pet. */
  async createPet(input: NewPet): Promise<Pet> {
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
    const answer = await this.#send('createPet', 'POST', `${this.#baseUrl}/pets`, body);
    if (answer.status !== 201) throw this.#failure(answer);
    return this.#expect(answer, asPet(parseJson(answer.text)), 'not a Pet');
  }

  /** getPet [spec 4.3, deprecated]: the pet with this id; ids no pet has are a `not_found` PetstoreError. */
  async getPet(id: number): Promise<Pet> {
    const answer = await this.#send('getPet', 'GET', `${this.#baseUrl}/pets/${encodeURIComponent(typeof id === 'number' ? decimal(id) : String(id))}`);
    if (answer.status !== 200) throw this.#failure(answer);
    return this.#expect(answer, asPet(parseJson(answer.text)), 'not a Pet');
  }

  /**
   * Every pet (with `status`, if given), page by page, following `Link: rel="next"` (RFC 8288) until
   * the last page. Pets created meanwhile with larger ids are included; none is seen twice.
   */
  async *pets(options: PetsOptions = {}): AsyncGenerator<Pet, void, undefined> {
    const search = new URLSearchParams({ limit: decimal(options.pageSize ?? MAX_LIMIT) });
    if (options.status !== undefined) search.set('status', options.status);
    let url: string | undefined = `${this.#baseUrl}/pets?${search.toString()}`;
    while (url !== undefined) {
      const page: { pets: Pet[]; next: string | undefined } = await this.#listPage(url);
      yield* page.pets;
      if (page.next === url) throw new PetstoreError('unavailable', `The server links ${url} as its own next page`);
      url = page.next;
    }
  }

  async #listPage(url: string): Promise<{ pets: Pet[]; next: string | undefined }> {
    const answer = await this.#send('listPets', 'GET', url);
    if (answer.status !== 200) throw this.#failure(answer);
    const pets = this.#expect(answer, asPets(parseJson(answer.text)), 'not a Pet array');
    const link = findLink(parseLinkHeader(answer.response.headers.get('link') ?? ''), 'next');
    if (link === undefined) return { pets, next: undefined };
    const next = new URL(link, url);
    // The key goes only where the client was pointed: a next link to another origin is refused.
    if (next.origin !== new URL(this.#baseUrl).origin) throw unexpectedAnswer(answer, `its next page ${JSON.stringify(link)} is on another origin`);
    return { pets, next: next.href };
  }

  async #send(operation: string, method: string, url: string, body?: string): Promise<Answer> {
    const init: FetchInit = { method, headers: { authorization: this.#authorization, accept: 'application/json' }, redirect: 'manual' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = body;
    }
    let response: FetchResponse;
    let text: string;
    try {
      response = await this.#fetch(url, init);
      text = await response.text();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new PetstoreError('unavailable', `Cannot reach the Petstore at ${url}: ${reason}`, { cause: error });
    }
    const notice = readDeprecation(response.headers, operation, url);
    if (notice !== undefined) this.#onDeprecation(notice);
    return { method, url, status: response.status, requestId: response.headers.get('x-request-id') ?? undefined, response, text };
  }

  #failure(answer: Answer): PetstoreError {
    return errorFromAnswer(answer, answer.text, answer.response.headers.get('content-type'));
  }

  #expect<T>(answer: Answer, value: T | undefined, problem: string): T {
    if (value === undefined) throw unexpectedAnswer(answer, `${problem}: ${JSON.stringify(answer.text.slice(0, 200))}`);
    return value;
  }
}
