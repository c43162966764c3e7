// The spec's quickstart [spec 4.4] as its own micro-server, built from the Petstore server's parts:
// POST /messages with a bearer key and a JSON body { "message": string } answers 202 Accepted, since
// the message is queued, not yet delivered. The spec puts it at another example address, as a
// template separate from the pet operations, so it is a server of its own, not a route under /v1.
// Its errors are only the spec's, in the Petstore's Error body [spec 7]: 401 for a missing or invalid
// key, and 400 for a body that is not JSON (a media type other than application/json included) or
// has no `message` (a body over the limit included). A request other than POST /messages is not the
// quickstart's operation: 404 or 405, as the Petstore answers it.
// Run: npx tsx examples/quickstart-messages.ts   (PORT picks the port, default 0 = any free one;
//      MESSAGES_API_KEY sets the key, otherwise one is generated and printed; Ctrl-C stops it)
//   curl -i -X POST http://127.0.0.1:PORT/messages -H "Authorization: Bearer KEY" \
//        -H 'Content-Type: application/json' -d '{"message":"Hello"}'
// From an installed package the imports read:
//   import { PetstoreError } from 'petstore-reference';
//   import { authError, createAuthenticator, sendError, sendJson } from 'petstore-reference/server';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { PetstoreError } from '../lib/index.js';
import { authError, createAuthenticator, HttpError, sendError, sendJson } from '../server/node/index.js';

/** The answer to a queued message [spec 4.4]. */
export interface QueuedMessage {
  id: string;
  message: string;
  status: 'queued';
  createdAt: string;
}

/** Options of startMessagesServer. */
export interface MessagesServerOptions {
  apiKeys: readonly string[];
  /** Default 0: any free port. */
  port?: number;
  /** Receives each queued message; a real service would hand it to its queue here. */
  onQueued?: (message: QueuedMessage) => void;
}

/** The server's origin, and how to stop it. */
export interface RunningMessagesServer {
  origin: string;
  close(): Promise<void>;
}

const MESSAGES_PATH = '/messages';
const BODY_LIMIT = 16_384;
const ACTION = 'Cannot queue message';

/** Narrows the parsed body to its `message`: a non-empty string [spec 4.4: required]. */
function validateMessage(body: unknown): string {
  const message: unknown = typeof body === 'object' && body !== null && !Array.isArray(body) ? Reflect.get(body, 'message') : undefined;
  if (typeof message === 'string' && message.length > 0) return message;
  const problem = message === undefined ? '`message` is required' : '`message` must be a non-empty string';
  throw new PetstoreError('validation_failed', `${ACTION}: ${problem}`, { details: [{ field: 'message', message: problem }] });
}

/** Whether a Content-Type names application/json, parameters aside [RFC 9110 §8.3.1: case-insensitive]. */
function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The 400 of a body no larger than the limit could hold [spec 4.4: only 401 and 400]; `message` is where it would go. */
function tooLargeError(): PetstoreError {
  const problem = `the body must be at most ${BODY_LIMIT} bytes, so \`message\` must be shorter`;
  return new PetstoreError('validation_failed', `${ACTION}: ${problem}`, { details: [{ field: 'message', message: problem }] });
}

/**
 * Reads the body as the spec asks for it: `application/json` (400 otherwise [spec 4.4], where the
 * Petstore's own operations answer 415), at most BODY_LIMIT bytes (400, not 413, and the connection
 * closes so the unread rest is not taken for a request), strict UTF-8, and JSON (400).
 */
async function readMessageBody(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
  const contentType = request.headers['content-type'];
  if (!isJson(contentType)) {
    throw new PetstoreError('invalid_json', `${ACTION}: send the body as JSON with \`Content-Type: application/json\`, not ${contentType === undefined ? 'without a Content-Type' : JSON.stringify(contentType)}`);
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  const body = declared > BODY_LIMIT ? undefined : await new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      else resolve(undefined);
    });
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
  if (body === undefined) {
    // The rest is read and dropped while the answer goes out, then the connection closes: never taken for a request.
    response.shouldKeepAlive = false;
    request.resume();
    throw tooLargeError();
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new PetstoreError('invalid_json', `${ACTION}: the body is not valid JSON in UTF-8`);
  }
}

/** Starts the messages server: auth (401) → path (404) → method (405) → body (400) → 202, the Petstore's order of checks. */
export async function startMessagesServer(options: MessagesServerOptions): Promise<RunningMessagesServer> {
  const authenticate = createAuthenticator(options.apiKeys);

  async function postMessage(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const queued: QueuedMessage = { id: randomUUID(), message: validateMessage(await readMessageBody(request, response)), status: 'queued', createdAt: new Date().toISOString() };
    options.onQueued?.(queued);
    sendJson(response, 202, JSON.stringify(queued));
  }

  const server = createServer((request, response) => {
    const verdict = authenticate(request.headers.authorization);
    if (verdict !== 'accepted') return sendError(response, authError(verdict));
    const path = (request.url ?? '').split('?')[0];
    if (path !== MESSAGES_PATH) return sendError(response, new PetstoreError('not_found', `There is no resource at ${JSON.stringify(path)}`));
    if (request.method !== 'POST') {
      return sendError(response, new HttpError('method_not_allowed', `${request.method} is not allowed here; allowed: POST`, { headers: ['Allow', 'POST'] }));
    }
    postMessage(request, response).catch((error: unknown) => sendError(response, error));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}

async function main(): Promise<void> {
  const apiKey = process.env['MESSAGES_API_KEY'] ?? randomBytes(18).toString('base64url');
  const running = await startMessagesServer({ apiKeys: [apiKey], port: Number(process.env['PORT'] ?? 0), onQueued: (message) => process.stdout.write(`queued ${message.id}\n`) });
  process.stdout.write(`messages listening on ${running.origin}${MESSAGES_PATH} (key: ${apiKey})\n`);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
