import type { IncomingMessage, ServerResponse } from 'node:http';
import { PetstoreError } from '../../lib/index.js';
import type { RequestHeaders } from '../core/index.js';
import { closeAfterAnswer, isOnClosingConnection } from './closing-connections.js';
import type { Observation } from './server-plugin.js';
import { refuseRequest } from './responses.js';

/** Most requests that may wait on one connection behind the one being answered (decided: pipelining clients use a handful). */
export const MAX_PIPELINED_REQUESTS = 32;

/** Requests that keep arriving on a connection told to close before it is cut without further ado. */
const MAX_IGNORED_REQUESTS = 1_024;

/**
 * Creates the server's admission check for pipelined requests. Node runs every request it parses and
 * keeps the answers in memory until the client reads them, so a client that pipelines thousands of
 * requests and reads nothing made the server hold megabytes per connection and starve everyone else.
 * Past MAX_PIPELINED_REQUESTS waiting, the request gets a 400 with `Connection: close` and nothing
 * behind it runs; a client that still keeps sending after that has its connection cut.
 * Returns whether the request may run.
 */
export function createPipelineGuard(idOf?: (headers: RequestHeaders) => string): (request: IncomingMessage, response: ServerResponse, observation: Observation | undefined) => boolean {
  const waiting = new WeakMap<object, number>();
  const ignored = new WeakMap<object, number>();

  return function admit(request, response, observation) {
    // Only a request queued behind an unanswered one has no socket yet: the usual one costs one check.
    if (response.socket !== null) return true;
    const socket = request.socket;
    if (isOnClosingConnection(request)) {
      const count = (ignored.get(socket) ?? 0) + 1;
      ignored.set(socket, count);
      if (count > MAX_IGNORED_REQUESTS) socket.destroy();
      return false;
    }
    const count = (waiting.get(socket) ?? 0) + 1;
    if (count > MAX_PIPELINED_REQUESTS) {
      closeAfterAnswer(request);
      const error = new PetstoreError('bad_request', `Too many pipelined requests: at most ${MAX_PIPELINED_REQUESTS} may wait unanswered on one connection; send the rest on a new connection`);
      refuseRequest(request, response, error, observation, ['Connection', 'close'], idOf);
      return false;
    }
    waiting.set(socket, count);
    response.once('finish', () => waiting.set(socket, (waiting.get(socket) ?? 1) - 1));
    return true;
  };
}
