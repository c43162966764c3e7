import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import { availableCodings, createNegotiatedRepresentation, negotiateCoding } from '../../../extras/docs-site/compression.js';
import type { ContentCoding } from '../../../extras/docs-site/compression.js';
import { entityTagOf } from '../../../extras/docs-site/conditional.js';
import type { BareResponse } from '../../../server/core/index.js';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { inject } from '../../../server/testing/index.js';
import { API_KEY, AUTH } from '../../support/http.js';
import { docsSite } from '../../../extras/docs-site/index.js';

const BOTH: readonly ContentCoding[] = ['br', 'gzip'];
const GZIP: readonly ContentCoding[] = ['gzip'];

/** `Accept-Encoding` values, the codings on offer, and the coding chosen (undefined: identity) [RFC 9110 §12.5.3]. */
const NEGOTIATIONS: readonly [string | undefined, readonly ContentCoding[], ContentCoding | undefined][] = [
  [undefined, BOTH, undefined],
  ['', BOTH, undefined],
  ['gzip', BOTH, 'gzip'],
  ['GZip', BOTH, 'gzip'],
  ['x-gzip', BOTH, 'gzip'],
  ['gzip, deflate, br, zstd', BOTH, 'br'],
  ['gzip, deflate, br, zstd', GZIP, 'gzip'],
  ['br;q=0.5, gzip;q=0.8', BOTH, 'gzip'],
  ['br;q=1.0, gzip;q=1', BOTH, 'br'],
  ['gzip;q=0', BOTH, undefined],
  ['gzip;q=0.000', BOTH, undefined],
  ['gzip ; q=0.001', BOTH, 'gzip'],
  ['gzip;q=2', BOTH, undefined],
  ['gzip;q=ten', BOTH, undefined],
  ['gzip;q=0.5, identity;q=0.9', BOTH, undefined],
  ['gzip;q=0.5, identity;q=0.5', BOTH, 'gzip'],
  ['identity', BOTH, undefined],
  ['identity;q=0', BOTH, undefined],
  ['identity;q=0, gzip;q=0.1', BOTH, 'gzip'],
  ['*', BOTH, 'br'],
  ['*', GZIP, 'gzip'],
  ['*;q=0', BOTH, undefined],
  ['*;q=0.5, gzip;q=0', BOTH, 'br'],
  ['*;q=0.5, br;q=0, gzip;q=0', BOTH, undefined],
  ['*, br;q=0', BOTH, 'gzip'],
  ['deflate, compress', BOTH, undefined],
  ['br', GZIP, undefined],
  [', gzip,,', BOTH, 'gzip'],
  ['gzip;q=0, gzip', BOTH, 'gzip'],
];

const TEXT = `{"text":"${'compressible '.repeat(200)}"}`;

/** The headers of an answer by lower-case name. */
function headersOf(response: BareResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index < response.headers.length; index += 2) headers[String(response.headers[index]).toLowerCase()] = String(response.headers[index + 1]);
  return headers;
}

/** The body of an answer as bytes. */
function bytesOf(response: BareResponse): Uint8Array {
  return typeof response.body === 'string' ? new TextEncoder().encode(response.body) : response.body;
}

