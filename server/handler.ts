import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequestCore } from '../http/index.js';
import type { CoreResponse, RequestCoreOptions } from '../http/index.js';
import { closeAfterAnswer, closeIfBodyUnread, isOnClosingConnection } from './closing-connections.js';
import { toCoreRequest } from './node-request.js';
import { writeResponse } from './responses.js';

/** Options of createHandler: those of the request core. */
export type HandlerOptions = Omit<RequestCoreOptions, 'servesServerRoutes'>;

/** A `node:http` request listener; `next` (Express/Connect style) receives requests outside the base path. */
export type PetstoreHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** Whether an answer ends its connection (`Connection: close`, as a 413 does). */
function closesConnection(answer: CoreResponse): boolean {
  const { headers } = answer;
  for (let index = 0; index < headers.length; index += 2) {
    if (headers[index] === 'Connection' && headers[index + 1] === 'close') return true;
  }
  return false;
}

/** Writes the core's answer, deciding first whether the connection may carry another request after it. */
function answer(request: IncomingMessage, response: ServerResponse, reply: CoreResponse): void {
  // The client went away mid-body: there is nobody to answer.
  if (request.socket.destroyed) return;
  if (reply.status >= 400) {
    if (closesConnection(reply)) closeAfterAnswer(request);
    else closeIfBodyUnread(request, response);
  }
  writeResponse(response, reply);
}

/** Creates the `node:http` listener over the request core; a thin translation with the connection-level care in this folder. */
export function createNodeListener(options: RequestCoreOptions, caller: string): PetstoreHandler {
  const core = createRequestCore(options, caller);
  return function handlePetstore(request, response, next) {
    // Its connection closes after an earlier answer (a 413), so this request would run without ever being answered.
    if (isOnClosingConnection(request)) return;
    if (next !== undefined && !core.isOwnTarget(request.url ?? '/')) return next();
    const reply = core.handle(toCoreRequest(request, response));
    if (reply instanceof Promise) void reply.then((settled) => answer(request, response, settled));
    else answer(request, response, reply);
  };
}

/**
 * Creates the request listener for the interface [spec 4, 5, 7], for mounting in a `node:http`
 * server or a framework; requests outside the base path go to `next` when one is given.
 */
export function createHandler(options: HandlerOptions): PetstoreHandler {
  return createNodeListener(options, 'createHandler');
}
