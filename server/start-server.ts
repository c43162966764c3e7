import { createServer, ServerResponse } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BASE_PATH, logToConsole } from '../http/index.js';
import { PetstoreError } from '../lib/index.js';
import { logAccess } from './access-log.js';
import { handleClientError, handleConnect } from './client-error.js';
import { closeAfterAnswer } from './closing-connections.js';
import { createNodeListener } from './handler.js';
import type { HandlerOptions } from './handler.js';
import { deferContinue } from './node-request.js';
import { createPipelineGuard } from './pipelining.js';
import { sendError } from './responses.js';

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
/** Time idle keep-alive connections keep at shutdown, so a request already on its way is answered rather than reset (ms). */
export const SHUTDOWN_IDLE_GRACE = 1_000;

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

/**
 * Starts the standalone server: the handler plus `/healthz`, deliberate timeouts, Error bodies for
 * what Node's parser rejects, and graceful shutdown.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const handler = createNodeListener({ ...options, servesServerRoutes: true }, 'startServer');
  const logError = options.logError ?? logToConsole;
  const accessLog = options.accessLog;
  const shutdownDeadline = options.shutdownDeadline ?? SHUTDOWN_DEADLINE;
  const shutdown = { isClosing: false };

  /** Responses that, once shutdown has begun, tell the client to open its next connection elsewhere. */
  class ShutdownAwareResponse extends ServerResponse {
    override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
      // Checked when the headers are written, so requests already in flight at shutdown get it too.
      if (shutdown.isClosing) {
        this.shouldKeepAlive = false;
        closeAfterAnswer(this.req);
      }
      return Reflect.apply(super.writeHead, this, [statusCode, reason, headers]) as this;
    }
  }

  const admitPipelined = createPipelineGuard();

  function listener(request: IncomingMessage, response: ServerResponse): void {
    if (accessLog !== undefined) logAccess(request, response, accessLog);
    if (!admitPipelined(request, response)) return;
    handler(request, response);
  }

  const timeouts: ServerTimeouts = {
    headers: HEADERS_TIMEOUT,
    request: REQUEST_TIMEOUT,
    keepAlive: KEEP_ALIVE_TIMEOUT,
    socket: SOCKET_TIMEOUT,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL,
    ...options.timeouts,
  };
  const server = createServer({
    ServerResponse: ShutdownAwareResponse,
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    // The handler answers a missing Host itself, with the Error body instead of Node's empty 400.
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

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${hostForUrl(address)}:${address.port}${options.basePath ?? DEFAULT_BASE_PATH}`;

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      shutdown.isClosing = true;
      const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
      // Only stop listening for now: Node's server.close() also cuts every idle keep-alive connection
      // at once, resetting requests already on their way. Those get a grace to arrive and be answered
      // with Connection: close; then server.close() cuts whatever is still idle.
      NetServer.prototype.close.call(server);
      const grace = setTimeout(() => server.close(), Math.min(SHUTDOWN_IDLE_GRACE, shutdownDeadline));
      let deadline: NodeJS.Timeout | undefined;
      const cut = new Promise<void>((resolve) => {
        deadline = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, shutdownDeadline);
        deadline.unref();
      });
      await Promise.race([closed, cut]);
      clearTimeout(deadline);
      await closed;
      clearTimeout(grace);
      await options.store.close();
    })();
    return closing;
  }

  return { url, server, close };
}
