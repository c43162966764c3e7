import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { AUTH, startTestServer } from '../../support/standalone-http.js';
import type { TestServer } from '../../support/standalone-http.js';

/** An answer as it came over the socket: status, headers, and the body's bytes as sent, not decompressed. */
interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** One request over a real socket with node:http, which neither asks for nor undoes a content coding. */
function send(server: TestServer, method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, path, method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, bytes: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('compression over a real socket', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    for (let index = 0; index < 30; index++) await server.store.createPet({ name: `Pet ${index}`, categoryId: index, status: 'available' });
  });
  after(() => server.close());

  test('GET /v1/openapi.json and /v1/docs come gzip-compressed when accepted, and decompress to the bytes sent without it', async () => {
    for (const path of ['/v1/openapi.json', '/v1/docs']) {
      const plain = await send(server, 'GET', path);
      const compressed = await send(server, 'GET', path, { 'accept-encoding': 'gzip, deflate' });
      assert.equal(plain.headers['content-encoding'], undefined, path);
      assert.equal(compressed.headers['content-encoding'], 'gzip', path);
      assert.equal(compressed.headers['vary'], 'Accept-Encoding', path);
      assert.equal(compressed.headers['content-length'], String(compressed.bytes.length), path);
      assert.ok(compressed.bytes.length * 4 < plain.bytes.length, `${path}: ${compressed.bytes.length} of ${plain.bytes.length} bytes`);
      assert.deepEqual(gunzipSync(compressed.bytes), plain.bytes, path);
      // fetch asks for and undoes the coding itself, as a browser does.
      const fetched = await fetch(`${server.origin}${path}`);
      assert.equal(fetched.headers.get('content-encoding'), 'gzip');
      assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), plain.bytes, path);
    }
  });

  test('HEAD and a conditional GET of /v1/openapi.json answer per representation', async () => {
    const compressed = await send(server, 'GET', '/v1/openapi.json', { 'accept-encoding': 'gzip' });
    const head = await send(server, 'HEAD', '/v1/openapi.json', { 'accept-encoding': 'gzip' });
    assert.equal(head.bytes.length, 0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary']) assert.equal(head.headers[name], compressed.headers[name], name);
    const tag = String(compressed.headers['etag']);
    assert.match(tag, /^"[A-Za-z0-9_-]{43}-gzip"$/);
    const unchanged = await send(server, 'GET', '/v1/openapi.json', { 'accept-encoding': 'gzip', 'if-none-match': tag });
    assert.deepEqual([unchanged.status, unchanged.bytes.length, unchanged.headers['etag'], unchanged.headers['vary']], [304, 0, tag, 'Accept-Encoding']);
    const other = await send(server, 'GET', '/v1/openapi.json', { 'if-none-match': tag });
    assert.deepEqual([other.status, other.headers['content-encoding']], [200, undefined], 'the identity representation has another tag');
  });

  test('pet answers stay uncompressed, whatever the request accepts', async () => {
    for (const path of ['/v1/pets?limit=100', '/v1/pets/1']) {
      const answer = await send(server, 'GET', path, { ...AUTH, 'accept-encoding': 'gzip, br' });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['content-encoding'], undefined, path);
      assert.equal(answer.headers['vary'], undefined, path);
      assert.ok(JSON.parse(answer.bytes.toString('utf8')) !== null, path);
    }
  });
});
