import type { IncomingMessage, ServerResponse } from 'node:http';
import { PetstoreError } from '../../lib/index.js';
import { BodyAbortedError, bodyOf, NO_BODY } from '../core/index.js';
import type { CoreRequest, RequestBody, RequestHeaders } from '../core/index.js';
import { failedBodyOf, parsedBodyOf } from '../core/request.js';

/** Responses whose request said `Expect: 100-continue` and that wait for the server to ask for the body. */
const awaitingContinue = new WeakSet<ServerResponse>();

/** The server's `checkContinue` listener: `100 Continue` goes once the core reads the body, so a request refused on its head never uploads it. */
export function deferContinue(response: ServerResponse): void {
  awaitingContinue.add(response);
}

/**
 * Reads a Node request body chunk by chunk; stops (pausing the socket) when `onChunk` says so. The listeners
 * stay on the request: the promise settles once, and the `error` listener keeps a late error handled (four
 * `on` and four `off` per request were most of what reading a small body cost).
 */
function readNodeBody(request: IncomingMessage, response: ServerResponse, onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
  // Its `close` has been and gone: listening for it would wait forever.
  if (request.destroyed) return Promise.reject(new BodyAbortedError());
  if (awaitingContinue.delete(response)) response.writeContinue();
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      if (onChunk(chunk)) return;
      request.off('data', onData);
      request.pause();
      resolve();
    };
    const onAbort = (): void => reject(new BodyAbortedError());
    request.on('data', onData).on('end', resolve).on('error', onAbort).on('close', () => {
      if (!request.complete) onAbort();
    });
  });
}

/**
 * The request's headers for the core: several `Host` fields, of which Node keeps the first, joined
 * [RFC 9110 §5.3] for the core to refuse [RFC 9112 §3.2].
 */
function headersOf(request: IncomingMessage): RequestHeaders {
  const raw = request.rawHeaders;
  let hosts: string[] | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') (hosts ??= []).push(raw[index + 1] as string);
  }
  return hosts === undefined || hosts.length < 2 ? request.headers : { ...request.headers, host: hosts.join(', ') };
}

/** A request as host frameworks hand it on: the URL before a mount stripped its prefix, a parser's `body`, the bytes it read. */
type FrameworkRequest = IncomingMessage & { originalUrl?: unknown; body?: unknown; rawBody?: unknown };

/** The fix named whenever a host's body parser took the body and left nothing the handler can use: the general one, then each host's. */
const HOST_PARSER_FIX = [
  'mount the Petstore handler before the body parser, or have the parser leave the parsed JSON in `request.body`',
  ' (Express: `app.use(handler)` before `express.json()`, or `express.json()` in front;',
  ' Koa: the Petstore middleware before `bodyParser()`, or `bodyParser({ patchNode: true })`;',
  ' Fastify: `app.use(handler)` through @fastify/middie, not in a route; hono: `createFetchHandler` with `context.req.raw`;',
  ' NestJS: `consumer.apply(handler)` or `app.use(handler)`, with `bodyParser: false` or the JSON parser in front;',
  " hapi: a route with `payload: { parse: false, output: 'stream' }`, or an `onRequest` extension)",
].join('');

/** The 500 for a body that a host's middleware read and left unusable: a setup mistake, so its message is the client's too. */
function hostParserError(left: string): PetstoreError {
  const message = `The request body was read by a middleware before the Petstore handler, which left ${left}: ${HOST_PARSER_FIX}`;
  return new PetstoreError('internal_error', message, { exposesMessage: true });
}

const UNPARSED_MESSAGE = 'The request body is not valid JSON: the body parser in front of the Petstore handler could not parse it; send a JSON object';

/** The body of a request whose stream a host's parser read, as it left it: bytes as the body, JSON as parsed, else an answer at once. */
function takenBodyOf(request: FrameworkRequest): RequestBody {
  // Declared empty, it is empty, whatever a parser made of it: `express.json()` makes it `{}`.
  if (request.headers['content-length'] === '0') return NO_BODY;
  const { body, rawBody }: { body?: unknown; rawBody?: unknown } = request;
  if (body instanceof Uint8Array) return bodyOf(body);
  // The bytes the parser read (Koa's `patchNode`, NestJS's `rawBody: true`): every answer is then the bare handler's.
  if (rawBody instanceof Uint8Array || typeof rawBody === 'string') return bodyOf(typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody);
  // Express 5's parser sets `body` before reading, and leaves it undefined only when it refused the body (an error handler swallowed why).
  if (body === undefined && 'body' in request) return failedBodyOf(new PetstoreError('invalid_json', UNPARSED_MESSAGE));
  if (body === undefined) return failedBodyOf(hostParserError('nothing in `request.body`'));
  // Text as long as the body is a text parser's (`express.text()`); a JSON string value is always shorter than its body.
  const isText = typeof body === 'string' && Buffer.byteLength(body) === Number(request.headers['content-length']);
  if (isText) return failedBodyOf(hostParserError('text in `request.body`, not parsed JSON'));
  return parsedBodyOf(body);
}

/** The prefix a host framework stripped from the target, judged from the original URL it kept. */
function mountPathOf(request: FrameworkRequest): string | undefined {
  const original = request.originalUrl;
  const url = request.url ?? '';
  if (typeof original !== 'string' || original === url || !original.endsWith(url)) return undefined;
  return original.slice(0, original.length - url.length);
}

/**
 * Whether a request is the handler's: by its `url`, or else by the original URL a mount rewrote
 * (NestJS's `forRoutes('*path')` leaves `/`), which it then serves.
 */
export function isOwnRequest(request: FrameworkRequest, isOwnTarget: (target: string) => boolean): boolean {
  if (isOwnTarget(request.url ?? '/')) return true;
  if (typeof request.originalUrl !== 'string' || !isOwnTarget(request.originalUrl)) return false;
  request.url = request.originalUrl;
  return true;
}

/** Translates a `node:http` request into the core's plain request. */
export function toCoreRequest(request: IncomingMessage, response: ServerResponse): CoreRequest {
  // Read by a host's middleware: waiting for the stream would wait forever.
  const isBodyTaken = request.readableEnded || request.readableDidRead;
  const body: RequestBody = isBodyTaken ? takenBodyOf(request) : { read: (onChunk) => readNodeBody(request, response, onChunk) };
  return {
    method: request.method ?? 'GET',
    target: request.url ?? '/',
    headers: headersOf(request),
    body,
    httpVersion: request.httpVersion,
    mountPath: mountPathOf(request),
  };
}
