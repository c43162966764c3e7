import type { ServerResponse } from 'node:http';
import { isUnexpectedError, PetstoreError, toErrorBody } from '../lib/index.js';

/** Headers every JSON response carries: the media type, no caching of API answers, no MIME sniffing. */
export const JSON_HEADERS: readonly string[] = [
  'Content-Type', 'application/json; charset=utf-8',
  'Cache-Control', 'no-store',
  'X-Content-Type-Options', 'nosniff',
];

/** Extra headers of one response, as a flat [name, value, …] list like `writeHead` takes. */
export type HeaderList = readonly string[];

const NO_HEADERS: HeaderList = [];

/** Sends JSON (text, or bytes already encoded) with the common headers; for HEAD requests Node drops the body but keeps Content-Length. */
export function sendJson(response: ServerResponse, status: number, json: string | Buffer, headers: HeaderList = NO_HEADERS): void {
  const length = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
  response.writeHead(status, JSON_HEADERS.concat(headers, 'Content-Length', String(length)));
  response.end(json);
}

/** A response whose status, headers and body never change, serialised once. */
export interface PreparedReply {
  readonly status: number;
  readonly headers: HeaderList;
  readonly body: string;
}

/** Serialises an expected error once, for answers repeated on every request (the 401s). */
export function prepareError(error: PetstoreError, headers: HeaderList = NO_HEADERS): PreparedReply {
  const body = JSON.stringify(error.toJSON());
  return { status: error.status, headers: JSON_HEADERS.concat(headers, 'Content-Length', String(Buffer.byteLength(body))), body };
}

/** Sends a prepared reply. */
export function sendPrepared(response: ServerResponse, reply: PreparedReply): void {
  response.writeHead(reply.status, reply.headers as string[]);
  response.end(reply.body);
}

/** Options of sendError. */
export interface SendErrorOptions {
  /** Headers the error needs, such as `Allow` on a 405 or `WWW-Authenticate` on a 401. */
  headers?: HeaderList;
  /** Receives unexpected errors (the 500s), whose detail never reaches the client. */
  logError?: (error: unknown) => void;
}

/**
 * Sends any thrown value as the Error body [spec 7]. Unexpected errors become a generic 500 and go
 * to `logError`; if the response has already started, the connection is cut instead.
 */
export function sendError(response: ServerResponse, error: unknown, options: SendErrorOptions = {}): void {
  if (isUnexpectedError(error) || hasOperationalCause(error)) (options.logError ?? logToStderr)(error);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = toErrorBody(error);
  sendJson(response, body.status, JSON.stringify(body), options.headers);
}

/** A 503 caused by the storage (a database down, a disk refusing writes): the client gets the advice, the operator the cause. */
function hasOperationalCause(error: unknown): boolean {
  return error instanceof PetstoreError && error.status === 503 && error.cause !== undefined;
}

/** Default error log of the server layer: the stack on stderr. */
export function logToStderr(error: unknown): void {
  console.error(error);
}
