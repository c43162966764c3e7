import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyAbortedError } from '../http/index.js';
import type { CoreRequest, RequestBody, RequestHeaders } from '../http/index.js';

/** Responses whose request said `Expect: 100-continue` and that wait for the server to ask for the body. */
const awaitingContinue = new WeakSet<ServerResponse>();

/**
 * The server's `checkContinue` listener, before the request listener: `100 Continue` is sent only once
 * the core starts reading the body, so a request refused on its head (401, 413, 415) never uploads it.
 */
export function deferContinue(response: ServerResponse): void {
  awaitingContinue.add(response);
}

/** Reads a Node request body chunk by chunk; stops (pausing the socket) when `onChunk` says so. */
function readNodeBody(request: IncomingMessage, response: ServerResponse, onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
  if (awaitingContinue.delete(response)) response.writeContinue();
  return new Promise((resolve, reject) => {
    let isSettled = false;
    const settle = (outcome: () => void): void => {
      if (isSettled) return;
      isSettled = true;
      request.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer): void => {
      if (onChunk(chunk)) return;
      request.pause();
      settle(resolve);
    };
    const onEnd = (): void => settle(resolve);
    const onAbort = (): void => settle(() => reject(new BodyAbortedError()));
    const onClose = (): void => {
      if (!request.complete) onAbort();
    };
    request.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onClose);
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
