import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { HttpError } from '../../core/index.js';
import { DEFAULT_BODY_LIMIT } from '../../core/request.js';
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

/** What the server knows of an open connection. */
interface OpenConnection {
  /** Whether a whole request head came on it. */
  hasRequested: boolean;
  /** Its latest response: answers on one connection finish in the order of their requests, so it alone tells whether all are over. */
  latest: ServerResponse | undefined;
  /** Bytes of its latest body counted against the budget, until its answer is over. */
  bodyBytes: number;
}

/** Whether a response is all out (or its connection gone): no answer of it can be cut any more. */
function isOver(response: ServerResponse): boolean {
  return response.writableFinished || response.destroyed;
}

/** Whether every response of the connection is over: it waits for its next request. */
function isIdle(connection: OpenConnection | undefined): boolean {
  return connection?.latest === undefined || isOver(connection.latest);
}

/** The connection that makes room for a newcomer: the oldest without a whole request head, else the oldest idle one. */
function oldestToClose(open: ReadonlyMap<Socket, OpenConnection>): Socket | undefined {
  const connections = [...open];
  return (connections.find(([, connection]) => !connection.hasRequested) ?? connections.find(([, connection]) => isIdle(connection)))?.[0];
}

/** The connection budget of a server, and what it knows of each open connection. */
export interface ConnectionLimits {
  /** Told of each response as the server makes it: its connection has sent a whole request head, and this is its latest answer. */
  follow(socket: Socket, response: ServerResponse): void;
  /** The latest response of `socket`'s connection, or of every open connection, where it has not finished. */
  unfinished(socket?: Socket): ServerResponse[];
  /** False when the request was answered 503 `unavailable` with `Retry-After`; its connection closes after it, the rest of its body unread. */
  admitBody(request: IncomingMessage, response: ServerResponse, observation: Observation | undefined): boolean;
}

/**
 * Bounds what the connections of `server` hold. At most `maxConnections` open, never locking newcomers
 * out (HAProxy keeps its slots for connections that have done work): past the cap, oldestToClose makes
 * room, and only when every connection has a request under way is the newcomer closed; with
 * `perAddress`, a newcomer from an address holding that many is closed at accept. At most
 * `maxBodyBytes` of bodies being received: each body counts on its connection until its answer is
 * over, which the connection's next request with a body, its close or a refusal's recount finds, so
 * no request pays a listener for it.
 */
export function limitConnections(server: Server, budget: ConnectionBudget = {}, bodyLimit = DEFAULT_BODY_LIMIT): ConnectionLimits {
  const { maxConnections = DEFAULT_MAX_CONNECTIONS, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, maxConnectionsPerAddress, onRefused } = budget;
  for (const [name, value] of Object.entries({ maxConnections, maxBodyBytes, maxConnectionsPerAddress: maxConnectionsPerAddress ?? 1 })) {
    if (!(Number.isSafeInteger(value) && value > 0)) throw new TypeError(`startServer: \`connections.${name}\` must be a positive integer`);
  }
  // Insertion order is age: the first is the oldest.
  const open = new Map<Socket, OpenConnection>();
  const byAddress = new Map<string | undefined, number>();
  let bodyBytes = 0;
  const release = (connection: OpenConnection): void => {
    bodyBytes -= connection.bodyBytes;
    connection.bodyBytes = 0;
  };
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    const fromAddress = (byAddress.get(address) ?? 0) + 1;
    const isFull = open.size >= maxConnections;
    const victim = isFull ? oldestToClose(open) : undefined;
    const refused = (maxConnectionsPerAddress !== undefined && fromAddress > maxConnectionsPerAddress) || (isFull && victim === undefined) ? socket : victim;
    if (refused !== undefined) {
      onRefused?.('connections');
      refused.destroy();
      if (refused === socket) return;
    }
    byAddress.set(address, fromAddress);
    const connection: OpenConnection = { hasRequested: false, latest: undefined, bodyBytes: 0 };
    open.set(socket, connection);
    socket.once('close', () => {
      release(connection);
      open.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      void (left === 0 ? byAddress.delete(address) : byAddress.set(address, left));
    });
  });
  return {
    follow(socket, response) {
      const connection = open.get(socket);
      if (connection === undefined) return;
      connection.hasRequested = true;
      connection.latest = response;
    },
    unfinished(socket) {
      const connections = socket === undefined ? [...open.values()] : [open.get(socket)];
      return connections.flatMap((connection) => isIdle(connection) ? [] : [connection?.latest as ServerResponse]);
    },
    admitBody(request, response, observation) {
      const bytes = bodyBytesOf(request, bodyLimit);
      if (bytes === 0) return true;
      const connection = open.get(request.socket);
      if (connection === undefined) return true;
      // A request runs once its response holds the socket: every earlier answer on its connection is out.
      release(connection);
      if (bodyBytes + bytes > maxBodyBytes) for (const other of open.values()) if (isIdle(other)) release(other);
      if (bodyBytes + bytes > maxBodyBytes) {
        onRefused?.('bodies');
        closeAfterAnswer(request);
        const message = `The server is receiving as many request bodies as it holds at once; repeat the request after ${BODY_RETRY_AFTER} second`;
        const error = new HttpError('unavailable', message, { headers: ['Retry-After', String(BODY_RETRY_AFTER)] });
        refuseRequest(request, response, error, observation, ['Connection', 'close']);
        return false;
      }
      connection.bodyBytes += bytes;
      bodyBytes += bytes;
      return true;
    },
  };
}
