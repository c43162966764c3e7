import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyAbortedError, readJsonBody } from '../core/index.js';
import type { JsonBodyOptions } from '../core/index.js';
import { closeAfterAnswer } from './handler.js';
import { toCoreRequest } from './node-request.js';
import { sendError } from './responses.js';
import type { SendErrorOptions } from './responses.js';

/** What readJsonBodyOrAnswer leaves to its caller: the parsed body, or nothing because the request is answered. */
export type BodyReading = { isAnswered: false; body: unknown } | { isAnswered: true };

const ANSWERED: BodyReading = { isAnswered: true };

/**
 * Reads and parses the JSON body of a `node:http` request with the core's rules: media type (415),
 * declared and actual size (413, without buffering the excess), strict UTF-8 and JSON (400). Answers
 * an unacceptable one itself (415 with `Accept-Post`, 413 with `Connection: close`, 400), and
 * answers nothing when the client vanished.
 */
export async function readJsonBodyOrAnswer(
  request: IncomingMessage, response: ServerResponse, options: JsonBodyOptions & SendErrorOptions,
): Promise<BodyReading> {
  try {
    return { isAnswered: false, body: await readJsonBody(toCoreRequest(request, response), options) };
  } catch (error) {
    if (error instanceof BodyAbortedError) return ANSWERED;
    // The unread rest of the body would be taken for the next request.
    if (!request.complete) {
      closeAfterAnswer(request);
      response.shouldKeepAlive = false;
    }
    sendError(response, error, options);
    return ANSWERED;
  }
}
