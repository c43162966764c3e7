import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fetch-API handler, as createFetchHandler returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A fetch handler listening on a real socket. */
export interface ServedFetch {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/** The fetch-API request of a Node request whose body has been read whole. */
function toRequest(request: IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const hasBody = body.length > 0 && request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(`http://${request.headers.host ?? '127.0.0.1'}${request.url ?? '/'}`, { method: request.method ?? 'GET', headers, ...(hasBody ? { body } : {}) });
}

/** Writes a fetch-API response to a Node response, without a body for HEAD. */
async function writeResponse(request: IncomingMessage, response: ServerResponse, answer: Response): Promise<void> {
  const headers: string[] = [];
  answer.headers.forEach((value, name) => headers.push(name, value));
  const body = Buffer.from(await answer.arrayBuffer());
  response.writeHead(answer.status, headers);
  response.end(request.method === 'HEAD' ? undefined : body);
}

/**
 * Serves a fetch-API handler over node:http on 127.0.0.1, port 0: the body is read whole, then
 * handed on as a Request. A bridge for tests, so the kit talks to the fetch adapter (and to broken
 * variants of it) over a real socket.
 */
export async function serveFetch(handler: FetchHandler): Promise<ServedFetch> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handler(toRequest(request, Buffer.concat(chunks)))
        .then((answer) => writeResponse(request, response, answer))
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(`bridge: ${String(error)}`);
        });
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}
