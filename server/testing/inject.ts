import { bodyOf, createRequestCore, NO_BODY } from '../core/index.js';
import type { CoreResponse, RequestCore, RequestCoreOptions } from '../core/index.js';

/** A request to inject: like a fetch call, without a socket. */
export interface InjectRequest {
  method?: string;
  /** The request target, e.g. `/v1/pets?limit=5`; an absolute URL is accepted too. */
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
}

/** The answer to an injected request. */
export interface InjectResponse {
  status: number;
  /** Headers by lower-case name; a header sent on several lines has its values joined with `, `, as the fetch API joins them. */
  headers: Record<string, string>;
  /** The body as text (empty for HEAD and 204); of a compressed answer, the compressed bytes read as UTF-8, so read `bytes` instead. */
  body: string;
  /** The body as sent, compressed when the answer has a `Content-Encoding`. */
  bytes: Uint8Array;
  /** The body parsed as JSON. */
  json(): unknown;
}

/** What inject answers with: the options of a handler, or a fetch-API handler such as createFetchHandler's. */
export type InjectTarget = RequestCoreOptions | ((request: Request) => Promise<Response>);

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** One core per options object, so the caches and the OpenAPI text are built once, as a handler would. */
const cores = new WeakMap<object, RequestCore>();

function answerOf(status: number, headers: Record<string, string>, bytes: Uint8Array): InjectResponse {
  const body = decoder.decode(bytes);
  return { status, headers, body, bytes, json: () => JSON.parse(body) as unknown };
}

async function injectIntoCore(options: RequestCoreOptions, request: InjectRequest): Promise<InjectResponse> {
  let core = cores.get(options);
  if (core === undefined) cores.set(options, (core = createRequestCore(options, 'inject')));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const body = request.body === undefined ? NO_BODY : bodyOf(typeof request.body === 'string' ? encoder.encode(request.body) : request.body);
  const answer: CoreResponse = await core.handle({ method: request.method ?? 'GET', target: request.url, headers, body });
  const answerHeaders: Record<string, string> = {};
  for (let index = 0; index < answer.headers.length; index += 2) {
    const name = (answer.headers[index] as string).toLowerCase();
    const value = answer.headers[index + 1] as string;
    const earlier = answerHeaders[name];
    answerHeaders[name] = earlier === undefined ? value : `${earlier}, ${value}`;
  }
  return answerOf(answer.status, answerHeaders, typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body);
}

async function injectIntoFetch(handler: (request: Request) => Promise<Response>, request: InjectRequest): Promise<InjectResponse> {
  const init: RequestInit = { method: request.method ?? 'GET', headers: request.headers ?? {} };
  // Bytes, not text: a Request made from a string adds `Content-Type: text/plain`, which the client never sent.
  if (request.body !== undefined) init.body = typeof request.body === 'string' ? encoder.encode(request.body) : request.body;
  const response = await handler(new Request(new URL(request.url, 'http://localhost'), init));
  return answerOf(response.status, Object.fromEntries(response.headers), new Uint8Array(await response.arrayBuffer()));
}

/**
 * Sends one request to the interface without a socket and answers what a client would see, for a
 * consumer's own tests (as fastify's `inject` and hono's `app.request`). Takes the options of a
 * handler (the answers come straight from the request core) or a fetch-API handler.
 */
export function inject(target: InjectTarget, request: InjectRequest): Promise<InjectResponse> {
  return typeof target === 'function' ? injectIntoFetch(target, request) : injectIntoCore(target, request);
}
