import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonResponse, textResponse } from '../../../server/core/index.js';
import type { BareResponse } from '../../../server/core/index.js';

/** Texts whose UTF-8 length each branch of the count decides: ASCII, two and three bytes, a surrogate pair, lone surrogates at either end. */
const TEXTS = ['', '{"name":"Rex"}', 'café', 'chat 猫', '🐈 and 😀', '\ud800', 'a\udc00b', 'end\ud83d', '\udc08\ud83d', `[${'{"id":1,"name":"ü"},'.repeat(200)}{}]`];

/** The answer's `Content-Length`, as a number. */
function contentLength(response: BareResponse): number {
  const at = response.headers.indexOf('Content-Length');
  return Number(response.headers[at + 1]);
}

/** The bytes an encoder writes for `text`: lone surrogates become U+FFFD, three bytes. */
function encodedLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** Runs `body` with `globalThis.Buffer` replaced by `replacement` (undefined: a runtime without Buffer), restoring it after. */
function withBuffer(replacement: unknown, body: () => void): void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'Buffer');
  Object.defineProperty(globalThis, 'Buffer', { value: replacement, configurable: true, writable: true });
  try {
    body();
  } finally {
    if (descriptor === undefined) delete (globalThis as { Buffer?: unknown }).Buffer;
    else Object.defineProperty(globalThis, 'Buffer', descriptor);
  }
}

test('Content-Length is the UTF-8 length of a JSON or text answer, lone surrogates counted as the three bytes encoders write', () => {
  for (const text of TEXTS) {
    assert.equal(contentLength(jsonResponse(200, text)), encodedLength(text), JSON.stringify(text.slice(0, 20)));
    assert.equal(contentLength(textResponse(200, text, 'text/plain; charset=utf-8')), encodedLength(text), JSON.stringify(text.slice(0, 20)));
  }
});

test('Content-Length is counted the same on a runtime without Buffer, as the fetch door may run', () => {
  withBuffer(undefined, () => {
    for (const text of TEXTS) assert.equal(contentLength(jsonResponse(200, text)), encodedLength(text), JSON.stringify(text.slice(0, 20)));
  });
});

test('Content-Length of an answer is counted by the runtime\'s native Buffer.byteLength where there is one, not by a loop over the text', () => {
  const counted: string[] = [];
  const native = Buffer;
  withBuffer({ byteLength: (text: string) => (counted.push(text), native.byteLength(text)) }, () => {
    assert.equal(contentLength(jsonResponse(200, '{"name":"café"}')), 16);
  });
  assert.deepEqual(counted, ['{"name":"café"}']);
});
