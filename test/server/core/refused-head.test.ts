import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import { createRequestCore } from '../../../server/core/index.js';
import type { CoreResponse, RequestBody } from '../../../server/core/index.js';

const API_KEY = 'test-key-0123456789';

/** A body that counts how often the core asks to read it. */
function countingBody(): { body: RequestBody; reads: () => number } {
  let reads = 0;
  const body: RequestBody = {
    read: async (onChunk) => {
      reads++;
      onChunk(new TextEncoder().encode('{"name":"Rex","categoryId":1}'));
    },
  };
  return { body, reads: () => reads };
}

/** Heads the core refuses before the body: no key, a wrong key, an over-long token, a wrong media type, a declared size past the limit. */
const REFUSED_HEADS: readonly [string, Record<string, string>, number, string][] = [
  ['no key', { host: 'x', 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, 401, 'unauthorized'],
  ['a wrong key', { host: 'x', authorization: 'Bearer nope', 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, 401, 'unauthorized'],
  ['an over-long token', { host: 'x', authorization: `Bearer ${'a'.repeat(16_000)}`, 'content-type': 'application/json' }, 401, 'unauthorized'],
  ['text/plain', { host: 'x', authorization: `Bearer ${API_KEY}`, 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
  ['a Content-Length past the limit', { host: 'x', authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'content-length': '70000' }, 413, 'payload_too_large'],
];

test('the request core never reads the body of a create refused on its head (401, 415, 413)', async () => {
  const core = createRequestCore({ store: createPetstore(), apiKeys: [API_KEY], logError: () => undefined });
  for (const [name, headers, status, code] of REFUSED_HEADS) {
    const { body, reads } = countingBody();
    const answer: CoreResponse = await core.handle({ method: 'POST', target: '/v1/pets', headers, body, httpVersion: '1.1' });
    assert.equal(answer.status, status, name);
    assert.equal((JSON.parse(String(answer.body)) as { code: string }).code, code, name);
    assert.equal(reads(), 0, `${name}: the body was read`);
  }
  const { body, reads } = countingBody();
  const accepted = await core.handle({ method: 'POST', target: '/v1/pets', headers: { host: 'x', authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body, httpVersion: '1.1' });
  assert.equal(accepted.status, 201);
  assert.equal(reads(), 1, 'the body of an accepted create is read');
});
