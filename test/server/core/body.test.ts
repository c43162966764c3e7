import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { bodyPieceLimit, checkJsonBodyHead, readBody, readJsonBody } from '../../../server/core/request.js';
import { HttpError } from '../../../server/core/http-error.js';
import { parsedBodyOf } from '../../../server/core/request.js';
import type { RequestBody } from '../../../server/core/request.js';
import type { HeaderList } from '../../../server/core/response.js';

const OPTIONS = { limit: 10, action: 'Cannot create pet' };

/** What a refusal is made of: its code, and the headers of its answer (an HttpError's, none for a plain PetstoreError). */
function refusal(headers: Record<string, string>): { code: string; headers: HeaderList } {
  try {
    checkJsonBodyHead(headers, OPTIONS);
  } catch (error) {
    assert.ok(error instanceof PetstoreError);
    return { code: error.code, headers: error instanceof HttpError ? error.headers : [] };
  }
  throw new assert.AssertionError({ message: `the head ${JSON.stringify(headers)} was accepted` });
}

test('checkJsonBodyHead() refuses with the headers the answer needs: Accept-Post for a 415, none for a 413 or a 400', () => {
  assert.deepEqual(refusal({ 'content-type': 'text/plain' }).headers, ['Accept-Post', 'application/json', 'Accept-Encoding', 'identity']);
  assert.deepEqual(refusal({ 'content-type': 'application/json', 'content-encoding': 'gzip' }).headers, ['Accept-Post', 'application/json', 'Accept-Encoding', 'identity']);
  assert.deepEqual(refusal({ 'content-type': 'application/json', 'content-length': '11' }).headers, []);
  const badTransfer = refusal({ 'content-type': 'application/json', 'transfer-encoding': 'gzip' });
  assert.equal(badTransfer.code, 'bad_request');
  assert.deepEqual(badTransfer.headers, []);
  assert.doesNotThrow(() => checkJsonBodyHead({ 'content-type': 'Application/JSON; charset=utf-8', 'content-length': '10' }, OPTIONS));
});

/** A body delivered in `count` one-byte pieces, counting how many the reader took before it stopped. */
function piecesBody(count: number): { body: RequestBody; delivered: () => number } {
  let delivered = 0;
  const body: RequestBody = {
    read: async (onChunk) => {
      for (let index = 0; index < count; index++) {
        delivered++;
        if (!onChunk(new Uint8Array([index === 0 ? 0x7b : 0x20]))) return;
      }
    },
  };
  return { body, delivered: () => delivered };
}

test('bodyPieceLimit() allows 1024 pieces up to a 64 KiB limit and one per 64 bytes above it', () => {
  for (const [limit, pieces] of [[1, 1024], [65_536, 1024], [65_537, 1025], [1_048_576, 16_384]] as const) assert.equal(bodyPieceLimit(limit), pieces, String(limit));
});

test('readBody() refuses a body in more pieces than bodyPieceLimit with a 413 that says so, and stops reading at the first piece past it', async () => {
  const { body, delivered } = piecesBody(65_536);
  const refusal = await readBody(body, { limit: 65_536, action: 'Cannot create pet' }).then(() => undefined, (error: unknown) => error);
  assert.ok(refusal instanceof PetstoreError);
  assert.deepEqual(refusal.toJSON(), {
    code: 'payload_too_large',
    message: 'Cannot create pet: the body arrived in more than 1024 pieces; send it with a `Content-Length`, or in fewer, larger chunks',
    status: 413,
  });
  assert.equal(delivered(), 1025);
});

test('readBody() accepts a body in exactly bodyPieceLimit pieces', async () => {
  const { body } = piecesBody(1024);
  assert.equal((await readBody(body, { limit: 65_536, action: 'Cannot create pet' })).length, 1024);
});

test('readJsonBody() takes the value of a body a host framework parsed as it is, after the same checks of the head', async () => {
  const value = { name: 'Rex', categoryId: 1 };
  assert.equal(await readJsonBody({ headers: { 'content-type': 'application/json' }, body: parsedBodyOf(value) }, OPTIONS), value);
  await assert.rejects(readJsonBody({ headers: { 'content-type': 'text/plain' }, body: parsedBodyOf(value) }, OPTIONS), (error: unknown) => error instanceof PetstoreError && error.status === 415);
  await assert.rejects(readJsonBody({ headers: { 'content-type': 'application/json', 'content-length': '11' }, body: parsedBodyOf(value) }, OPTIONS), (error: unknown) => error instanceof PetstoreError && error.status === 413);
});
