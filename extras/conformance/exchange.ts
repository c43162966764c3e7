import { parseJson } from '../client/answers.js';
import type { ConformanceFetch, ConformanceHeaders, ConformanceResponse } from './types.js';

/** Which credential a request carries [spec 5.2]. */
export type Credential = 'key' | 'none' | 'invalid-key' | 'lower-case-scheme';

/** A request a check asks for. */
export interface RequestSpec {
  method: string;
  /** Below the base URL (`/pets?limit=1`), or an absolute URL on the base URL's origin (a followed `Link`). */
  path: string;
  /** Default `key`. */
  credential?: Credential;
  /** Sent as is, names as shown in reports; a `json` body adds `Content-Type: application/json`. */
  headers?: Readonly<Record<string, string>>;
  body?: string;
  json?: unknown;
  /** The operation the request is for, so its answer can be held against the OpenAPI document. */
  operation?: string;
}

/** A request as it was sent, with the key never shown. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  /** The headers as shown in reports: the key replaced by `<key>`. */
  readonly shownHeaders: readonly string[];
  readonly body: string | undefined;
  readonly operation: string | undefined;
}

/** One answer, read whole (up to MAX_BODY_BYTES). */
export interface Answer {
  readonly request: SentRequest;
  readonly status: number;
  readonly headers: ConformanceHeaders;
  readonly text: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  readonly json: unknown;
}

/** Why a request got no answer; checks turn it into a failure naming what was sent. */
export class NoAnswerError extends Error {
  readonly request: SentRequest;
  /** Whether the request was sent and its answer did not arrive in time (rather than failing, or not being sent). */
  readonly isTimeout: boolean;
  constructor(request: SentRequest, reason: string, isTimeout = false) {
    super(reason);
    this.name = 'NoAnswerError';
    this.request = request;
    this.isTimeout = isTimeout;
  }
}

/** The run cannot start as it was set up (the server, the base URL or the key): nothing can be checked, and the message says what to change. */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The server could not be reached at all (refused, unknown host, not HTTP): nothing can be checked. */
export class UnreachableServerError extends SetupError {
  constructor(baseUrl: string, reason: string) {
    super(`cannot reach ${baseUrl}: ${reason}`);
  }
}

/** The server refused the key the run was given [spec 5.4]: every check that needs it would fail for that one reason. */
export class RefusedKeyError extends SetupError {
  constructor(evidence: string) {
    super(`the key was refused: ${evidence}; give a key the server accepts`);
  }
}

/** Something answers at the base URL, but not the interface: most often the version prefix is missing. */
export class WrongBaseUrlError extends SetupError {
  constructor(baseUrl: string, evidence: string) {
    super(`nothing answers the interface at ${baseUrl}: does the base URL end in the version prefix, e.g. /v1? (${evidence})`);
  }
}

/** Largest answer body read; the rest is cancelled, so a server cannot make the kit hold an endless answer. */
export const MAX_BODY_BYTES = 1_048_576;

/** Most requests one run sends: a run on an empty store sends about 170 (some 70 for the checks, 97 for the pets the page-size checks need), so this leaves room for retries and stores that misbehave. */
export const MAX_REQUESTS = 400;

/** After this many requests timed out, the server is taken to have stopped answering and nothing more is sent. */
export const MAX_TIMEOUTS = 3;

/** Options of an HttpSession. */
export interface SessionOptions {
  baseUrl: string;
  apiKey: string;
  fetch: ConformanceFetch;
  timeoutMs: number;
  /** The token sent as an invalid key. */
  invalidKey: string;
}

/** Reads a body up to MAX_BODY_BYTES, then cancels the rest. */
async function readBody(response: ConformanceResponse): Promise<string> {
  const stream = response.body;
  if (stream === undefined || stream === null) return response.text();
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done || chunk.value === undefined) return text + decoder.decode();
    received += chunk.value.length;
    if (received > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return `${text}${decoder.decode()}[... cut at ${MAX_BODY_BYTES} bytes]`;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}

/** Why fetch rejected, in a few words: the cause's code or message where the runtime gives one. */
function fetchFailureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error as { cause?: unknown };
  const detail = cause instanceof Error ? ((cause as { code?: unknown }).code ?? cause.message) : undefined;
  return detail === undefined ? error.message : `${error.message} (${String(detail)})`;
}

