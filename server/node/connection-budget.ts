import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from '../core/index.js';
import { DEFAULT_BODY_LIMIT } from '../core/body.js';
import { closeAfterAnswer } from './closing-connections.js';
import type { Observation } from './server-plugin.js';
import { refuseRequest } from './responses.js';

/** What a refusal of the connection budget turned away: a connection at accept, or a request with a body. */
export type ConnectionRefusal = 'connections' | 'bodies';

/** What connections may hold at once, beside the heap's pets; see docs/operations.md, "Connections". */
export interface ConnectionBudget {
  /** Most connections open at once; past it the one that has done least makes room (see limitConnections). Default DEFAULT_MAX_CONNECTIONS. */
  maxConnections?: number;
  /** Most connections open at once from one client address; one more is closed at accept. Default none (clients behind one balancer share its address). */
  maxConnectionsPerAddress?: number;
  /** Most bytes of request bodies being received at once, over every connection; a request whose body would pass it is a 503 with `Retry-After`. Default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Told of every refusal, for a metric (the operator's kit counts them in `petstore_connections_refused_total`). */
  onRefused?: (reason: ConnectionRefusal) => void;
}

/**
 * Default most connections at once (decided): each holds at most a 16 KiB request head of at most
 * MAX_HEADER_LINES lines (Node's limits), its parser's copy of it and its socket's buffers, about 40 KiB
 * at the worst (measured: 2,048 connections with unfinished 15 KB heads took 77 MB), so 1,024 take at
 * most 40 MiB of the 100 MiB the sizing rule leaves beside the old space.
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

/** The first (oldest) member of a set, which keeps insertion order. */
function oldest(sockets: Set<Socket>): Socket | undefined {
  for (const socket of sockets) return socket;
  return undefined;
}

/**
 * Keeps at most `max` connections open, never letting newcomers be locked out (HAProxy keeps its slots
 * for connections that have done work): past the cap, the oldest connection that has not yet sent a
 * whole request head makes room, else the oldest idle keep-alive one; only when every connection has
 * a request under way is the newcomer closed. With `perAddress`, a newcomer from an address holding
 * that many is closed at accept. Returns the hook that marks a connection busy until its answer ends.
 */
function admitConnections(server: Server, max: number, perAddress: number | undefined, refuse: () => void): (request: IncomingMessage, response: ServerResponse) => void {
  const fresh = new Set<Socket>();
  const idle = new Set<Socket>();
  const busy = new Map<Socket, number>();
  const byAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = (byAddress.get(address) ?? 0) + 1;
    const victim = fresh.size + idle.size + busy.size < max ? undefined : oldest(fresh) ?? oldest(idle);
    if ((perAddress !== undefined && fromAddress > perAddress) || (victim === undefined && fresh.size + idle.size + busy.size >= max)) {
      refuse();
      socket.destroy();
      return;
    }
    if (victim !== undefined) {
      refuse();
      victim.destroy();
    }
    byAddress.set(address, fromAddress);
    fresh.add(socket);
    socket.once('close', () => {
      fresh.delete(socket) || idle.delete(socket) || busy.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
  return (request, response) => {
    const { socket } = request;
    if (socket.destroyed) return;
    fresh.delete(socket);
    idle.delete(socket);
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0 || socket.destroyed) return void busy.set(socket, left);
      busy.delete(socket);
      idle.add(socket);
    });
  };
}

/**
 * Bounds what the connections of `server` hold: at most `maxConnections` open (admitConnections), and
 * at most `maxBodyBytes` of bodies being received. Returns the admission check of a request: false
 * when it was answered 503 `unavailable` with `Retry-After` and its connection closes after the
 * answer, since the rest of its body is not read.
 */
export function limitConnections(server: Server, budget: ConnectionBudget = {}, bodyLimit: number = DEFAULT_BODY_LIMIT): (request: IncomingMessage, response: ServerResponse, observation: Observation | undefined) => boolean {
  const { maxConnections = DEFAULT_MAX_CONNECTIONS, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, maxConnectionsPerAddress, onRefused } = budget;
  for (const [name, value] of [['maxConnections', maxConnections], ['maxBodyBytes', maxBodyBytes], ['maxConnectionsPerAddress', maxConnectionsPerAddress ?? 1]] as const) {
    if (!isCount(value)) throw new TypeError(`startServer: \`connections.${name}\` must be a positive integer`);
  }
  const markBusy = admitConnections(server, maxConnections, maxConnectionsPerAddress, () => onRefused?.('connections'));
  let bodyBytes = 0;
  return function admitBody(request, response, observation) {
    markBusy(request, response);
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
