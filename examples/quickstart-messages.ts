// The spec's quickstart [spec 4.4] as its own micro-server, built from the Petstore server's parts:
// POST /messages with a bearer key and a JSON body { "message": string } answers 202 Accepted, since
// the message is queued, not yet delivered. Errors are the same Error body as the Petstore's [spec 7].
// Run: npx tsx examples/quickstart-messages.ts   (PORT picks the port, default 0 = any free one;
//      MESSAGES_API_KEY sets the key, otherwise one is generated and printed; Ctrl-C stops it)
//   curl -i -X POST http://127.0.0.1:PORT/messages -H "Authorization: Bearer KEY" \
//        -H 'Content-Type: application/json' -d '{"message":"Hello"}'
// From an installed package the imports read:
//   import { PetstoreError } from 'petstore-reference';
//   import { authError, createAuthenticator, readJsonBodyOrAnswer, sendError, sendJson } from 'petstore-reference/server';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { PetstoreError } from '../lib/index.js';
import { authError, createAuthenticator, HttpError, readJsonBodyOrAnswer, sendError, sendJson } from '../server/node/index.js';

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

/** Starts the messages server: auth (401) → path (404) → method (405) → body (415, 413, 400) → 202, the Petstore's order of checks. */
export async function startMessagesServer(options: MessagesServerOptions): Promise<RunningMessagesServer> {
  const authenticate = createAuthenticator(options.apiKeys);

  async function postMessage(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reading = await readJsonBodyOrAnswer(request, response, { limit: BODY_LIMIT, action: ACTION });
    if (reading.isAnswered) return;
    const queued: QueuedMessage = { id: randomUUID(), message: validateMessage(reading.body), status: 'queued', createdAt: new Date().toISOString() };
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