describe('compression', () => {
  test('negotiateCoding() follows Accept-Encoding: q-values, identity, *, and the server\'s preference for br on a tie', () => {
    for (const [acceptEncoding, available, expected] of NEGOTIATIONS) {
      assert.equal(negotiateCoding(acceptEncoding, available), expected, `Accept-Encoding: ${acceptEncoding} of ${available.join(', ')}`);
    }
  });

  test('availableCodings() offers gzip everywhere, and br exactly when the runtime\'s CompressionStream has brotli', () => {
    let hasBrotli = true;
    try {
      new (CompressionStream as new (format: string) => CompressionStream)('brotli');
    } catch {
      hasBrotli = false;
    }
    assert.deepEqual(availableCodings(), hasBrotli ? ['br', 'gzip'] : ['gzip']);
  });

  test('createNegotiatedRepresentation() answers the accepted coding with its own ETag, Content-Length and Vary, decompressing to the text', async () => {
    const representation = createNegotiatedRepresentation(TEXT, 'application/json; charset=utf-8', { codings: GZIP });
    const tag = entityTagOf(TEXT);
    const plain = await representation.respond({});
    assert.deepEqual(headersOf(plain), {
      'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', vary: 'Accept-Encoding', etag: tag, 'content-length': String(TEXT.length),
    });
    assert.equal(new TextDecoder().decode(bytesOf(plain)), TEXT);
    const compressed = await representation.respond({ 'accept-encoding': 'gzip, deflate' });
    const headers = headersOf(compressed);
    assert.equal(compressed.status, 200);
    assert.equal(headers['content-encoding'], 'gzip');
    assert.equal(headers['etag'], `${tag.slice(0, -1)}-gzip"`);
    assert.equal(headers['vary'], 'Accept-Encoding');
    assert.equal(headers['content-length'], String(bytesOf(compressed).length));
    assert.ok(bytesOf(compressed).length * 10 < TEXT.length, `${bytesOf(compressed).length} bytes`);
    assert.equal(gunzipSync(bytesOf(compressed)).toString('utf8'), TEXT);
  });

  test('createNegotiatedRepresentation() compresses each coding once, however many requests ask for it at the same time', async () => {
    const representation = createNegotiatedRepresentation(TEXT, 'text/plain', { codings: GZIP });
    const [first, second] = await Promise.all([representation.respond({ 'accept-encoding': 'gzip' }), representation.respond({ 'accept-encoding': 'gzip' })]);
    assert.ok(first !== undefined && second !== undefined);
    assert.equal(first.body, second.body, 'the same bytes, not a second compression');
    const later = representation.respond({ 'accept-encoding': 'gzip' });
    assert.ok(!(later instanceof Promise), 'answered at once once built');
    assert.equal(later.body, first.body);
  });

  test('createNegotiatedRepresentation() answers with the identity representation, every time, when a coding cannot be compressed', { skip: availableCodings().includes('br') ? 'this runtime compresses br, so no coding fails here' : false }, async () => {
    // Offered br where CompressionStream has no brotli: each compression fails.
    const representation = createNegotiatedRepresentation(TEXT, 'text/plain', { codings: ['br'] });
    for (const round of [1, 2]) {
      const answer = await representation.respond({ 'accept-encoding': 'br' });
      assert.equal(answer.status, 200, `round ${round}`);
      assert.equal(headersOf(answer)['content-encoding'], undefined, `round ${round}`);
      assert.equal(headersOf(answer)['etag'], entityTagOf(TEXT), `round ${round}`);
      assert.equal(new TextDecoder().decode(bytesOf(answer)), TEXT, `round ${round}`);
    }
  });

  test('createNegotiatedRepresentation() answers 304 only when If-None-Match names the tag of the coding the request accepts', async () => {
    const representation = createNegotiatedRepresentation(TEXT, 'text/plain', { codings: GZIP });
    const identityTag = entityTagOf(TEXT);
    const gzipTag = `${identityTag.slice(0, -1)}-gzip"`;
    const cases: [Record<string, string>, number, string][] = [
      [{ 'accept-encoding': 'gzip', 'if-none-match': gzipTag }, 304, gzipTag],
      [{ 'accept-encoding': 'gzip', 'if-none-match': `W/${gzipTag}` }, 304, gzipTag],
      [{ 'accept-encoding': 'gzip', 'if-none-match': '*' }, 304, gzipTag],
      [{ 'if-none-match': identityTag }, 304, identityTag],
      [{ 'accept-encoding': 'gzip', 'if-none-match': identityTag }, 200, gzipTag],
      [{ 'if-none-match': gzipTag }, 200, identityTag],
      [{ 'accept-encoding': 'gzip;q=0', 'if-none-match': gzipTag }, 200, identityTag],
    ];
    for (const [requestHeaders, status, tag] of cases) {
      const answer = await representation.respond(requestHeaders);
      assert.equal(answer.status, status, JSON.stringify(requestHeaders));
      assert.equal(headersOf(answer)['etag'], tag, JSON.stringify(requestHeaders));
      assert.equal(headersOf(answer)['vary'], 'Accept-Encoding', JSON.stringify(requestHeaders));
      if (status === 304) assert.deepEqual([answer.headers, answer.body], [['ETag', tag, 'Cache-Control', 'no-cache', 'Vary', 'Accept-Encoding'], ''], JSON.stringify(requestHeaders));
    }
  });

  test('the description and the reference page are sent compressed to a client that accepts gzip, over the core and the fetch adapter, and pet answers are not', async () => {
    const options = { store: createPetstore(), apiKeys: [API_KEY], plugins: [docsSite()] };
    await options.store.createPet({ name: 'Rex', categoryId: 1 });
    for (const target of [options, createFetchHandler(options)]) {
      for (const url of ['/v1/openapi.json', '/v1/docs']) {
        const plain = await inject(target, { url });
        const compressed = await inject(target, { url, headers: { 'accept-encoding': 'gzip' } });
        assert.equal(plain.headers['content-encoding'], undefined, url);
        assert.equal(compressed.headers['content-encoding'], 'gzip', url);
        assert.equal(compressed.headers['vary'], 'Accept-Encoding', url);
        assert.equal(compressed.headers['etag'], `${(plain.headers['etag'] ?? '').slice(0, -1)}-gzip"`, url);
        assert.equal(compressed.headers['content-length'], String(compressed.bytes.length), url);
        assert.equal(gunzipSync(compressed.bytes).toString('utf8'), plain.body, url);
      }
      for (const url of ['/v1/pets', '/v1/pets/1']) {
        const answer = await inject(target, { url, headers: { ...AUTH, 'accept-encoding': 'gzip, br' } });
        assert.equal(answer.status, 200, url);
        assert.equal(answer.headers['content-encoding'], undefined, url);
        assert.equal(answer.headers['vary'], undefined, url);
        assert.ok(Array.isArray(answer.json()) || typeof answer.json() === 'object', url);
      }
    }
  });

  test('inject() joins a header sent on several lines with a comma, as the fetch API does', async () => {
    const options = { store: createPetstore(), apiKeys: [API_KEY], corsOrigins: ['https://app.example.com'], plugins: [docsSite()] };
    const answer = await inject(options, { url: '/v1/openapi.json', headers: { origin: 'https://app.example.com' } });
    const fetched = await inject(createFetchHandler(options), { url: '/v1/openapi.json', headers: { origin: 'https://app.example.com' } });
    assert.equal(answer.headers['vary'], 'Accept-Encoding, Origin');
    assert.equal(fetched.headers['vary'], answer.headers['vary']);
  });
});
