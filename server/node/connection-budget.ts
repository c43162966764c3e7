import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { HttpError } from '../core/index.js';
import { DEFAULT_BODY_LIMIT } from '../core/body.js';
import { closeAfterAnswer } from './closing-connections.js';
import type { Observation } from './server-plugin.js';
import { refuseRequest } from './responses.js';

/** What a refusal of the connection budget turned away: a connection at accept, or a request with a body. */
export type ConnectionRefusal = 'connections' | 'bodies';

/** What connections may hold at once, beside the heap's pets; see docs/operations.md, "Connections". */
export interface ConnectionBudget {
  /** Most connections open at once; one more is closed as soon as it is accepted, before a byte of it is read. Default DEFAULT_MAX_CONNECTIONS. */
  maxConnections?: number;
  /** Most bytes of request bodies being received at once, over every connection; a request whose body would pass it is a 503 with `Retry-After`. Default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Told of every refusal, for a metric (the operator's kit counts them in `petstore_connections_refused_total`). */
  onRefused?: (reason: ConnectionRefusal) => void;
}

/**
 * Default most connections at once (decided): each holds at most a 16 KiB request head (Node's
 * limit), its parser's copy of it and its socket's buffers, about 40 KiB at the worst (measured: 2,048
 * connections with unfinished 15 KB heads took 77 MB), so 1,024 take at most 40 MiB of the 100 MiB the
 * sizing rule leaves beside the old space.
 */
export const DEFAULT_MAX_CONNECTIONS = 1_024;

/** Default most bytes of request bodies received at once (decided): 256 bodies of the largest size, 16 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1_048_576;

/** Seconds a client refused for the bodies in flight is asked to wait: the smallest HTTP can ask for [RFC 9110 §10.2.3]. */
export const BODY_RETRY_AFTER = 1;

/** Whether a limit is a positive integer. */
function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/** The bytes a request's body may take while it is received: what Content-Length declares, or the limit for a chunked body, never more than the limit. */
function bodyBytesOf(request: IncomingMessage, bodyLimit: number): number {
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    return Number.isSafeInteger(length) && length >= 0 ? Math.min(length, bodyLimit) : 0;
  }
  return request.headers['transfer-encoding'] === undefined ? 0 : bodyLimit;
}

/**
 * Bounds what the connections of `server` hold: at most `maxConnections` open (Node closes one more at
 * accept and counts it as a drop), and at most `maxBodyBytes` of bodies being received. Returns the
 * admission check of a request: false when it was answered 503 `unavailable` with `Retry-After` and
 * its connection closes after the answer, since the rest of its body is not read.
 */
export function limitConnections(server: Server, budget: ConnectionBudget = {}, bodyLimit: number = DEFAULT_BODY_LIMIT): (request: IncomingMessage, response: ServerResponse, observation: Observation | undefined) => boolean {
  const maxConnections = budget.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const maxBodyBytes = budget.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!isCount(maxConnections)) throw new TypeError('startServer: `connections.maxConnections` must be a positive integer');
  if (!isCount(maxBodyBytes)) throw new TypeError('startServer: `connections.maxBodyBytes` must be a positive integer');
  const { onRefused } = budget;
  server.maxConnections = maxConnections;
  if (onRefused !== undefined) server.on('drop', () => onRefused('connections'));
  let bodyBytes = 0;
  return function admitBody(request, response, observation) {
    const bytes = bodyBytesOf(request, bodyLimit);
    if (bytes === 0) return true;
    if (bodyBytes + bytes > maxBodyBytes) {
      onRefused?.('bodies');
      closeAfterAnswer(request);
      const error = new HttpError('unavailable', `The server is receiving as many request bodies as it holds at once; repeat the request after ${BODY_RETRY_AFTER} second`, { headers: ['Retry-After', String(BODY_RETRY_AFTER)] });
      refuseRequest(request, response, error, observation, ['Connection', 'close']);
      return false;
    }
    bodyBytes += bytes;
    response.once('close', () => {
      bodyBytes -= bytes;
    });
    return true;
  };
}
