// hono on Node: a hono app (examples/hosts/hono.ts) served by node:http through Node's own Request and Response.
// docs/embedding.md shows this file as it is.
import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server } from 'node:http';

/** What serves a fetch request: `app.fetch` of a hono app, or the Petstore's fetch handler itself. */
export type FetchListener = (request: Request) => Response | Promise<Response>;

/**
 * The request's body as the global ReadableStream, read as the handler pulls it. Built with the
 * global constructor rather than `Readable.toWeb()`, whose `node:stream/web` type a project with the
 * DOM's types (TypeScript's default `lib`) refuses as a Request's body.
 */
function bodyOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks: AsyncIterator<Uint8Array> = incoming[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: () => void incoming.destroy(),
  });
}

/** A `node:http` request listener that hands each request to `fetch` as a Request and writes the Response it answers. */
export function toNodeListener(fetch: FetchListener): RequestListener {
  return (incoming, outgoing) => {
    const headers = new Headers();
    for (let index = 0; index < incoming.rawHeaders.length; index += 2) headers.append(incoming.rawHeaders[index] ?? '', incoming.rawHeaders[index + 1] ?? '');
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const answer = async (): Promise<void> => {
      // Node needs `duplex: 'half'` for a streamed body; the DOM's RequestInit does not name it, so it is not a literal's excess property.
      const init = { method: incoming.method ?? 'GET', headers, body: hasBody ? bodyOf(incoming) : null, duplex: 'half' as const };
      const request = new Request(new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`), init);
      const response = await fetch(request);
      outgoing.writeHead(response.status, [...response.headers].flat());
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    };
    // The fetch handler answers every failure of its own; what throws here is a request Request refuses (a malformed Host).
    answer().catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(400);
      outgoing.end();
    });
  };
}

/** Serves `fetch` on `port` of 127.0.0.1 (0: any free port). */
export function serve(fetch: FetchListener, port: number): Promise<Server> {
  const server = createServer(toNodeListener(fetch));
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
