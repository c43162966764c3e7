import type { IncomingMessage, ServerResponse } from 'node:http';
import { PetstoreError } from '../../lib/index.js';
import { BodyAbortedError, bodyOf, NO_BODY } from '../core/index.js';
import type { CoreRequest, RequestBody, RequestHeaders } from '../core/index.js';
import { failedBodyOf, parsedBodyOf } from '../core/request.js';

/** Responses whose request said `Expect: 100-continue` and that wait for the server to ask for the body. */
const awaitingContinue = new WeakSet<ServerResponse>();

/**
 * The server's `checkContinue` listener, before the request listener: `100 Continue` is sent only once
 * the core starts reading the body, so a request refused on its head (401, 413, 415) never uploads it.
 */
export function deferContinue(response: ServerResponse): void {
  awaitingContinue.add(response);
}

/**
 * Reads a Node request body chunk by chunk; stops (pausing the socket) when `onChunk` says so. The
 * listeners stay on the request, which they do not outlive: a promise settles once, so whatever
 * they hear after that changes nothing, and the `error` listener keeps a late error from going
 * unhandled. Four `on` and four `off` per request were most of what reading a small body cost here.
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
 * The request's headers as the core expects them. Node keeps only the first of several `Host` fields,
 * so they are joined here as RFC 9110 §5.3 has it, and the core can refuse them (RFC 9112 §3.2).
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

/**
 * A request as host frameworks hand it on: Express and Connect keep the original `url` when they
 * strip a mount prefix, and a body parser leaves what it read in `body`.
 */
interface FrameworkRequest extends IncomingMessage {
  originalUrl?: unknown;
  body?: unknown;
}

/** The fix named whenever a host's body parser took the body and left nothing the handler can use. */
const HOST_PARSER_FIX = 'mount the Petstore handler before the body parser (in Fastify, with `app.use()` of @fastify/middie), or have the parser leave the parsed JSON in `request.body` (Express: `express.json()`; Koa: `bodyParser({ patchNode: true })` from @koa/bodyparser)';

/** The 500 for a body that a host's middleware read and left unusable: a setup mistake, so its message is the client's too. */
function hostParserError(left: string): PetstoreError {
  return new PetstoreError('internal_error', `The request body was read by a middleware before the Petstore handler, which left ${left}: ${HOST_PARSER_FIX}`, { isPublic: true });
}

/**
 * The body of a request whose stream something before the handler has read (a host framework's body
 * parser), as it left it: JSON it parsed is taken as parsed, bytes (`express.raw()`) as the body,
 * anything else is a 500 at once, as no byte of the body will come.
 */
function takenBodyOf(request: FrameworkRequest): RequestBody {
  // Declared empty, it is empty, whatever a parser made of it: `express.json()` makes it `{}`.
  if (request.headers['content-length'] === '0') return NO_BODY;
  const { body } = request;
  if (body instanceof Uint8Array) return bodyOf(body);
  if (body === undefined) return failedBodyOf(hostParserError('nothing in `request.body`'));
  // A text parser's (`express.text()`), which the handler cannot tell from a JSON string value.
  if (typeof body === 'string') return failedBodyOf(hostParserError('text in `request.body`, not parsed JSON'));
  return parsedBodyOf(body);
}

/** The prefix a host framework stripped from the target, judged from the original URL it kept. */
function mountPathOf(request: FrameworkRequest): string | undefined {
  const original = request.originalUrl;
  const url = request.url ?? '';
  if (typeof original !== 'string' || original === url || !original.endsWith(url)) return undefined;
  return original.slice(0, original.length - url.length);
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
