import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyAbortedError } from '../core/index.js';
import type { CoreRequest, RequestBody, RequestHeaders } from '../core/index.js';

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

/** A request as host frameworks hand it on: Express and Connect keep the original `url` when they strip a mount prefix. */
interface FrameworkRequest extends IncomingMessage {
  originalUrl?: unknown;
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
  const body: RequestBody = { read: (onChunk) => readNodeBody(request, response, onChunk) };
  return {
    method: request.method ?? 'GET',
    target: request.url ?? '/',
    headers: headersOf(request),
    body,
    httpVersion: request.httpVersion,
    mountPath: mountPathOf(request),
  };
}
