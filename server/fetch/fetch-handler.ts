import { BodyAbortedError, createRequestCore, NO_BODY } from '../core/index.js';
import type { CoreRequest, CoreResponse, RequestBody, RequestCoreOptions } from '../core/index.js';

/** Options of createFetchHandler: those of the request core (store, apiKeys, basePath, bodyLimit, log, logError, jsonCacheSize, corsOrigins, extraRoutes). */
export type FetchHandlerOptions = RequestCoreOptions;

/** A fetch-API handler, as Deno.serve, Bun.serve, edge workers and hono's `mount` take it. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Reads a fetch-API body stream chunk by chunk; cancels the stream when `onChunk` says to stop. */
async function readStream(stream: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const chunk = await reader.read().catch(() => {
      throw new BodyAbortedError();
    });
    if (chunk.done) return;
    if (!onChunk(chunk.value)) {
      // The rest is never buffered: the limit holds while the body streams in.
      await reader.cancel().catch(() => undefined);
      return;
    }
  }
}

/** The request target of a fetch-API URL: its path and query, as the client sent them (some runtimes hand on the target itself). */
function targetOf(url: string): string {
  if (url.charCodeAt(0) === 47) return url;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart === -1 ? '/' : url.slice(pathStart);
}

/** Translates a fetch-API request into the core's plain request. */
function toCoreRequest(request: Request): CoreRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const stream = request.body;
  const body: RequestBody = stream === null ? NO_BODY : { read: (onChunk) => readStream(stream, onChunk) };
  return { method: request.method, target: targetOf(request.url), headers, body };
}

/**
 * The fetch-API response of a core answer; answers that carry no body (HEAD, 204) get none. Whether
 * the connection closes is the runtime's to decide (`Connection` is hop-by-hop), so `closesConnection` is not passed on.
 */
function toResponse(answer: CoreResponse): Response {
  const headers = new Headers();
  for (let index = 0; index < answer.headers.length; index += 2) headers.append(answer.headers[index] as string, answer.headers[index + 1] as string);
  return new Response(answer.body.length === 0 ? null : answer.body, { status: answer.status, headers });
}

/**
 * Creates a fetch-API handler for the interface [spec 4, 5, 7]: the same request core as the
 * `node:http` handler, for Deno, Bun, edge workers and frameworks such as hono. Every request is
 * answered, those outside the base path with a 404.
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  const core = createRequestCore(options, 'createFetchHandler');
  return async function handleFetch(request) {
    return toResponse(await core.handle(toCoreRequest(request)));
  };
}
