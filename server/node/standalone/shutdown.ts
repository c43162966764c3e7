import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** Time idle keep-alive connections keep at shutdown, so a request already on its way is answered rather than reset (ms). */
export const SHUTDOWN_IDLE_GRACE = 1_000;

/** A server's graceful shutdown: what announces it to each client, and the closing itself. */
export interface Shutdown {
  /** Told of each response as the server makes it: once shutdown has begun, it tells its client to open the next connection elsewhere. */
  follow(response: ServerResponse): void;
  /** Stops accepting, lets in-flight requests finish, the `latest` unfinished answer of each connection announcing it; cuts what runs at `deadline` (ms). */
  close(server: Server, deadline: number, latest: Iterable<ServerResponse>): Promise<void>;
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
  return {
    follow(response) {
      if (isClosing) response.shouldKeepAlive = false;
    },
    close(server, deadline, latest) {
      isClosing = true;
      // Requests in flight get it too: Node reads `shouldKeepAlive` when their headers are written.
      for (const response of latest) if (!response.headersSent) response.shouldKeepAlive = false;
      return closeWithin(server, deadline);
    },
  };
}
