import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequestCore } from '../core/index.js';
import type { CoreResponse, RequestCore, RequestCoreOptions } from '../core/index.js';
import { closeAfterAnswer, closeIfBodyUnread, isOnClosingConnection } from './closing-connections.js';
import { isOwnRequest, toCoreRequest } from './node-request.js';
import type { Observation } from './standalone/server-plugin.js';
import { writeResponse } from './responses.js';

/** Options of createHandler: those of the request core. */
export type HandlerOptions = RequestCoreOptions;

/** A `node:http` request listener; `next` (Express/Connect style) receives requests outside the base path. */
export type PetstoreHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** Writes the core's answer, deciding first whether the connection may carry another request after it. */
function answer(request: IncomingMessage, response: ServerResponse, reply: CoreResponse, observation: Observation | undefined): void {
  observation?.answered(reply);
  // The client went away mid-body: there is nobody to answer.
  if (request.socket.destroyed) return;
  if (reply.closesConnection === true) {
    closeAfterAnswer(request);
    // Node then sends `Connection: close` and ends the connection after this answer.
    response.shouldKeepAlive = false;
  } else if (reply.status >= 400) {
    closeIfBodyUnread(request, response);
  }
  writeResponse(response, reply);
}

/** Answers a `node:http` request with the request core and this folder's care of the connection; `observation` learns when and what. */
export function answerWithCore(core: RequestCore, request: IncomingMessage, response: ServerResponse, observation?: Observation): void {
  observation?.enterCore();
  const reply = core.handle(toCoreRequest(request, response));
  if (reply instanceof Promise) void reply.then((settled) => answer(request, response, settled, observation));
  else answer(request, response, reply, observation);
}

/** Creates the request listener for the interface [spec 4, 5, 7] for a `node:http` server or a framework; `next` gets other paths. */
export function createHandler(options: HandlerOptions): PetstoreHandler {
  const core = createRequestCore(options, 'createHandler');
  return function handlePetstore(request, response, next) {
    // Its connection closes after an earlier answer (a 413), so this request would run without ever being answered.
    if (isOnClosingConnection(request)) return;
    if (!isOwnRequest(request, core.isOwnTarget) && next !== undefined) return next();
    answerWithCore(core, request, response);
  };
}
