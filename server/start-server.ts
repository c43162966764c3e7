import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BASE_PATH, logToConsole } from '../http/index.js';
import { PetstoreError } from '../lib/index.js';
import { logAccess } from './access-log.js';
import { handleClientError, handleConnect } from './client-error.js';
import { createNodeListener } from './handler.js';
import type { HandlerOptions } from './handler.js';
import { deferContinue } from './node-request.js';
import { createPipelineGuard } from './pipelining.js';
import { sendError } from './responses.js';
import { createShutdown } from './shutdown.js';

/** Time a client has to send its request headers (ms); slower clients get a 408 and are cut off. */
export const HEADERS_TIMEOUT = 10_000;
/** Time a client has to send its whole request (ms). */
export const REQUEST_TIMEOUT = 30_000;
/** Time an idle keep-alive connection is kept open between requests (ms). */
export const KEEP_ALIVE_TIMEOUT = 5_000;
/** How often Node checks the two timeouts above (ms); they are enforced only at these checks. */
export const CONNECTIONS_CHECKING_INTERVAL = 1_000;
/** Time a socket may make no progress at all, e.g. a client that stops reading its response (ms). */
export const SOCKET_TIMEOUT = 30_000;
/** Time in-flight requests get to finish after shutdown starts, before their connections are cut (ms). */
export const SHUTDOWN_DEADLINE = 10_000;

/** Options of startServer: the handler's options plus where to listen and how to operate. */
export interface StartServerOptions extends HandlerOptions {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Receives one JSON line per request when given; off by default. */
  accessLog?: (line: string) => void;
  /** Time in-flight requests get at shutdown (ms). Default 10000. */
  shutdownDeadline?: number;
  /** Overrides of the timeouts above (ms), mainly so tests need not wait for the production values. */
  timeouts?: Partial<ServerTimeouts>;
}

/** The server's timeouts, in milliseconds. */
export interface ServerTimeouts {
  headers: number;
  request: number;
  keepAlive: number;
  socket: number;
  connectionsCheckingInterval: number;
}

/** A listening server. */
export interface RunningServer {
  /** Base URL of the API, base path included, e.g. `http://127.0.0.1:8080/v1`. */
  url: string;
  /** The underlying `node:http` server. */
  server: Server;
  /** Stops accepting, lets in-flight requests finish (cut at the deadline), then closes the store. */
  close(): Promise<void>;
}

function hostForUrl(address: AddressInfo): string {
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

/** The timeouts in force: the production values above, with the caller's overrides. */
function timeoutsOf(options: StartServerOptions): ServerTimeouts {
  return {
    headers: HEADERS_TIMEOUT,
    request: REQUEST_TIMEOUT,
    keepAlive: KEEP_ALIVE_TIMEOUT,
    socket: SOCKET_TIMEOUT,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL,
    ...options.timeouts,
  };
}

/** The `node:http` server with deliberate timeouts and an Error body for every answer Node's own layer would give. */
function createNodeServer(options: StartServerOptions, listener: RequestListener, responseClass: typeof ServerResponse<IncomingMessage>): Server {
  const timeouts = timeoutsOf(options);
  const logError = options.logError ?? logToConsole;
  const server = createServer({
    ServerResponse: responseClass,
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    // The core answers a missing Host itself, with the Error body instead of Node's empty 400.
    requireHostHeader: false,
  }, listener);
  server.keepAliveTimeout = timeouts.keepAlive;
  server.setTimeout(timeouts.socket);
  server.on('clientError', handleClientError);
  server.on('connect', handleConnect);
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    deferContinue(response);
    listener(request, response);
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    sendError(response, new PetstoreError('expectation_failed', `Only \`Expect: 100-continue\` is supported, not ${JSON.stringify(String(request.headers.expect).slice(0, 100))}`), { logError });
  });
  return server;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Starts the standalone server: the handler plus `/healthz`, deliberate timeouts, Error bodies for
 * what Node's parser rejects, and graceful shutdown.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const handler = createNodeListener({ ...options, servesServerRoutes: true }, 'startServer');
  const { accessLog } = options;
  const shutdown = createShutdown();
  const admitPipelined = createPipelineGuard();

  function listener(request: IncomingMessage, response: ServerResponse): void {
    if (accessLog !== undefined) logAccess(request, response, accessLog);
    if (!admitPipelined(request, response)) return;
    handler(request, response);
  }

  const server = createNodeServer(options, listener, shutdown.responseClass);
  const address = await listen(server, options.port ?? 8080, options.host ?? '127.0.0.1');
  const url = `http://${hostForUrl(address)}:${address.port}${options.basePath ?? DEFAULT_BASE_PATH}`;
  const deadline = options.shutdownDeadline ?? SHUTDOWN_DEADLINE;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= shutdown.close(server, deadline).then(() => options.store.close()));
  return { url, server, close };
}
