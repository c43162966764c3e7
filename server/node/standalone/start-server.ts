import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRequestCore, DEFAULT_BASE_PATH } from '../../core/index.js';
import type { PluginContext, RequestCore } from '../../core/index.js';
import { PetstoreError } from '../../../lib/index.js';
import { handleClientError, handleConnect } from './client-error.js';
import { limitConnections } from './connection-budget.js';
import type { ConnectionBudget, ConnectionLimits } from './connection-budget.js';
import { answerWithCore, closeByLingering } from '../handler.js';
import type { HandlerOptions } from '../handler.js';
import { deferContinue } from '../node-request.js';
import { createPipelineGuard } from './pipelining.js';
import { combineObservers } from './server-plugin.js';
import type { Observation, RequestObserver, ServerPlugin } from './server-plugin.js';
import { refuseRequest } from '../responses.js';
import { shutDown } from './shutdown.js';

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
/** Most header lines of a request (decided: Apache's `LimitRequestFields`); more is a 431. */
export const MAX_HEADER_LINES = 100;

/** Options of startServer: the handler's options plus where to listen, its plug-ins and its timeouts. */
export interface StartServerOptions extends Omit<HandlerOptions, 'plugins'> {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /**
   * Plug-ins: those of any core (the docs site) and the server's own, which also learn whether shutdown
   * has begun and may observe every request (the operator's kit: `/healthz`, `/readyz`, `/metrics`, the access log). Default none.
   */
  plugins?: readonly ServerPlugin[];
  /** Time in-flight requests get at shutdown (ms). Default 10000. */
  shutdownDeadline?: number;
  /** Overrides of the timeouts above (ms), mainly so tests need not wait for the production values. */
  timeouts?: Partial<ServerTimeouts>;
  /** What connections may hold at once (their number, the bytes of bodies being received), and who is told of a refusal. */
  connections?: ConnectionBudget;
}

/** The server's timeouts, in milliseconds. */
export interface ServerTimeouts {
  headers: number;
  request: number;
  keepAlive: number;
  socket: number;
  connectionsCheckingInterval: number;
}

/** Options of `RunningServer.close()`. */
export interface CloseOptions {
  /**
   * Time requests keep being served after `close()` is called while a readiness check already answers
   * 503 (the operator's kit's `/readyz`), so a load balancer stops sending before the listener closes (ms). Default 0.
   */
  delay?: number;
}

