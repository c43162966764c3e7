import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUTH, JSON_POST, assertError, call, rawExchange, parseRawResponses, startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';

describe('POST /v1/pets (createPet)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyLimit: 1024 });
  });
  after(() => server.close());

  test('createPet answers 413 from Content-Length before reading, with Connection: close', async () => {
    const body = `{"name":"${'x'.repeat(2000)}","categoryId":1}`;
    const reply = await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body });
    assertError(reply, 413, 'payload_too_large', /at most 1024 bytes/);
    assert.equal(reply.headers.connection, 'close');
  });

  test('createPet answers 413 for a chunked body that grows past the limit', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = `400\r\n${'x'.repeat(0x400)}\r\n`;
    const text = await rawExchange(server.port, [head, chunk, chunk, chunk], { until: /"status":413}/ });
    const [response] = parseRawResponses(text);
    assert.equal(response?.status, 413);
    assert.equal(response?.headers['connection'], 'close');
    assert.equal(JSON.parse(response?.body ?? '').code, 'payload_too_large');
  });

  test('createPet answers 413 for a body in more one-byte chunks than it reads, with the Error body saying so', async () => {
    const defaultServer = await startTestServer();
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const body = `{"name":"${'x'.repeat(200)}","categoryId":1}${' '.repeat(2000)}`;
    const chunks = [...body].map((character) => `1\r\n${character}\r\n`).join('');
    const text = await rawExchange(defaultServer.port, [head, chunks, '0\r\n\r\n'], { until: /"status":413}/ }).finally(() => defaultServer.close());
    const [response] = parseRawResponses(text);
    assert.equal(response?.status, 413);
    assert.equal(response?.headers['connection'], 'close');
    assert.deepEqual(JSON.parse(response?.body ?? ''), {
      code: 'payload_too_large',
      message: 'Cannot create pet: the body arrived in more than 1024 pieces; send it with a `Content-Length`, or in fewer, larger chunks',
      status: 413,
    });
  });

  test('createPet accepts a chunked body within the limit', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const text = await rawExchange(server.port, [head, '5\r\n{"nam\r\n', '17\r\ne":"Chunky","categoryId\r\n', '3\r\n":1\r\n', '1\r\n}\r\n', '0\r\n\r\n']);
    const [response] = parseRawResponses(text);
    assert.equal(response?.status, 201, text);
    assert.equal(JSON.parse(response?.body ?? '').name, 'Chunky');
  });

  test('createPet creates nothing when the client aborts mid-body', async () => {
    const before = await server.store.listPets({ limit: 100 });
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n`;
    const text = await rawExchange(server.port, [head, '{"name":"Half","categ'], { abort: true, gapMs: 20 });
    assert.equal(text, '');
    // A request the server has seen in full proves the aborted one was processed before it.
    assert.equal((await call(server, 'GET', '/v1/pets?limit=100', { headers: AUTH })).status, 200);
    assert.deepEqual(await server.store.listPets({ limit: 100 }), before);
  });

  test('createPet answers 400 for a transfer coding other than chunked', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n`;
    const [response] = parseRawResponses(await rawExchange(server.port, [head, '2\r\n{}\r\n0\r\n\r\n'], { until: /\}$/ }));
    assert.equal(response?.status, 400);
    assert.match(JSON.parse(response?.body ?? '{}').message, /only transfer coding supported is `chunked`/);
  });

  test('an answer given before a large or chunked body is read closes the connection instead of draining it', async () => {
    const before = (await server.store.listPets({ limit: 100 })).length;
    const pipelined = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 32\r\n\r\n{"name":"Behind","categoryId":1}`;
    const cases = [
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9000000\r\n\r\n{"name"`,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: text/plain\r\nContent-Length: 9000000\r\n\r\nhello`,
      `PUT /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Length: 9000000\r\n\r\n{`,
      `POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n`,
    ];
    for (const head of cases) {
      // The body is never finished: the answer and the close must come anyway, and nothing behind it runs.
      const text = await rawExchange(server.port, [head]);
      const [response] = parseRawResponses(text);
      assert.ok([401, 404, 405, 415].includes(response?.status ?? 0), text);
      assert.equal(response?.headers['connection'], 'close');
    }
    const chunkedThenCreate = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n0\r\n\r\n${pipelined}`;
    assert.deepEqual(parseRawResponses(await rawExchange(server.port, [chunkedThenCreate])).map((response) => response.status), [401]);
    assert.equal((await server.store.listPets({ limit: 100 })).length, before);
  });
});
