import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { createPetstore } from '../../../lib/index.js';
import type { ErrorBody, Petstore } from '../../../lib/index.js';
import { API_KEY, JSON_POST } from '../../support/http.js';

/** A small limit, so a body over it takes a few chunks. */
const BODY_LIMIT = 4096;
const CHUNK_SIZE = 1024;

const encoder = new TextEncoder();

/** A POST of a streamed body without Content-Length, as a chunked request reaches a fetch handler. */
function streamingPost(body: ReadableStream<Uint8Array>): Request {
  return new Request('http://127.0.0.1/v1/pets', { method: 'POST', headers: JSON_POST, body, duplex: 'half' });
}

/** A body that never ends, counting how often it is asked for a chunk and whether the reader gave up on it. */
function endlessBody(): { stream: ReadableStream<Uint8Array>; pulls: () => number; isCancelled: () => boolean } {
  let pulls = 0;
  let isCancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      // The start of a JSON string that never closes: only the limit can end the reading.
      controller.enqueue(pulls === 1 ? encoder.encode(`{"name":"${'x'.repeat(CHUNK_SIZE - 9)}`) : new Uint8Array(CHUNK_SIZE).fill(0x78));
    },
    cancel() {
      isCancelled = true;
    },
  });
  return { stream, pulls: () => pulls, isCancelled: () => isCancelled };
}

/** A body that sends `text` and then fails, as a connection lost mid-body does. */
function failingBody(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(text));
    },
    pull(controller) {
      controller.error(new Error('the connection was lost'));
    },
  });
}

async function assertErrorResponse(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  return body;
}

async function petCount(store: Petstore): Promise<number> {
  return (await store.listPets({ limit: 100 })).length;
}

describe('createFetchHandler() reading a streamed body', () => {
  test('createFetchHandler() answers an endless chunked body with a 413 and stops reading it at the limit', { timeout: 10_000 }, async () => {
    const store = createPetstore();
    const handler = createFetchHandler({ store, apiKeys: [API_KEY], bodyLimit: BODY_LIMIT });
    const body = endlessBody();
    const response = await handler(streamingPost(body.stream));
    const error = await assertErrorResponse(response, 413, 'payload_too_large');
    assert.equal(error.message, `Cannot create pet: the body must be at most ${BODY_LIMIT} bytes`);
    assert.equal(response.headers.get('connection'), null, 'whether the connection goes on is the runtime\'s to decide');
    assert.ok(body.isCancelled(), 'the handler cancels the body stream');
    // Five chunks pass the limit; a stream keeps at most one more queued ahead of the reader.
    assert.ok(body.pulls() <= BODY_LIMIT / CHUNK_SIZE + 2, `the body was pulled ${body.pulls()} times`);
    const pullsWhenAnswered = body.pulls();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(body.pulls(), pullsWhenAnswered, 'nothing reads the body after the answer');
    assert.equal(await petCount(store), 0);
  });

  test('createFetchHandler() creates a pet from a chunked body within the limit', async () => {
    const store = createPetstore();
    const handler = createFetchHandler({ store, apiKeys: [API_KEY], bodyLimit: BODY_LIMIT });
    const parts = ['{"name":', '"Rex","categoryId"', ':1}'].map((part) => encoder.encode(part));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    const response = await handler(streamingPost(stream));
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('location'), '/v1/pets/1');
    assert.deepEqual(await response.json(), { id: 1, name: 'Rex', categoryId: 1 });
  });

  const failures: [string, string][] = [
    ['half a JSON object', '{"name":"Rex",'],
    ['a whole JSON object', '{"name":"Rex","categoryId":1}'],
  ];
  for (const [what, text] of failures) {
    test(`createFetchHandler() creates no pet when the body stream fails after ${what}`, async () => {
      const store = createPetstore();
      const handler = createFetchHandler({ store, apiKeys: [API_KEY], bodyLimit: BODY_LIMIT });
      const response = await handler(streamingPost(failingBody(text)));
      const error = await assertErrorResponse(response, 400, 'bad_request');
      assert.match(error.message, /before the request body was complete/);
      assert.equal(await petCount(store), 0);
    });
  }
});
