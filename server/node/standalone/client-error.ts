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

/**
 * The server's `clientError` listener, told the connection's `latest` unfinished response: framing errors (400),
 * oversize headers (431) and timeouts (408) get the Error body like every other error, unless part of a response was
 * already written; the connection then closes with a lingering close, so a client still sending reads the answer.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket, latest: ServerResponse | undefined): void {
  if (error.code === 'ECONNRESET') return void socket.destroy();
  // Its answer is decided and its parser detached: a parse error or a timeout there is expected.
  if (isDiscarding(socket)) return;
  // Another answer could run into the latest: it has begun, or waits behind an earlier one (only that one has the socket).
  if (!socket.writable || (latest !== undefined && (latest.headersSent || latest.socket === null))) return void socket.destroy();
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
