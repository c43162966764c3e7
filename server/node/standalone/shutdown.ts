import { ServerResponse } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { trackResponse } from './client-error.js';
import { closeAfterAnswer } from '../handler.js';

/** Time idle keep-alive connections keep at shutdown, so a request already on its way is answered rather than reset (ms). */
export const SHUTDOWN_IDLE_GRACE = 1_000;

/** A server's graceful shutdown: the response class that announces it, and the closing itself. */
export interface Shutdown {
  /** Responses that, once shutdown has begun, tell the client to open its next connection elsewhere. */
  readonly responseClass: typeof ServerResponse<IncomingMessage>;
  /** Stops accepting, lets in-flight requests finish, cuts what still runs at `deadline` (ms). */
  close(server: Server, deadline: number): Promise<void>;
}

/** Waits until `server` has closed, cutting every connection still open at the deadline. */
async function closeWithin(server: Server, deadline: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  // Only stop listening for now: Node's server.close() also cuts every idle keep-alive connection
  // at once, resetting requests already on their way. Those get a grace to arrive and be answered
  // with Connection: close; then server.close() cuts whatever is still idle. net.Server's close()
  // is public API; http.Server (Node 19 and later) offers no close that leaves idle connections be.
  NetServer.prototype.close.call(server);
  const grace = setTimeout(() => server.close(), Math.min(SHUTDOWN_IDLE_GRACE, deadline));
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => {
    timer = setTimeout(() => resolve(server.closeAllConnections()), deadline).unref();
  });
  await Promise.race([closed, cut]);
  clearTimeout(timer);
  await closed;
  clearTimeout(grace);
}

/** Creates the graceful shutdown of one server. */
export function createShutdown(): Shutdown {
  let isClosing = false;

  class ShutdownAwareResponse extends ServerResponse {
    constructor(...parameters: ConstructorParameters<typeof ServerResponse<IncomingMessage>>) {
      super(...parameters);
      // The server's one response class is where every response is known from its start.
      trackResponse(parameters[0].socket, this);
    }

    override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
      // Checked when the headers are written, so requests already in flight at shutdown get it too.
      if (isClosing) {
        this.shouldKeepAlive = false;
        closeAfterAnswer(this.req);
      }
      return Reflect.apply(super.writeHead, this, [statusCode, reason, headers]) as this;
    }
  }

  return {
    responseClass: ShutdownAwareResponse,
    close(server, deadline) {
      isClosing = true;
      return closeWithin(server, deadline);
    },
  };
}
