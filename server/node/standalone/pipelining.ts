import type { IncomingMessage, ServerResponse } from 'node:http';
import { PetstoreError } from '../../../lib/index.js';
import type { RequestHeaders } from '../../core/index.js';
import { closeAfterAnswer, isOnClosingConnection } from '../handler.js';
import type { Observation } from './server-plugin.js';
import { refuseRequest } from '../responses.js';

/** Most requests waiting on one connection behind the one answered (decided: pipelining clients use a handful; an unread answer still fills socket buffers). */
export const MAX_PIPELINED_REQUESTS = 16;

/** Most requests waiting behind another over all connections (decided: two a connection of the budget; each holds about 2 KiB). */
export const MAX_WAITING_REQUESTS = 2_048;

/** Most waiting requests run in one turn of the event loop, over all connections. */
const RUNS_PER_TURN = 16;

/** Runs a request the pipeline guard admits; the guard hands it what it was given. */
type Run = (request: IncomingMessage, response: ServerResponse, observation: Observation | undefined) => void;

/**
 * Creates the server's admission check for pipelined requests, which runs a request (`run`) once it
 * may. Node parses every request it reads and would run them all at once, keeping every answer until
 * the client reads the ones before: so a request waiting behind an unanswered one runs when its turn
 * comes (its response gets the socket), and Node stops reading a connection while its one answer waits
 * for the client (backpressure). Past MAX_PIPELINED_REQUESTS waiting on its connection, a request gets
 * a 400 that closes the connection; one that would pass MAX_WAITING_REQUESTS (those ignored behind a
 * refusal included) has its connection cut.
 */
export function createPipelineGuard(
  idOf: (headers: RequestHeaders) => string,
): (request: IncomingMessage, response: ServerResponse, observation: Observation | undefined, run: Run) => void {
  const waiting = new WeakMap<object, number>();
  const ready: (() => void)[] = [];
  let held = 0;
  // A few a turn, after the loop's I/O: a thousand pipelines whose turns come at once cannot hold off every other client.
  const runReady = (): void => {
    for (const run of ready.splice(0, RUNS_PER_TURN)) run();
    if (ready.length > 0) setImmediate(runReady);
  };

  return function admit(request, response, observation, run) {
    // Only a request queued behind an unanswered one has no socket yet: the usual one costs one check.
    // With one, it is on a closing connection only behind an answer already out (a 413): it must never run.
    if (response.socket !== null) return isOnClosingConnection(request) ? undefined : run(request, response, observation);
    const socket = request.socket;
    held++;
    request.once('close', () => held--);
    // Each holds its own objects, which only cutting the connection frees: an answer would wait behind the others.
    if (held > MAX_WAITING_REQUESTS) return void socket.destroy();
    const count = (waiting.get(socket) ?? 0) + 1;
    if (isOnClosingConnection(request)) return;
    if (count > MAX_PIPELINED_REQUESTS) {
      closeAfterAnswer(request);
      const rule = `at most ${MAX_PIPELINED_REQUESTS} may wait unanswered on one connection; send the rest on a new connection`;
      const error = new PetstoreError('bad_request', `Too many pipelined requests: ${rule}`);
      return refuseRequest(request, response, error, observation, ['Connection', 'close'], idOf);
    }
    waiting.set(socket, count);
    // Node gives an answer that closes the connection no successor: a request that gets the socket may run.
    response.once('socket', () => {
      waiting.set(socket, (waiting.get(socket) ?? 1) - 1);
      if (ready.push(() => run(request, response, observation)) === 1) setImmediate(runReady);
    });
  };
}
