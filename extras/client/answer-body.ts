import { MAX_LIMIT, MAX_NAME_LENGTH, MAX_SAFE_ID, PET_STATUSES } from '../../lib/index.js';
import type { FetchBody, FetchBodyChunk, FetchResponse } from './fetch.js';

/**
 * The most bytes one name can take in JSON: a code point outside the BMP written as two `\uXXXX`
 * escapes is 12 bytes (a BMP character escaped is 6, and UTF-8 takes at most 4).
 */
const WORST_BYTES_PER_CODE_POINT = 12;

/**
 * The size in bytes of the largest answer of the interface: a page of MAX_LIMIT pets [spec 4.1], each
 * with the longest ids, the longest status and a name of MAX_NAME_LENGTH code points escaped at
 * worst, written without white space. 315,801 bytes; error bodies are far smaller.
 */
export function largestValidAnswerBytes(): number {
  const longestStatus = PET_STATUSES.reduce((longest, status) => (status.length > longest.length ? status : longest), '');
  const bareWidestPet = JSON.stringify({ id: MAX_SAFE_ID, name: '', categoryId: -MAX_SAFE_ID, status: longestStatus }).length;
  const widestPet = bareWidestPet + MAX_NAME_LENGTH * WORST_BYTES_PER_CODE_POINT;
  // `[`, `]` and a comma between two pets.
  return 2 + MAX_LIMIT * widestPet + (MAX_LIMIT - 1);
}

/**
 * The default bound on an answer's body, in bytes (decoded, after any `Content-Encoding`): 1 MiB,
 * the largest valid answer (`largestValidAnswerBytes()`, 315,801 bytes) rounded up, with room for a
 * server that indents its JSON.
 */
export const MAX_ANSWER_BYTES = 1_048_576;

const DECIMAL = /^[0-9]+$/;

/** Node's zlib codes (`Z_DATA_ERROR`, `Z_BUF_ERROR`) and brotli's (`ERR__ERROR_FORMAT_PADDING_2`, `ERR_BROTLI_…`). */
const DECODING_CODE = /^(?:Z_|ERR__|ERR_BROTLI|ERR_ZLIB)/;

/**
 * What made a body impossible to decode, when a failure of fetch or of the body's reading says so
 * (looked for through its `cause`s): a zlib or brotli error, or undici's refusal of more than 5
 * content-encodings (`too many content-encodings in response: 6, maximum allowed is 5`). Undefined
 * for any other failure, which is one of the network. The same answer would come again, so it is
 * not retried.
 */
export function decodingProblem(failure: unknown): string | undefined {
  let error = failure;
  for (let depth = 0; depth < 5 && error instanceof Error; depth++, error = error.cause) {
    const code: unknown = Object.getOwnPropertyDescriptor(error, 'code')?.value;
    if ((typeof code === 'string' && DECODING_CODE.test(code)) || /content-encoding|decompression/i.test(error.message)) return error.message;
  }
  return undefined;
}

/** Cancels a body nobody will read, so its connection is freed; a failure to cancel changes nothing. */
function discard(body: FetchBody | null | undefined): void {
  if (body === undefined || body === null) return;
  body.getReader().cancel().catch(() => undefined);
}

/** Waits for `promise` unless `expired` rejects first; a loser's later rejection is dropped, never unhandled. */
function raced<T>(promise: Promise<T>, expired: Promise<never>): Promise<T> {
  promise.catch(() => undefined);
  return Promise.race([promise, expired]);
}

/**
 * Reads an answer's body as text, chunk by chunk, stopping at `maxBytes`: undefined when the body
 * (or its `Content-Length`) is larger, so an endless body costs at most `maxBytes` of memory. Stops
 * with `expired`'s error as soon as it rejects. A response without a `body` stream is read whole
 * with `text()` and measured after.
 */
export async function readAnswerBody(response: FetchResponse, maxBytes: number, expired: Promise<never>): Promise<string | undefined> {
  const declared = response.headers.get('content-length')?.trim();
  if (declared !== undefined && DECIMAL.test(declared) && Number(declared) > maxBytes) {
    discard(response.body);
    return undefined;
  }
  if (response.body === null) return '';
  if (response.body === undefined) {
    const text = await raced(response.text(), expired);
    return new TextEncoder().encode(text).byteLength > maxBytes ? undefined : text;
  }
  const reader = response.body.getReader();
  // As `Response.text()` decodes: UTF-8, a byte order mark dropped, bad bytes replaced (a character split between chunks kept whole).
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const chunk: FetchBodyChunk = await raced(reader.read(), expired);
      if (chunk.done) return text + decoder.decode();
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => undefined);
        return undefined;
      }
      text += decoder.decode(chunk.value, { stream: true });
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
}
