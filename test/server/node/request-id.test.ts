import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AUTH, call, parseRawResponses, rawExchange, startTestServer } from '../../support/http.js';

const GENERATED = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

describe('X-Request-Id on the standalone server', () => {
  test('answers Node\'s own layer gives carry a new X-Request-Id too: a malformed request, oversize headers, CONNECT', async () => {
    const server = await startTestServer();
    try {
      const texts = ['GARBAGE\r\n\r\n', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n'];
      const ids: string[] = [];
      for (const text of texts) {
        const [response] = parseRawResponses(await rawExchange(server.port, [text]));
        assert.ok(response !== undefined && response.status >= 400, text.slice(0, 20));
        ids.push(response.headers['x-request-id'] ?? '');
      }
      for (const id of ids) assert.match(id, GENERATED);
      assert.equal(new Set(ids).size, ids.length);
    } finally {
      await server.close();
    }
  });

  test('a 417 carries the request\'s own id when valid, a new one otherwise', async () => {
    const server = await startTestServer();
    try {
      const own = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'teapot', 'x-request-id': 'expect-1' } });
      assert.deepEqual([own.status, own.headers['x-request-id']], [417, 'expect-1']);
      const fresh = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'teapot' } });
      assert.match(fresh.headers['x-request-id'] ?? '', GENERATED);
    } finally {
      await server.close();
    }
  });
});
