import { PetstoreError } from '../../lib/index.js';

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