/** A listening server. */
export interface RunningServer {
  /** Base URL of the API, base path included, e.g. `http://127.0.0.1:8080/v1`. */
  url: string;
  /** The underlying `node:http` server. */
  server: Server;
  /**
   * Shuts down: a readiness check answers 503 at once; requests keep being served for `delay`; then the
   * server stops accepting, lets in-flight requests finish (cut at the deadline), and closes the
   * store. Later calls return the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** The `node:http` server with deliberate timeouts and an Error body for every answer Node's own layer would give. */
function createNodeServer(
  options: StartServerOptions, listener: RequestListener, follow: RequestListener, observer: RequestObserver | undefined, idOf: RequestCore['requestIdOf'],
): Server {
  const timeouts: ServerTimeouts = {
    headers: HEADERS_TIMEOUT, request: REQUEST_TIMEOUT, keepAlive: KEEP_ALIVE_TIMEOUT, socket: SOCKET_TIMEOUT,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL, ...options.timeouts,
  };
  const server = createServer({
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    // The core answers a missing Host itself, with the Error body instead of Node's empty 400.
    requireHostHeader: false,
  }, listener);
  server.keepAliveTimeout = timeouts.keepAlive;
  // Node keeps the lines past it unparsed into strings: a head of 1,400 short lines cost 80 KiB of heap.
  server.maxHeadersCount = MAX_HEADER_LINES + 1;
  server.setTimeout(timeouts.socket);
  server.on('connection', closeByLingering);
  server.on('connect', handleConnect);
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    deferContinue(response);
    listener(request, response);
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    follow(request, response);
    const expectation = JSON.stringify(String(request.headers.expect).slice(0, 100));
    const error = new PetstoreError('expectation_failed', `Only \`Expect: 100-continue\` is supported, not ${expectation}`);
    refuseRequest(request, response, error, observer?.(request, response), [], idOf);
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

/** Waits `delay` ms, serving as usual, then closes gracefully: the drain a load balancer needs to stop sending first. */
async function drainAndClose(options: StartServerOptions, server: Server, connections: ConnectionLimits, delay: number): Promise<void> {
  const { log } = options;
  log?.({ level: 'info', msg: 'Shutdown begun: /readyz answers 503; requests are served until the delay ends', delayMs: delay });
  if (delay > 0) await new Promise((resume) => setTimeout(resume, delay));
  await shutDown(server, options.shutdownDeadline ?? SHUTDOWN_DEADLINE, connections.unfinished());
  await options.store.close();
  log?.({ level: 'info', msg: 'Shutdown finished' });
}

/**
 * Starts the standalone server: the interface on `node:http` with deliberate timeouts, Error bodies
 * for what Node's parser rejects, graceful shutdown with an optional drain, and the routes and
 * observers of its plug-ins.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  let closing: Promise<void> | undefined;
  const basePath = options.basePath ?? DEFAULT_BASE_PATH;
  const isClosing = (): boolean => closing !== undefined;
  const observers: RequestObserver[] = [];
  // Each plug-in joins the core as any plug-in does, told also whether shutdown has begun; its observer is kept for the listener.
  const plugins = (options.plugins ?? []).map((plugin) => (context: PluginContext) => {
    const parts = plugin({ ...context, isClosing });
    if (parts.observe !== undefined) observers.push(parts.observe);
    return parts;
  });
  const core = createRequestCore({ ...options, plugins }, 'startServer');
  const observer = combineObservers(observers);
  const admitPipelined = createPipelineGuard(core.requestIdOf);

  // Every response the server makes, from its start: a parser error on its connection, the connection budget and shutdown ask after it.
  function follow(request: IncomingMessage, response: ServerResponse): void {
    connections.follow(request.socket, response);
    // Once shutdown stops the listener, every answer tells its client to open the next connection elsewhere.
    if (!server.listening) response.shouldKeepAlive = false;
  }

  // A request the server may run now: every guard of the connection budget first, then the core.
  function serve(request: IncomingMessage, response: ServerResponse, observation: Observation | undefined): void {
    if (!connections.admitBody(request, response, observation)) return;
    // Node keeps MAX_HEADER_LINES + 1 lines of a head, so one more than the limit says there were more.
    if (request.rawHeaders.length > 2 * MAX_HEADER_LINES) {
      const error = new PetstoreError('headers_too_large', `The request has more than ${MAX_HEADER_LINES} header lines`);
      return refuseRequest(request, response, error, observation, [], core.requestIdOf);
    }
    answerWithCore(core, request, response, observation);
  }

  function listener(request: IncomingMessage, response: ServerResponse): void {
    follow(request, response);
    const observation = observer?.(request, response);
    admitPipelined(request, response, observation, serve);
  }

  const server = createNodeServer(options, listener, follow, observer, core.requestIdOf);
  const connections = limitConnections(server, options.connections, options.bodyLimit);
  server.on('clientError', (error: Error, socket: Socket) => handleClientError(error, socket, connections.unfinished(socket)[0]));
  const address = await listen(server, options.port ?? 8080, options.host ?? '127.0.0.1');
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}${basePath}`;
  const close = (closeOptions: CloseOptions = {}): Promise<void> => {
    if (closing !== undefined) return closing;
    const delay = closeOptions.delay ?? 0;
    if (!(Number.isFinite(delay) && delay >= 0)) return Promise.reject(new TypeError('close: `delay` must be a number of milliseconds, 0 or more'));
    return (closing = drainAndClose(options, server, connections, delay));
  };
  return { url, server, close };
}
