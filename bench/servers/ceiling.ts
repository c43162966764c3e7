import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';

/** One answer of the project's server, as captured on the wire for one scenario's request. */
export interface CapturedAnswer {
  method: string;
  /** The request target, e.g. `/v1/pets?limit=20`. */
  target: string;
  status: number;
  /** Every header received, as a flat `[name, value, …]` list in the case and order they were sent. */
  rawHeaders: string[];
  body: string;
  /** Whether the request carried an `Idempotency-Key`: the ceilings tell the create with a key from the one without by it. */
  hasIdempotencyKey?: boolean;
}

/** Which headers a ceiling server sends: `plain` only `Content-Type` and `Content-Length`; `same` exactly the project's. */
export type CeilingHeaders = 'plain' | 'same';

/** Headers node:http adds to every keep-alive answer by itself; the same-headers ceiling leaves them to it, as the project's server does. */
const NODE_ADDED_HEADERS: readonly string[] = ['date', 'connection', 'keep-alive'];

/** The header whose value changes on every answer of the project's server. */
const REQUEST_ID = 'x-request-id';

interface ConstantAnswer {
  status: number;
  headers: string[];
  /** Text, not bytes: node:http joins a text body to the head in one write, where bytes take a second chunk. */
  body: string;
  /** Index in `headers` of the request id's value, or -1 when the answer carries none. */
  requestIdIndex: number;
}

/** Reads the captured answers the benchmark wrote as JSON, refusing anything else. */
export function parseCapturedAnswers(text: string): CapturedAnswer[] {
  const parsed: unknown = JSON.parse(text);
  const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
  const isCapturedAnswer = (value: unknown): value is CapturedAnswer => typeof value === 'object' && value !== null
    && 'method' in value && typeof value.method === 'string' && 'target' in value && typeof value.target === 'string'
    && 'status' in value && Number.isInteger(value.status) && 'body' in value && typeof value.body === 'string'
    && 'rawHeaders' in value && isStringList(value.rawHeaders) && value.rawHeaders.length % 2 === 0
    && (!('hasIdempotencyKey' in value) || typeof value.hasIdempotencyKey === 'boolean');
  if (!Array.isArray(parsed) || !parsed.every(isCapturedAnswer)) throw new Error('captured answers: expected a JSON array of {method, target, status, rawHeaders, body}');
  return parsed;
}

/** The value of a header in a flat raw list, by case-insensitive name. */
export function rawHeaderOf(rawHeaders: readonly string[], name: string): string | undefined {
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === name) return rawHeaders[index + 1];
  }
  return undefined;
}

function constantAnswer(captured: CapturedAnswer, headers: CeilingHeaders): ConstantAnswer {
  const { body } = captured;
  if (headers === 'plain') {
    const contentType = rawHeaderOf(captured.rawHeaders, 'content-type') ?? 'application/json; charset=utf-8';
    return { status: captured.status, headers: ['Content-Type', contentType, 'Content-Length', String(Buffer.byteLength(body))], body, requestIdIndex: -1 };
  }
  const kept: string[] = [];
  let requestIdIndex = -1;
  for (let index = 0; index < captured.rawHeaders.length; index += 2) {
    const name = captured.rawHeaders[index] as string;
    if (NODE_ADDED_HEADERS.includes(name.toLowerCase())) continue;
    if (name.toLowerCase() === REQUEST_ID) requestIdIndex = kept.length + 1;
    kept.push(name, captured.rawHeaders[index + 1] as string);
  }
  return { status: captured.status, headers: kept, body, requestIdIndex };
}

/**
 * A node:http server that does no work: it answers each captured request (by method, target and whether it has an idempotency key)
 * with the project's status, headers and body, prepared once. `plain` sends only `Content-Type` and
 * `Content-Length` (Node's `Date` and `Connection` turned off); `same` sends exactly the project's
 * headers, with a fresh request id of the same shape and Node's own `Date`, `Connection` and
 * `Keep-Alive`, as the project's server gets them. The ceilings of this machine for each scenario.
 */
export function createCeilingServer(answers: readonly CapturedAnswer[], headers: CeilingHeaders): Server {
  const byRequest = new Map<string, ConstantAnswer>();
  const requestOf = (method: string, target: string, hasIdempotencyKey: boolean): string => `${method} ${target}${hasIdempotencyKey ? ' with a key' : ''}`;
  for (const captured of answers) byRequest.set(requestOf(captured.method, captured.target, captured.hasIdempotencyKey === true), constantAnswer(captured, headers));
  const notFound = constantAnswer({ method: '', target: '', status: 404, rawHeaders: [], body: '{"code":"not_found","message":"Not a captured request","status":404}' }, 'plain');
  // Request ids shaped as the project's (a random prefix of 16 base64url characters, `-`, a base-36 counter), the counter going on from
  // the highest captured one, so every id has the length the project's has at the same point (after the prefill over HTTP).
  const prefix = `${randomBytes(12).toString('base64url')}-`;
  let counter = Math.max(0, ...answers.map((answer) => parseInt(rawHeaderOf(answer.rawHeaders, REQUEST_ID)?.split('-').pop() ?? '', 36)).filter(Number.isFinite));
  const isPlain = headers === 'plain';
  return createServer((request, response) => {
    const answer = byRequest.get(requestOf(request.method ?? '', request.url ?? '', request.headers['idempotency-key'] !== undefined)) ?? notFound;
    if (isPlain) {
      response.sendDate = false;
      // HTTP/1.1 connections persist without the header; removing it keeps the connection open.
      response.removeHeader('Connection');
    }
    // writeHead copies the list into the head synchronously, so the shared list can take this answer's id.
    if (answer.requestIdIndex >= 0) answer.headers[answer.requestIdIndex] = prefix + (++counter).toString(36);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
}
