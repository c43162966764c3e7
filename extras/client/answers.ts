import { ERROR_CODES, isPetStatus } from '../../lib/index.js';
import type { ErrorBody, ErrorCode, ErrorDetail, Pet } from '../../lib/index.js';
import { PetstoreClientError } from './client-error.js';
import type { PetstoreClientErrorOptions } from './client-error.js';

/** Where an answer came from, for messages. */
export interface AnswerSource {
  method: string;
  url: string;
  status: number;
  /** The answer's `X-Request-Id`, when it carried one: the id the server logged the request under. */
  requestId?: string | undefined;
}

/** The options of a PetstoreClientError made from an answer: the request id it carried, and the details or cause given. */
function errorOptions(source: AnswerSource, options: PetstoreClientErrorOptions): PetstoreClientErrorOptions {
  return source.requestId === undefined ? options : { ...options, requestId: source.requestId };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

function isErrorDetail(value: unknown): value is ErrorDetail {
  return isRecord(value) && typeof value['field'] === 'string' && typeof value['message'] === 'string';
}

/** The answer is not the interface's: a proxy's page, a wrong base URL, another service. */
export function unexpectedAnswer(source: AnswerSource, problem: string, cause?: unknown): PetstoreClientError {
  return new PetstoreClientError('unavailable', `Unexpected answer to ${source.method} ${source.url}: HTTP ${source.status}, ${problem}`, errorOptions(source, cause === undefined ? {} : { cause }));
}

/** Parses a body as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Narrows a parsed body to the Error body [spec 2, 7]: a known code sent with its own status, a message, and well-formed details. */
function asErrorBody(value: unknown, status: number): ErrorBody | undefined {
  if (!isRecord(value)) return undefined;
  const { code, message, details } = value;
  if (!isErrorCode(code) || typeof message !== 'string' || value['status'] !== status || ERROR_CODES[code] !== status) return undefined;
  if (details !== undefined && !(Array.isArray(details) && details.every(isErrorDetail))) return undefined;
  const body: ErrorBody = { code, message, status };
  if (Array.isArray(details)) body.details = details.filter(isErrorDetail).map((detail) => ({ field: detail.field, message: detail.message }));
  return body;
}

/** The PetstoreClientError for an error answer: the server's own code, message and details when it sent the Error body. */
export function errorFromAnswer(source: AnswerSource, text: string, contentType: string | null): PetstoreClientError {
  const body = asErrorBody(parseJson(text), source.status);
  if (body === undefined) return unexpectedAnswer(source, `not an Error body (Content-Type ${JSON.stringify(contentType)}): ${JSON.stringify(text.slice(0, 200))}`);
  return new PetstoreClientError(body.code, body.message, errorOptions(source, body.details === undefined ? {} : { details: body.details }));
}

/** Narrows a parsed value to a Pet [spec 2], as a fresh frozen object with only the Pet fields, like the in-process store hands out. */
export function asPet(value: unknown): Pet | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, categoryId, status } = value;
  if (!(Number.isSafeInteger(id) && typeof id === 'number' && id > 0) || typeof name !== 'string' || !Number.isSafeInteger(categoryId) || typeof categoryId !== 'number') return undefined;
  if (status !== undefined && !isPetStatus(status)) return undefined;
  return Object.freeze(status === undefined ? { id, name, categoryId } : { id, name, categoryId, status });
}

/** Narrows a parsed value to Pets [spec 2]; undefined when any element is not a Pet. */
export function asPets(value: unknown): Pet[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const pets = value.map(asPet);
  return pets.every((pet) => pet !== undefined) ? pets : undefined;
}
