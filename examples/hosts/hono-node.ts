// hono on Node: a hono app (examples/hosts/hono.ts) served by node:http through Node's own Request and Response.
// docs/embedding.md shows this file as it is.
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import { Readable } from 'node:stream';

/** What serves a fetch request: `app.fetch` of a hono app, or the Petstore's fetch handler itself. */
export type FetchListener = (request: Request) => Response | Promise<Response>;

/** A `node:http` request listener that hands each request to `fetch` as a Request and writes the Response it answers. */
export function toNodeListener(fetch: FetchListener): RequestListener {
  return (incoming, outgoing) => {
    const headers = new Headers();
    for (let index = 0; index < incoming.rawHeaders.length; index += 2) headers.append(incoming.rawHeaders[index] ?? '', incoming.rawHeaders[index + 1] ?? '');
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const answer = async (): Promise<void> => {
      const request = new Request(new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`), {
        method: incoming.method ?? 'GET',
        headers,
        body: hasBody ? Readable.toWeb(incoming) : null,
        duplex: 'half',
      });
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
