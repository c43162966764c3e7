import { PetstoreError } from '../../lib/index.js';
import { HttpError } from './http-error.js';
import { findJsonSyntaxProblem } from './json-syntax.js';

/**
 * A request's headers by lower-case name; a field sent more than once is joined with `, ` [RFC 9110 §5.3]
 * (a list is accepted too, as Node keeps `set-cookie`).
 */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** One header's value as text. */
export function headerOf(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/** A request body as an adapter delivers it: chunk by chunk as it arrives, or as a host framework's JSON parser left it. */
export interface RequestBody {
  /**
   * Passes each chunk to `onChunk` until the body ends; stops reading when `onChunk` returns false.
   * Resolves in both cases; rejects with BodyAbortedError when the client goes away mid-body.
   */
  read(onChunk: (chunk: Uint8Array) => boolean): Promise<void>;
  /** The JSON value a host framework's parser made of the body before the core saw it; the core checks it as a value it parsed itself. */
  parsed?: { value: unknown } | undefined;
}

/** A request as the core sees it: no socket, no runtime, only what the client sent. */
export interface CoreRequest {
  method: string;
  /** The request target as sent: origin form (`/v1/pets?limit=5`) or absolute form (`http://host/v1/pets`). */
  target: string;
  headers: RequestHeaders;
  body: RequestBody;
  /** `1.1` or `1.0` where the runtime tells; undefined where it does not (the fetch API), and then `Host` is not required. */
  httpVersion?: string | undefined;
  /** The prefix a host framework stripped from the target before handing the request on; `Location` and `Link` carry it. */
  mountPath?: string | undefined;
}

/** Raised by a RequestBody when the client went away before its body was complete: its answer reaches nobody. */
export class BodyAbortedError extends PetstoreError {
  constructor() {
    super('bad_request', 'The client closed the connection before the request body was complete');
    this.name = 'BodyAbortedError';
  }
}

/** A body that has nothing to read: requests that carry none, or whose body is read elsewhere. */
export const NO_BODY: RequestBody = { read: () => Promise.resolve() };

/** A body a host framework has already parsed as JSON (Express's `express.json()`, say): nothing is left to read. */
export function parsedBodyOf(value: unknown): RequestBody {
  return { read: () => Promise.resolve(), parsed: { value } };
}

/** A body that cannot be had (a host framework read it and left nothing usable): reading it fails at once with `error`. */
export function failedBodyOf(error: unknown): RequestBody {
  return { read: () => Promise.reject(error) };
}

/** A body already in memory, delivered as one chunk. */
export function bodyOf(bytes: Uint8Array): RequestBody {
  return { read: (onChunk) => Promise.resolve(void (bytes.length > 0 && onChunk(bytes))) };
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** The origin form of a request target: RFC 9112 §3.2.2 has servers accept the absolute form too. */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

/** Default largest request body accepted, in bytes (decided: a NewPet is well under 1 KiB). */
export const DEFAULT_BODY_LIMIT = 65_536;

/** Fewest pieces a body may arrive in before their number is refused (decided: a NewPet comes in one or two). */
export const MIN_BODY_PIECES = 1_024;

/** Smallest average piece, in bytes, that a body of many pieces must keep: below it, the work per piece outweighs the bytes. */
const BYTES_PER_PIECE = 64;

/**
 * How many pieces (chunks of a chunked body, or reads of the socket) a body within `limit` bytes may
 * arrive in: 1,024 for the default 64 KiB limit, one per 64 bytes for larger limits. Each piece costs
 * a parser callback and an event whatever its size: a 64 KiB body in one-byte chunks cost 111 ms of
 * CPU against 2 ms in one piece.
 */
export function bodyPieceLimit(limit: number): number {
  return Math.max(MIN_BODY_PIECES, Math.ceil(limit / BYTES_PER_PIECE));
}

/** The media type accepted for request bodies [spec 1, 4.2]. */
export const JSON_MEDIA_TYPE = 'application/json';

/** Headers sent with a 415, telling the client what to send instead: the media type and the content coding [RFC 9110 §15.5.16, §12.5.3]. */
export const UNSUPPORTED_MEDIA_TYPE_HEADERS: readonly string[] = ['Accept-Post', JSON_MEDIA_TYPE, 'Accept-Encoding', 'identity'];

/** What reading a JSON body needs to know. */
export interface JsonBodyOptions {
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

function unsupported(message: string): HttpError {
  return new HttpError('unsupported_media_type', message, { headers: UNSUPPORTED_MEDIA_TYPE_HEADERS });
}

function tooLarge(options: JsonBodyOptions): PetstoreError {
  return new PetstoreError('payload_too_large', `${options.action}: the body must be at most ${options.limit} bytes`);
}

/**
 * Checks what the head of a request says about its body, before a byte of it is read: media type
 * (415), content coding (415), transfer coding (400) and declared size (413).
 */
export function checkJsonBodyHead(headers: RequestHeaders, options: JsonBodyOptions): void {
  const { action, limit } = options;
  const sent = headerOf(headers, 'content-type');
  if (!isJsonMediaType(sent)) {
    const instead = sent === undefined ? ' (no Content-Type was sent)' : `, not \`${sent.slice(0, 100)}\``;
    throw unsupported(`${action}: send the body as \`Content-Type: ${JSON_MEDIA_TYPE}\`${instead}`);
  }
  const coding = headerOf(headers, 'content-encoding');
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    // RFC 9110 §8.4: a content coding the server does not apply is a 415, not a body to misread as JSON.
    throw unsupported(`${action}: send the body without a content coding (\`Content-Encoding: ${coding.slice(0, 50)}\` is not supported)`);
  }
  const transfer = headerOf(headers, 'transfer-encoding');
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
    // A parser that undoes only the chunking leaves a body still gzipped, which is not JSON [decided: 400, not 501].
    throw new PetstoreError('bad_request', `${action}: the only transfer coding supported is \`chunked\`, not \`${transfer.slice(0, 50)}\``);
  }
  const declared = headerOf(headers, 'content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(options);
}

function tooFragmented(options: JsonBodyOptions, pieces: number): PetstoreError {
  const fix = 'send it with a `Content-Length`, or in fewer, larger chunks';
  return new PetstoreError('payload_too_large', `${options.action}: the body arrived in more than ${pieces} pieces; ${fix}`);
}

/**
 * Reads a whole body, counting as it arrives: past `limit` bytes, or past bodyPieceLimit pieces, it
 * stops reading and throws a 413, keeping nothing of the excess.
 */
export async function readBody(body: RequestBody, options: JsonBodyOptions): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const maxPieces = bodyPieceLimit(options.limit);
  let received = 0;
  let isFragmented = false;
  await body.read((chunk) => {
    received += chunk.length;
    if (received > options.limit) return false;
    if (chunks.length === maxPieces) {
      isFragmented = true;
      return false;
    }
    chunks.push(chunk);
    return true;
  });
  if (received > options.limit) throw tooLarge(options);
  if (isFragmented) throw tooFragmented(options, maxPieces);
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** Strict UTF-8: malformed bytes are an error, not U+FFFD; a leading BOM is dropped, as RFC 8259 §8.1 allows. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes strict UTF-8 and parses JSON; an empty body, bad UTF-8 and bad JSON are each a 400 `invalid_json`. */
export function decodeJsonBody(bytes: Uint8Array, action: string): unknown {
  if (bytes.length === 0) throw new PetstoreError('invalid_json', `${action}: the body is empty; send a JSON object`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new PetstoreError('invalid_json', `${action}: the body is not valid UTF-8`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // The engine's own message differs between V8 and JavaScriptCore; the project's scanner words it the same everywhere.
    const problem = findJsonSyntaxProblem(text);
    const reason = problem === undefined ? 'it could not be parsed' : `${problem.reason}, at line ${problem.line}, column ${problem.column}`;
    throw new PetstoreError('invalid_json', `${action}: the body is not valid JSON (${reason})`);
  }
}

/**
 * Reads and parses a JSON request body, checking in order: media type (415), declared and actual
 * size (413, without buffering the excess), strict UTF-8 and JSON syntax (400 `invalid_json`). A
 * body a host framework already parsed passes the same checks of the head, and its value is the
 * parsed body: the size and the syntax were the host parser's to check.
 */
export async function readJsonBody(request: { headers: RequestHeaders; body: RequestBody }, options: JsonBodyOptions): Promise<unknown> {
  checkJsonBodyHead(request.headers, options);
  const { parsed } = request.body;
  if (parsed !== undefined) return parsed.value;
  return decodeJsonBody(await readBody(request.body, options), options.action);
}
