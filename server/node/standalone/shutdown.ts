import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** Time idle keep-alive connections keep at shutdown, so a request already on its way is answered rather than reset (ms). */
export const SHUTDOWN_IDLE_GRACE = 1_000;

/**
 * Shuts `server` down gracefully: stops accepting, lets in-flight requests finish, cuts every connection
 * still open at `deadline` (ms). The `latest` unfinished answer of each connection tells its client to
 * open the next connection elsewhere; so does every answer made after (`server.listening` is then false).
 */
export async function shutDown(server: Server, deadline: number, latest: Iterable<ServerResponse>): Promise<void> {
  // Node reads `shouldKeepAlive` when the headers are written, so answers already in flight get it too.
  for (const response of latest) if (!response.headersSent) response.shouldKeepAlive = false;
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
