import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse, jsonResponse, logToConsole, REQUEST_ID_HEADER, requestIdOf } from '../core/index.js';
import { isLoggedError } from '../core/error-response.js';
import type { BareResponse, HeaderList, RequestHeaders } from '../core/index.js';
import type { PetstoreError } from '../../lib/index.js';
import type { Observation } from './standalone/server-plugin.js';

/** Writes an answer (the request core's, or any of its parts') onto a `node:http` response; for HEAD requests Node sends no body but keeps Content-Length. */
export function writeResponse(response: ServerResponse, answer: BareResponse): void {
  // Part of another answer already went out (an error mid-stream): the connection cannot carry this one.
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(answer.status, answer.headers as string[]);
  response.end(answer.body);
}

/** Options of sendError. */
export interface SendErrorOptions {
  /** Headers the answer carries beside the error's own. */
  headers?: HeaderList;
  /** Receives unexpected errors (the 500s), whose detail never reaches the client. Default: the console. */
  logError?: (error: unknown) => void;
}

/** Sends any thrown value as the Error body [spec 7], through the request core's error funnel. */
export function sendError(response: ServerResponse, error: unknown, options: SendErrorOptions = {}): void {
  if (isLoggedError(error)) (options.logError ?? logToConsole)(error);
  writeResponse(response, errorResponse(error, options.headers));
}

/** Sends JSON (text, or bytes already encoded) with the common headers. */
export function sendJson(response: ServerResponse, status: number, json: string | Uint8Array, headers?: HeaderList): void {
  writeResponse(response, jsonResponse(status, json, headers));
}

/**
 * Answers a request the standalone server refuses before the request core sees it (a refused
 * pipeline, a 417) with the Error body and the request's id, as the core's answers carry it:
 * `idOf` is the core's `requestIdOf`, which never keeps an API key as the id.
 */
export function refuseRequest(
  request: IncomingMessage, response: ServerResponse, error: PetstoreError, observation: Observation | undefined,
  headers: HeaderList = [], idOf: (headers: RequestHeaders) => string = requestIdOf,
): void {
  const requestId = idOf(request.headers);
  observation?.refused(requestId, error.status);
  sendError(response, error, { headers: [...headers, REQUEST_ID_HEADER, requestId] });
}
