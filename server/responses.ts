import type { ServerResponse } from 'node:http';
import { isUnexpectedError, toErrorBody } from '../lib/index.js';

/** Headers every JSON response carries: the media type, no caching of API answers, no MIME sniffing. */
export const JSON_HEADERS: readonly string[] = [
  'Content-Type', 'application/json; charset=utf-8',
  'Cache-Control', 'no-store',
  'X-Content-Type-Options', 'nosniff',
];

/** Extra headers of one response, as a flat [name, value, …] list like `writeHead` takes. */
export type HeaderList = readonly string[];

const NO_HEADERS: HeaderList = [];

/** Sends a JSON text with the common headers; for HEAD requests Node drops the body but keeps Content-Length. */
export function sendJson(response: ServerResponse, status: number, json: string, headers: HeaderList = NO_HEADERS): void {
  response.writeHead(status, [...JSON_HEADERS, ...headers, 'Content-Length', String(Buffer.byteLength(json))]);
  response.end(json);
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
  if (isUnexpectedError(error)) (options.logError ?? logToStderr)(error);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = toErrorBody(error);
  sendJson(response, body.status, JSON.stringify(body), options.headers);
}

/** Default error log of the server layer: the stack on stderr. */
export function logToStderr(error: unknown): void {
  console.error(error);
}
