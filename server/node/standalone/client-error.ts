import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import { errorResponse, newRequestId, REQUEST_ID_HEADER } from '../../core/index.js';
import { PetstoreError } from '../../../lib/index.js';
import { isDiscarding, lingerAndClose } from '../handler.js';

/** The Error body for each failure Node's HTTP parser reports, by its error code. */
function errorFor(code: string | undefined): PetstoreError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new PetstoreError('headers_too_large', 'The request headers are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new PetstoreError('request_timeout', 'The request was not received in time');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new PetstoreError('payload_too_large', 'The chunk extensions of the request body are too large');
    default:
      return new PetstoreError('bad_request', `The request is not valid HTTP/1.1${code === undefined ? '' : ` (${code})`}`);
  }
}

/**
 * The raw bytes of an Error response that closes the connection, for sockets Node's parser gave up
 * on; with a new request id like every answer (the request's own, if any, was never parsed).
 */
export function rawErrorResponse(error: PetstoreError): string {
  const { status, headers, body } = errorResponse(error);
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
  for (let index = 0; index < headers.length; index += 2) head += `${headers[index]}: ${headers[index + 1]}\r\n`;
  return `${head}${REQUEST_ID_HEADER}: ${newRequestId()}\r\nConnection: close\r\n\r\n${typeof body === 'string' ? body : Buffer.from(body).toString('utf8')}`;
}

/** The responses of each connection that may not have finished, oldest first, as the server made them. */
const unfinished = new WeakMap<object, ServerResponse[]>();

/** Whether a response is all out (or its connection gone): no answer of it can be cut any more. */
function isOver(response: ServerResponse): boolean {
  return response.writableFinished || response.destroyed;
}

/**
 * Follows a response of the standalone server until it finishes or its connection closes, so a
 * parser error on its connection knows whether part of it is already out. Answers on one connection
 * finish in the order of their requests, so those that are over are dropped from the front as the
 * next one comes: no listener and no closure per request.
 */
export function trackResponse(socket: object, response: ServerResponse): void {
  const responses = unfinished.get(socket) ?? [];
  while (responses.length > 0 && isOver(responses[0] as ServerResponse)) responses.shift();
  if (responses.push(response) === 1) unfinished.set(socket, responses);
}

/** Whether every response of the socket is over: it waits for its next request. */
export function isIdle(socket: object): boolean {
  return (unfinished.get(socket) ?? []).every(isOver);
}

/** Whether part of a response already went out on the socket, so no other answer can follow on it. */
function hasStartedResponse(socket: Socket): boolean {
  return (unfinished.get(socket) ?? []).some((response) => response.headersSent && !isOver(response));
}

/**
 * The server's `clientError` listener: framing errors (400), oversize headers (431) and timeouts
 * (408) get the Error body like every other error, unless part of a response was already written;
 * the connection then closes with a lingering close, so a client still sending reads the answer.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET') return void socket.destroy();
  // Its answer is decided and its parser detached: a parse error or a timeout there is expected.
  if (isDiscarding(socket)) return;
  if (!socket.writable || hasStartedResponse(socket)) return void socket.destroy();
  socket.write(rawErrorResponse(errorFor(error.code)));
  lingerAndClose(socket);
}

/**
 * The server's `connect` listener. This server is no proxy, so it offers no tunnel [RFC 9110 §9.3.6];
 * without a listener Node drops such connections without a word. Node has detached its parser and
 * its error and timeout handling from the socket, so this listener guards both itself.
 */
export function handleConnect(_request: unknown, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.write(rawErrorResponse(new PetstoreError('bad_request', 'CONNECT is not supported: this server is not a proxy')));
  // Whatever follows is never read as a request; draining it avoids a reset that could eat the answer.
  lingerAndClose(socket);
}
