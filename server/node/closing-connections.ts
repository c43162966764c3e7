import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeByLingering, discardIncoming } from './lingering-close.js';

/** Connections that end after an answer already decided (a 413, a refused pipeline): nothing behind it may run. */
const closing = new WeakSet<object>();

/**
 * Marks the request's connection as ending after the answer to this request: what the client still
 * sends is discarded unparsed, and the connection closes with a lingering close once that answer is out.
 */
export function closeAfterAnswer(request: IncomingMessage): void {
  const { socket } = request;
  if (closing.has(socket)) return;
  closing.add(socket);
  discardIncoming(socket);
  closeByLingering(socket);
}

/**
 * Whether a request arrived behind an answer that closes its connection. Node parses and dispatches
 * pipelined requests at once, so such a request would run (a create!) without ever being answered:
 * it must not run at all [RFC 9112 §9.6: no further requests once the server decided to close].
 */
export function isOnClosingConnection(request: IncomingMessage): boolean {
  return closing.has(request.socket);
}

/** Largest unread body still drained to keep a connection (bytes): a small one costs less than a new connection. */
const DRAINED_BODY_LIMIT = 65_536;

/**
 * Whether the request announced a body (RFC 9112 §6.3) that was not read and is large or of unknown
 * length (chunked). Decided on what the request declares, never on how much of it has arrived, so the
 * answer is the same whether the bytes came at once or one at a time.
 */
function hasCostlyUnreadBody(request: IncomingMessage): boolean {
  if (request.readableDidRead) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > DRAINED_BODY_LIMIT);
}

/**
 * Makes an answer given before the body was read (401, 404, 405, 415) close its connection when that
 * body is large or chunked: Node would otherwise read and discard it, up to the request timeout, only
 * to reuse the connection. Small declared bodies are drained, so pipelining clients keep theirs.
 */
export function closeIfBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  if (!hasCostlyUnreadBody(request)) return;
  closeAfterAnswer(request);
  response.shouldKeepAlive = false;
}
