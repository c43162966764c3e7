import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, call, parseRawResponses, rawExchange, startTestServer } from '../../support/standalone-http.js';
import type { TestServer } from '../../support/standalone-http.js';

describe('the reference page on the standalone server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('GET / on the standalone server redirects a browser to the reference page with a 302 and a short text; HEAD the same without it', async () => {
    const reply = await call(server, 'GET', '/');
    assert.equal(reply.status, 302);
    assert.equal(reply.headers['location'], '/v1/docs');
    assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(reply.text, 'The reference page of this server is at /v1/docs\n');
    assert.equal(reply.headers['content-length'], String(reply.text.length));
    assert.ok(reply.headers['x-request-id'] !== undefined);
    const head = await call(server, 'HEAD', '/');
    assert.deepEqual([head.status, head.headers['location'], head.headers['content-length'], head.text], [302, '/v1/docs', reply.headers['content-length'], '']);
  });

  test('GET / on the standalone server needs no key and no Host, and other methods are a 405 with Allow', async () => {
    const reply = await call(server, 'POST', '/', { headers: { 'content-type': 'application/json' }, body: '{}' });
    assertError(reply, 405, 'method_not_allowed');
    assert.equal(reply.headers['allow'], 'GET, HEAD');
    assert.deepEqual([(await call(server, 'GET', '/?page=2')).status, (await call(server, 'GET', '/index.html')).status], [302, 404], 'a query changes nothing; another path is not the root');
    const [withoutHost] = parseRawResponses(await rawExchange(server.port, ['GET / HTTP/1.1\r\nConnection: close\r\n\r\n']));
    assert.deepEqual([withoutHost?.status, withoutHost?.headers['location']], [302, '/v1/docs']);
  });

  test('a browser that follows GET / gets the reference page, with an ETag that answers a 304 next time', async () => {
    const response = await fetch(`${server.origin}/`);
    assert.equal(response.status, 200);
    assert.equal(response.url, `${server.origin}/v1/docs`);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await response.text(), /<h1>Petstore API reference<\/h1>/);
    const tag = response.headers.get('etag') ?? '';
    // Asking for the coding fetch was sent: the tag is that of the representation it chose (RFC 9110 §13.1.2),
    // which depends on the codings fetch offers and on those the runtime's CompressionStream has.
    const coding = response.headers.get('content-encoding') ?? 'identity';
    const again = await call(server, 'GET', '/v1/docs', { headers: { 'accept-encoding': coding, 'if-none-match': tag, 'x-request-id': 'revalidate-1' } });
    assert.deepEqual([again.status, again.text, again.headers['etag'], again.headers['x-request-id']], [304, '', tag, 'revalidate-1']);
    assert.equal(again.headers['content-length'], undefined);
  });

  test('GET / redirects to the reference page under the server\'s own base path', async () => {
    const custom = await startTestServer({ basePath: '/api/v2' });
    try {
      const reply = await call(custom, 'GET', '/');
      assert.deepEqual([reply.status, reply.headers['location']], [302, '/api/v2/docs']);
      const page = await call(custom, 'GET', '/api/v2/docs');
      assert.equal(page.status, 200);
      assert.ok(page.text.includes('<span class="path">/api/v2/pets/{petId}</span>'));
    } finally {
      await custom.close();
    }
  });
});
