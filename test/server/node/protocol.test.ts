import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { API_KEY, AUTH, call, parseRawResponses, rawExchange, startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';

const AUTH_LINE = `Authorization: Bearer ${API_KEY}\r\n`;

function only(text: string): { status: number; headers: Record<string, string>; body: string } {
  const responses = parseRawResponses(text);
  assert.equal(responses.length, 1, text);
  return responses[0] as { status: number; headers: Record<string, string>; body: string };
}

function assertRawError(text: string, status: number, code: string): void {
  const response = only(text);
  assert.equal(response.status, status, text);
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  const body = JSON.parse(response.body) as { code: string; status: number; message: string };
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.ok(body.message.length > 0);
}

describe('HTTP framing and Node parser errors', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ timeouts: { headers: 400, request: 1500, connectionsCheckingInterval: 100 } });
  });
  after(() => server.close());

  test('malformed request lines and headers are a 400 bad_request Error body', async () => {
    const cases = [
      'GARBAGE\r\n\r\n',
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n',
      'GET /v1/pets HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n`,
      'GET /v1/pets\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
    ];
    for (const request of cases) assertRawError(await rawExchange(server.port, [request]), 400, 'bad_request');
  });

  test('oversize headers are a 431 headers_too_large Error body', async () => {
    const text = await rawExchange(server.port, [`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    assertRawError(text, 431, 'headers_too_large');
  });

  test('an unsupported Expect is a 417 expectation_failed Error body', async () => {
    const reply = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'something-else' } });
    assert.equal(reply.status, 417);
    assert.equal((reply.json as { code: string }).code, 'expectation_failed');
  });

  test('Expect: 100-continue is honoured', async () => {
    const text = await rawExchange(server.port, [
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 29\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      '{"name":"Cont","categoryId":1}'.slice(0, 29),
    ], { gapMs: 50 });
    assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 (201|400) /);
  });

  test('Expect: 100-continue is refused without 100 Continue when the head decides: a body over the limit (413) or no key (401)', async () => {
    const heads: [string, number, string][] = [
      [`POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n`, 413, 'payload_too_large'],
      ['POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 29\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n', 401, 'unauthorized'],
    ];
    for (const [head, status, code] of heads) {
      const text = await rawExchange(server.port, [head], { until: /\}$/ });
      assert.doesNotMatch(text, /100 Continue/);
      assertRawError(text, status, code);
    }
  });

  test('a request with two Host headers, or an invalid one, is a 400 bad_request (RFC 9112 §3.2)', async () => {
    for (const hosts of ['Host: a\r\nHost: b\r\n', 'Host: a\r\nhost: a\r\n', 'Host: a.test/b\r\n', 'Host: a b\r\n', 'Host: a@b\r\n']) {
      const text = await rawExchange(server.port, [`GET /v1/pets HTTP/1.1\r\n${hosts}${AUTH_LINE}Connection: close\r\n\r\n`]);
      assertRawError(text, 400, 'bad_request');
      assert.match(JSON.parse(only(text).body).message, /exactly one Host/);
    }
  });

  test('slow headers are cut off with a 408 request_timeout Error body', async () => {
    const text = await rawExchange(server.port, ['GET /v1/pets HTTP/1.1\r\n', 'Host: x\r\n'], { gapMs: 100 });
    assertRawError(text, 408, 'request_timeout');
  });

  test('a stalled body is cut off at the request timeout and creates nothing', async () => {
    const text = await rawExchange(server.port, [`POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"Slow"`]);
    assert.ok(text === '' || only(text).status === 408, text);
    assert.deepEqual(await server.store.listPets(), []);
  });

  test('pipelined requests are answered in order', async () => {
    const get = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`;
    const post = `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 30\r\n\r\n{"name":"Pipe","categoryId":1}`;
    const last = `GET /v1/nope HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Connection: close\r\n\r\n`;
    const responses = parseRawResponses(await rawExchange(server.port, [get + post + last]));
    assert.deepEqual(responses.map((response) => response.status), [200, 201, 404]);
  });

  test('a request smuggled after a malformed one is never executed', async () => {
    const before = (await server.store.listPets({ limit: 100 })).length;
    const smuggled = `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 33\r\n\r\n{"name":"Smuggled","categoryId":1}`;
    const text = await rawExchange(server.port, [`POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`]);
    assertRawError(text, 400, 'bad_request');
    assert.equal((await server.store.listPets({ limit: 100 })).length, before);
  });

  test('bare LF line endings are rejected, not guessed at', async () => {
    const text = await rawExchange(server.port, [`GET /v1/pets HTTP/1.1\nHost: x\n${AUTH_LINE.replace('\r\n', '\n')}\n`]);
    const responses = parseRawResponses(text);
    assert.ok(responses.length === 0 || responses[0]?.status === 400, text);
  });

  test('an idle keep-alive connection is closed by the server', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`));
      socket.on('data', () => {});
      socket.on('close', () => resolve(true));
      socket.on('error', () => resolve(true));
    });
    assert.equal(closed, true);
  });
});
