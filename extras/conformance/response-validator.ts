import { createOpenApiDocument } from '../docs-site/openapi/index.js';
import { isObject, resolvePointer, validateJson } from './json-schema.js';
import type { Departure } from './json-schema.js';
import type { ConformanceHeaders } from './types.js';

/** Response headers: a Fetch API `Headers`, or a plain record by name (any case). */
export type HeadersInput = ConformanceHeaders | Readonly<Record<string, string | undefined>>;

/**
 * The departures of one answer from what the OpenAPI document says `operationId` answers: an
 * undocumented status, a missing required header, a header or body not matching its schema, a body
 * where none is documented or none where one is. `body` is the parsed JSON, or undefined for no body.
 */
export type ResponseValidator = (operationId: string, status: number, headers: HeadersInput, body: unknown) => Departure[];

/** Options of createResponseValidator. */
export interface ResponseValidatorOptions {
  /** The path prefix the server answers under, which `Link` and `Location` carry. Default `/v1`. */
  basePath?: string;
}

/** The methods an OpenAPI path item can hold operations under [OpenAPI 3.1 §4.8.9]. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** How many `$ref`s in a row are followed to reach a response or header; more means a cycle. */
const MAX_REF_CHAIN = 8;

/** An object of the document, following `$ref`s (OpenAPI allows them for path items, responses and headers). */
function dereference(document: unknown, value: unknown): Readonly<Record<string, unknown>> | undefined {
  let target = value;
  for (let step = 0; step < MAX_REF_CHAIN && isObject(target) && typeof target['$ref'] === 'string'; step++) {
    target = resolvePointer(document, target['$ref']);
  }
  return isObject(target) && typeof target['$ref'] !== 'string' ? target : undefined;
}

/** Every operation of the document by its operationId, read from whatever paths and methods the document has. */
function operationsById(document: unknown): Map<string, Readonly<Record<string, unknown>>> {
  const operations = new Map<string, Readonly<Record<string, unknown>>>();
  const paths = isObject(document) && isObject(document['paths']) ? document['paths'] : {};
  for (const pathItem of Object.values(paths)) {
    const item = dereference(document, pathItem);
    for (const method of METHODS) {
      const operation = item === undefined ? undefined : dereference(document, item[method]);
      if (operation !== undefined && typeof operation['operationId'] === 'string') operations.set(operation['operationId'], operation);
    }
  }
  return operations;
}

/** The response documented for a status: its own, else its class (`4XX`), else `default` [OpenAPI 3.1 §4.8.16]. */
function responseFor(document: unknown, operation: Readonly<Record<string, unknown>>, status: number): Readonly<Record<string, unknown>> | undefined {
  const responses = dereference(document, operation['responses']) ?? {};
  for (const key of [String(status), `${Math.floor(status / 100)}XX`, 'default']) {
    if (Object.hasOwn(responses, key)) return dereference(document, responses[key]);
  }
  return undefined;
}

function isHeadersObject(headers: HeadersInput): headers is ConformanceHeaders {
  return typeof headers.get === 'function';
}

/** A header's value from either form of HeadersInput. */
function headerValue(headers: HeadersInput, name: string): string | undefined {
  if (isHeadersObject(headers)) return headers.get(name) ?? undefined;
  const lowerName = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lowerName && typeof value === 'string') return value;
  }
  return undefined;
}

/** The documented headers: each required one present, each present one matching its schema (`Content-Type` is the content's business). */
function checkHeaders(document: unknown, response: Readonly<Record<string, unknown>>, headers: HeadersInput): Departure[] {
  const departures: Departure[] = [];
  const documented = isObject(response['headers']) ? response['headers'] : {};
  for (const [name, definition] of Object.entries(documented)) {
    const header = dereference(document, definition);
    if (header === undefined || name.toLowerCase() === 'content-type') continue;
    const value = headerValue(headers, name);
    if (value === undefined) {
      if (header['required'] === true) departures.push({ location: `header ${name}`, message: 'is required but was not sent' });
      continue;
    }
    departures.push(...validateJson(header['schema'], value, { resolve: (ref) => resolvePointer(document, ref), location: `header ${name}` }));
  }
  return departures;
}

/** The media type of a `Content-Type` value, without parameters, in lower case. */
function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}

/** The documented body: present when documented, of a documented media type, matching its schema. */
function checkBody(document: unknown, response: Readonly<Record<string, unknown>>, headers: HeadersInput, body: unknown): Departure[] {
  const content = isObject(response['content']) ? response['content'] : {};
  const mediaTypes = Object.keys(content);
  if (mediaTypes.length === 0) return body === undefined ? [] : [{ location: 'body', message: 'none is documented, but one was sent' }];
  if (body === undefined) return [{ location: 'body', message: `must be ${mediaTypes.join(' or ')}, but none was sent` }];
  const sent = mediaTypeOf(headerValue(headers, 'content-type'));
  const mediaType = mediaTypes.find((candidate) => candidate.toLowerCase() === sent) ?? (Object.hasOwn(content, '*/*') ? '*/*' : undefined);
  if (mediaType === undefined) {
    return [{ location: 'header Content-Type', message: `must be ${mediaTypes.join(' or ')}, not ${sent === undefined ? 'absent' : JSON.stringify(sent)}` }];
  }
  const media = dereference(document, content[mediaType]);
  return validateJson(media?.['schema'], body, { resolve: (ref) => resolvePointer(document, ref), location: 'body' });
}

/** A validator over a given OpenAPI document (any JSON value shaped as one); operations are looked up by their operationId. */
export function createValidatorFor(document: unknown): ResponseValidator {
  const operations = operationsById(document);
  return function validate(operationId, status, headers, body) {
    const operation = operations.get(operationId);
    if (operation === undefined) throw new TypeError(`validateResponse: the OpenAPI document has no operation ${JSON.stringify(operationId)}`);
    const response = responseFor(document, operation, status);
    if (response === undefined) {
      const documented = Object.keys(dereference(document, operation['responses']) ?? {}).join(', ');
      return [{ location: 'status', message: `${status} is not documented for ${operationId} (documented: ${documented})` }];
    }
    return [...checkHeaders(document, response, headers), ...checkBody(document, response, headers, body)];
  };
}

/** A response validator built from this project's OpenAPI document (`createOpenApiDocument`), for a server under `basePath`. */
export function createResponseValidator(options: ResponseValidatorOptions = {}): ResponseValidator {
  return createValidatorFor(createOpenApiDocument({ basePath: options.basePath ?? '/v1' }));
}

let defaultValidator: ResponseValidator | undefined;

/**
 * The departures of one answer from this project's OpenAPI document, for a server under `/v1`:
 * an undocumented status, a body not matching its schema, a missing required header. `body` is the
 * parsed JSON, or undefined for an answer without a body. Throws for an operationId the document lacks.
 */
export function validateResponse(operationId: string, status: number, headers: HeadersInput, body: unknown): Departure[] {
  defaultValidator ??= createResponseValidator();
  return defaultValidator(operationId, status, headers, body);
}
