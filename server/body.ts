import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PetstoreError } from '../lib/index.js';
import { closeAfterAnswer, closeIfBodyUnread } from './closing-connections.js';
import { sendError } from './responses.js';
import type { SendErrorOptions } from './responses.js';

/** Default largest request body accepted, in bytes (decided: a NewPet is well under 1 KiB). */
export const DEFAULT_BODY_LIMIT = 65_536;

/** The media type accepted for request bodies [spec 1, 4.2]. */
export const JSON_MEDIA_TYPE = 'application/json';

/** Headers sent with a 415, telling the client what to send instead: the media type and the content coding [RFC 9110 §15.5.16, §12.5.3]. */
export const UNSUPPORTED_MEDIA_TYPE_HEADERS: readonly string[] = ['Accept-Post', JSON_MEDIA_TYPE, 'Accept-Encoding', 'identity'];

/** Headers sent with a 413: the rest of the body is not read, so the connection cannot be reused. */
export const PAYLOAD_TOO_LARGE_HEADERS: readonly string[] = ['Connection', 'close'];

const NO_HEADERS: readonly string[] = [];

/** The headers an error of readJsonBody is sent with: `Accept-Post` on a 415, `Connection: close` on a 413, none otherwise. */
export function bodyErrorHeaders(error: unknown): readonly string[] {
  if (!(error instanceof PetstoreError)) return NO_HEADERS;
  if (error.code === 'unsupported_media_type') return UNSUPPORTED_MEDIA_TYPE_HEADERS;
  return error.code === 'payload_too_large' ? PAYLOAD_TOO_LARGE_HEADERS : NO_HEADERS;
}

/** Raised when the client went away before its body was complete: there is nobody left to answer. */
export class RequestAbortedError extends Error {
  constructor() {
    super('The client closed the connection before the request body was complete');
    this.name = 'RequestAbortedError';
  }
}

/** Options of readJsonBody. */
export interface ReadJsonBodyOptions {
  /** Largest body accepted, in bytes. */
  limit: number;
  /** Verb phrase for messages, e.g. `Cannot create pet`. */
  action: string;
}

/** Whether a `Content-Type` value is `application/json`, with any parameters, in any case [RFC 9110 §8.3.1]. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const end = contentType.indexOf(';');
  const mediaType = (end === -1 ? contentType : contentType.slice(0, end)).trim();
  return mediaType.length === JSON_MEDIA_TYPE.length && mediaType.toLowerCase() === JSON_MEDIA_TYPE;
}

const UTF8_BOM = 0xfeff;

/**
 * Reads and parses a JSON request body, checking in order: media type (415), declared and actual
 * size (413, without buffering the excess), strict UTF-8 and JSON syntax (400 `invalid_json`).
 * Rejects with RequestAbortedError when the client disconnects mid-body.
 */
export function readJsonBody(request: IncomingMessage, options: ReadJsonBodyOptions): Promise<unknown> {
  const { limit, action } = options;
  if (!isJsonMediaType(request.headers['content-type'])) {
    const sent = request.headers['content-type'];
    return Promise.reject(new PetstoreError('unsupported_media_type', `${action}: send the body as \`Content-Type: ${JSON_MEDIA_TYPE}\`${sent === undefined ? ' (no Content-Type was sent)' : `, not \`${sent.slice(0, 100)}\``}`));
  }
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    // RFC 9110 §8.4: a content coding the server does not apply is a 415, not a body to misread as JSON.
    return Promise.reject(new PetstoreError('unsupported_media_type', `${action}: send the body without a content coding (\`Content-Encoding: ${coding.slice(0, 50)}\` is not supported)`));
  }
  const transfer = request.headers['transfer-encoding'];
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
    // Node's parser accepts `gzip, chunked` and undoes only the chunking; a body still gzipped is not JSON [decided: 400, not 501].
    return Promise.reject(new PetstoreError('bad_request', `${action}: the only transfer coding supported is \`chunked\`, not \`${transfer.slice(0, 50)}\``));
  }
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(request, action, limit));

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let isSettled = false;
    const settle = (outcome: () => void): void => {
      if (isSettled) return;
      isSettled = true;
      request.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        // Stop buffering; the 413 goes out with `Connection: close`, so the excess is never kept.
        request.pause();
        settle(() => reject(tooLarge(request, action, limit)));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle(() => {
      try {
        resolve(parseJson(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received), action));
      } catch (error) {
        reject(error);
      }
    });
    const onAbort = (): void => settle(() => reject(new RequestAbortedError()));
    const onClose = (): void => {
      if (!request.complete) onAbort();
    };
    request.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onClose);
  });
}

function tooLarge(request: IncomingMessage, action: string, limit: number): PetstoreError {
  // The rest of the body stays unread, so the connection ends after the 413.
  closeAfterAnswer(request);
  return new PetstoreError('payload_too_large', `${action}: the body must be at most ${limit} bytes`);
}

/** Decodes strict UTF-8 (a leading BOM is ignored, as RFC 8259 §8.1 allows) and parses JSON. */
function parseJson(bytes: Buffer, action: string): unknown {
  if (bytes.length === 0) throw new PetstoreError('invalid_json', `${action}: the body is empty; send a JSON object`);
  if (!isUtf8(bytes)) throw new PetstoreError('invalid_json', `${action}: the body is not valid UTF-8`);
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === UTF8_BOM) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it could not be parsed';
    throw new PetstoreError('invalid_json', `${action}: the body is not valid JSON (${reason})`);
  }
}

/** What readJsonBodyOrAnswer leaves to its caller: the parsed body, or nothing because the request is answered. */
export type BodyReading = { isAnswered: false; body: unknown } | { isAnswered: true };

const ANSWERED: BodyReading = { isAnswered: true };

/**
 * Reads the JSON body like readJsonBody, but answers an unacceptable one itself (415 with
 * `Accept-Post`, 413 with `Connection: close`, 400), and answers nothing when the client vanished.
 */
export async function readJsonBodyOrAnswer(request: IncomingMessage, response: ServerResponse, options: ReadJsonBodyOptions & SendErrorOptions): Promise<BodyReading> {
  try {
    return { isAnswered: false, body: await readJsonBody(request, options) };
  } catch (error) {
    if (error instanceof RequestAbortedError) return ANSWERED;
    closeIfBodyUnread(request, response);
    sendError(response, error, { ...options, headers: bodyErrorHeaders(error) });
    return ANSWERED;
  }
}
