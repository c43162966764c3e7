import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { HttpError } from '../../core/index.js';
import { DEFAULT_BODY_LIMIT } from '../../core/request.js';
import { isIdle } from './client-error.js';
import { closeAfterAnswer } from '../handler.js';
import type { Observation } from './server-plugin.js';
import { refuseRequest } from '../responses.js';

/** What a refusal of the connection budget turned away: a connection at accept, or a request with a body. */
export type ConnectionRefusal = 'connections' | 'bodies';

/** What connections may hold at once, beside the heap's pets; see docs/operations.md, "Connections". */
export interface ConnectionBudget {
  /** Most connections open at once; past it the one that has done least makes room (see limitConnections). Default DEFAULT_MAX_CONNECTIONS. */
  maxConnections?: number;
  /** Most connections open at once from one client address; one more is closed at accept. Default none (clients behind one balancer share its address). */
  maxConnectionsPerAddress?: number;
  /** Most bytes of bodies being received at once over all connections; past it a request is a 503 with `Retry-After`. Default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Told of every refusal, for a metric (the operator's kit counts them in `petstore_connections_refused_total`). */
  onRefused?: (reason: ConnectionRefusal) => void;
}

/** Heap a connection may hold at the worst (measured: 33 pipelined requests in one read, which Node parses before any is refused, took 84 KB). */
export const CONNECTION_HEAP_BYTES = 88 * 1_024;

/**
 * Default most connections at once (decided): 1,024, or as many as a quarter of V8's heap limit holds
 * at CONNECTION_HEAP_BYTES each (325 on a 64 MiB old space, 512 on 128 MiB, 884 on 256 MiB), since
 * Node parses every request a read brings before any of them can be refused.
 */
export const DEFAULT_MAX_CONNECTIONS = Math.min(1_024, Math.floor(getHeapStatistics().heap_size_limit / 4 / CONNECTION_HEAP_BYTES));

/** Default most bytes of request bodies received at once (decided): 256 bodies of the largest size, 16 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1_048_576;

/** Seconds a client refused for the bodies in flight is asked to wait: the smallest HTTP can ask for [RFC 9110 §10.2.3]. */
export const BODY_RETRY_AFTER = 1;

/** The bytes a request's body may take while it is received: what Content-Length declares, or the limit for a chunked body, never more than the limit. */
function bodyBytesOf(request: IncomingMessage, bodyLimit: number): number {
  const declared = request.headers['content-length'];
  if (declared === undefined) return request.headers['transfer-encoding'] === undefined ? 0 : bodyLimit;
  const length = Number(declared);
  return Number.isSafeInteger(length) && length >= 0 ? Math.min(length, bodyLimit) : 0;
}

/**
 * Keeps at most `max` connections open, never letting newcomers be locked out (HAProxy keeps its slots
 * for connections that have done work): past the cap, the oldest connection that has not yet sent a
 * whole request head makes room, else the oldest idle keep-alive one; only when every connection has
 * a request under way is the newcomer closed. With `perAddress`, a newcomer from an address holding
 * that many is closed at accept.
 */
function admitConnections(
  server: Server, max: number, perAddress: number | undefined, refuse: () => void,
): Pick<ConnectionLimits, 'open'> & { markUsed(socket: Socket): void } {
  // Insertion order is age: the first of each set is its oldest.
  const fresh = new Set<Socket>();
  const used = new Set<Socket>();
  const byAddress = new Map<string | undefined, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    const fromAddress = (byAddress.get(address) ?? 0) + 1;
    const isFull = fresh.size + used.size >= max;
    const victim = isFull ? [...fresh, ...used].find((open) => fresh.has(open) || isIdle(open)) : undefined;
    const refused = (perAddress !== undefined && fromAddress > perAddress) || (isFull && victim === undefined) ? socket : victim;
    if (refused !== undefined) {
      refuse();
      refused.destroy();
      if (refused === socket) return;
    }
    byAddress.set(address, fromAddress);
    fresh.add(socket);
    socket.once('close', () => {
      if (!fresh.delete(socket)) used.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      void (left === 0 ? byAddress.delete(address) : byAddress.set(address, left));
    });
  });
  return {
    markUsed: (socket) => void (fresh.delete(socket) && used.add(socket)),
    open: () => [...fresh, ...used],
  };
}

/** The connection budget of a server: the admission check of each request, and the connections open now. */
export interface ConnectionLimits {
  /** False when the request was answered 503 `unavailable` with `Retry-After`; its connection closes after it, the rest of its body unread. */
  admitBody(request: IncomingMessage, response: ServerResponse, observation: Observation | undefined): boolean;
  open(): Socket[];
}

/** Bounds what the connections of `server` hold: at most `maxConnections` open (admitConnections), and `maxBodyBytes` of bodies being received. */
export function limitConnections(server: Server, budget: ConnectionBudget = {}, bodyLimit = DEFAULT_BODY_LIMIT): ConnectionLimits {
  const { maxConnections = DEFAULT_MAX_CONNECTIONS, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, maxConnectionsPerAddress, onRefused } = budget;
  for (const [name, value] of Object.entries({ maxConnections, maxBodyBytes, maxConnectionsPerAddress: maxConnectionsPerAddress ?? 1 })) {
    if (!(Number.isSafeInteger(value) && value > 0)) throw new TypeError(`startServer: \`connections.${name}\` must be a positive integer`);
  }
  const connections = admitConnections(server, maxConnections, maxConnectionsPerAddress, () => onRefused?.('connections'));
  let bodyBytes = 0;
  const admitBody: ConnectionLimits['admitBody'] = (request, response, observation) => {
    connections.markUsed(request.socket);
    const bytes = bodyBytesOf(request, bodyLimit);
    if (bytes === 0) return true;
    if (bodyBytes + bytes > maxBodyBytes) {
      onRefused?.('bodies');
      closeAfterAnswer(request);
      const message = `The server is receiving as many request bodies as it holds at once; repeat the request after ${BODY_RETRY_AFTER} second`;
      const error = new HttpError('unavailable', message, { headers: ['Retry-After', String(BODY_RETRY_AFTER)] });
      refuseRequest(request, response, error, observation, ['Connection', 'close']);
      return false;
    }
    bodyBytes += bytes;
    response.once('close', () => (bodyBytes -= bytes));
    return true;
  };
  return { admitBody, open: connections.open };
}
