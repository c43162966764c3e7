import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { createPetstore } from '../../lib/index.js';
import type { ErrorBody, Petstore } from '../../lib/index.js';
import { startServer } from '../../server/node/index.js';
import type { RunningServer, StartServerOptions } from '../../server/node/index.js';

/** The key test servers accept. */
export const API_KEY = 'test-key-0123456789';

/** Authorization header with the test key. */
export const AUTH = { authorization: `Bearer ${API_KEY}` };

/** Headers of a JSON POST with the test key. */
export const JSON_POST = { ...AUTH, 'content-type': 'application/json' };

/** A server on a free port with its own in-memory store. */
export interface TestServer extends RunningServer {
  store: Petstore;
  port: number;
  origin: string;
}

/** Options of startTestServer: startServer's. */
export type TestServerOptions = Partial<StartServerOptions>;

/**
 * Starts the kernel's standalone server, with no extra, on 127.0.0.1, port 0, with a fresh store unless
 * one is given. test/support/standalone-http.ts's startTestServer adds the docs site and the operator's kit.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const store = options.store ?? createPetstore();
  const running = await startServer({ apiKeys: [API_KEY], port: 0, ...options, store });
  const url = new URL(running.url);
  return { ...running, store, port: Number(url.port), origin: url.origin };
}

/** A response as the tests look at it. */
export interface Reply {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  json: unknown;
}

/** Options of call(). */
export interface CallOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** Sends one request over a new connection and reads the whole response. */
export function call(server: { origin: string }, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.origin}${path}`, { method, headers: options.headers ?? {}, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text.length > 0 ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: flatHeaders(response.headers), text, json });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Asserts a response is the Error body with this status and code, and the JSON headers. */
export function assertError(reply: Reply, status: number, code: string, message?: RegExp): ErrorBody {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
  const body = reply.json as ErrorBody;
  assert.equal(body.code, code, reply.text);
  assert.equal(body.status, status);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
  if (message !== undefined) assert.match(body.message, message);
  return body;
}

/** Writes raw bytes to the server and collects everything it sends until it closes or `until` matches. */
export function rawExchange(port: number, chunks: readonly (string | Buffer)[], options: { until?: RegExp; gapMs?: number; abort?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let isDone = false;
    const finish = (): void => {
      if (isDone) return;
      isDone = true;
      socket.destroy();
      resolve(received);
    };
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (options.until !== undefined && options.until.test(received)) finish();
    });
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : reject(error)));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (options.gapMs !== undefined) await new Promise((wait) => setTimeout(wait, options.gapMs));
      }
      if (options.abort === true) finish();
    });
  });
}

/** Splits raw HTTP/1.1 response text into responses: status, lower-cased headers and body. */
export function parseRawResponses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const responses: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(bodyStart, bodyStart + length) });
    rest = rest.slice(bodyStart + length);
  }
  return responses;
}