/**
 * Sends the kit's requests: each with the per-request timeout (which also bounds reading the body),
 * the request budget, and the rule that a server which let MAX_TIMEOUTS requests time out gets no more.
 */
export class HttpSession {
  readonly #options: SessionOptions;
  readonly #origin: string;
  readonly #answers: Answer[] = [];
  #sent = 0;
  #timeouts = 0;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#origin = new URL(options.baseUrl).origin;
  }

  /** Every answer received so far, in order. */
  get answers(): readonly Answer[] {
    return this.#answers;
  }

  /** The request as fetch gets it and as reports show it. */
  #prepare(spec: RequestSpec): { url: string; headers: Record<string, string>; sent: SentRequest } {
    const url = spec.path.startsWith('/') ? `${this.#options.baseUrl}${spec.path}` : spec.path;
    if (new URL(url).origin !== this.#origin) throw new NoAnswerError(this.#shown(spec, url, []), `not sent: ${url} is not on ${this.#origin}, where the key may go`);
    const headers: Record<string, string> = {};
    const shownHeaders: string[] = [];
    const credential = spec.credential ?? 'key';
    const authorization = {
      key: [`Bearer ${this.#options.apiKey}`, 'Bearer <key>'],
      'invalid-key': [`Bearer ${this.#options.invalidKey}`, `Bearer ${this.#options.invalidKey}`],
      'lower-case-scheme': [`bearer ${this.#options.apiKey}`, 'bearer <key>'],
      none: undefined,
    }[credential];
    if (authorization !== undefined) {
      headers['authorization'] = authorization[0] as string;
      shownHeaders.push(`Authorization: ${authorization[1]}`);
    }
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      shownHeaders.push('Content-Type: application/json');
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      headers[name.toLowerCase()] = value;
      shownHeaders.push(`${name}: ${value}`);
    }
    return { url, headers, sent: this.#shown(spec, url, shownHeaders) };
  }

  #shown(spec: RequestSpec, url: string, shownHeaders: readonly string[]): SentRequest {
    const body = spec.json === undefined ? spec.body : JSON.stringify(spec.json);
    return { method: spec.method, url, shownHeaders, body, operation: spec.operation };
  }

  /** Sends one request and reads its answer; rejects with NoAnswerError when none came, or none may be sent. */
  async send(spec: RequestSpec): Promise<Answer> {
    const { url, headers, sent } = this.#prepare(spec);
    if (this.#timeouts >= MAX_TIMEOUTS) throw new NoAnswerError(sent, `not sent: the server already let ${MAX_TIMEOUTS} requests time out`);
    if (this.#sent >= MAX_REQUESTS) throw new NoAnswerError(sent, `not sent: the run's budget of ${MAX_REQUESTS} requests is spent`);
    this.#sent++;
    const outcome = await this.#exchange(url, headers, sent);
    if ('reason' in outcome) throw new NoAnswerError(sent, outcome.reason, outcome.isTimeout);
    const answer: Answer = { request: sent, status: outcome.response.status, headers: outcome.response.headers, text: outcome.text, json: parseJson(outcome.text) };
    this.#answers.push(answer);
    return answer;
  }

  /** One fetch and its body within the timeout, or why there is no answer. */
  async #exchange(url: string, headers: Record<string, string>, sent: SentRequest): Promise<{ response: ConformanceResponse; text: string } | { reason: string; isTimeout: boolean }> {
    const { timeoutMs } = this.#options;
    const controller = new AbortController();
    const init = { method: sent.method, headers, redirect: 'manual' as const, signal: controller.signal, ...(sent.body === undefined ? {} : { body: sent.body }) };
    const work = (async () => {
      const response = await this.#options.fetch(url, init);
      return { response, text: await readBody(response) };
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A fetch that ignores its signal still cannot hold the kit: the race ends at the timeout either way.
    const timeout = new Promise<{ reason: string; isTimeout: boolean }>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        this.#timeouts++;
        resolve({ reason: `no answer within ${timeoutMs} ms`, isTimeout: true });
      }, timeoutMs);
    });
    try {
      return await Promise.race([work.catch((error: unknown) => ({ reason: `no answer: ${fetchFailureOf(error)}`, isTimeout: false })), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
