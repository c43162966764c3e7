import type { IncomingMessage } from 'node:http';

/** Connections that end after an answer already decided (a 413, a refused pipeline): nothing behind it may run. */
const closing = new WeakSet<object>();

/** Marks the request's connection as ending after the answer to this request. */
export function closeAfterAnswer(request: IncomingMessage): void {
  closing.add(request.socket);
}

/**
 * Whether a request arrived behind an answer that closes its connection. Node parses and dispatches
 * pipelined requests at once, so such a request would run (a create!) without ever being answered:
 * it must not run at all [RFC 9112 §9.6: no further requests once the server decided to close].
 */
export function isOnClosingConnection(request: IncomingMessage): boolean {
  return closing.has(request.socket);
}
