import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { checkSameHeaders, requestAnswer } from '../../../bench/checks.js';
import { SCENARIOS } from '../../../bench/http.js';
import { createCeilingServer, parseCapturedAnswers, rawHeaderOf } from '../../../bench/servers/ceiling.js';
import type { CapturedAnswer, CeilingHeaders } from '../../../bench/servers/ceiling.js';

/** An answer as the project's server sends `GET /v1/pets/42`, headers in its case and order. */
const CAPTURED: CapturedAnswer = {
  method: 'GET',
  target: '/v1/pets/42',
  status: 200,
  rawHeaders: [
    'Content-Type', 'application/json; charset=utf-8', 'Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff',
    'X-Request-Id', 'FkgZlx7w_cMJWyAs-rt', 'Content-Length', '61', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive', 'Keep-Alive', 'timeout=5',
  ],
  body: '{"id":42,"name":"pet-000041","categoryId":41,"status":"sold"}',
};

const GET_PET = SCENARIOS.find((scenario) => scenario.path === '/v1/pets/42');

async function withCeiling(headers: CeilingHeaders, use: (origin: string, server: Server) => Promise<void>): Promise<void> {
  const server = createCeilingServer([CAPTURED], headers);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  }
}

/** Two requests written at once on one connection: the answers come back on it, in one text. */
function twoOnOneConnection(origin: string, target: string): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.split('HTTP/1.1 ').length === 3 && text.endsWith(CAPTURED.body)) {
        socket.destroy();
        done(text);
      }
    });
    socket.on('error', fail);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\nGET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

describe('the ceiling servers', () => {
  test('parseCapturedAnswers() reads what the benchmark writes and refuses any other shape', () => {
    assert.deepEqual(parseCapturedAnswers(JSON.stringify([CAPTURED])), [CAPTURED]);
    const bad = [
      {},
      [null],
      [{ ...CAPTURED, status: '200' }],
      [{ ...CAPTURED, rawHeaders: ['Content-Type'] }],
      [{ ...CAPTURED, rawHeaders: ['Content-Length', 61] }],
      [{ ...CAPTURED, body: undefined }],
      [{ method: 'GET', target: '/', status: 200, rawHeaders: [] }],
    ];
    for (const value of bad) assert.throws(() => parseCapturedAnswers(JSON.stringify(value)), /expected a JSON array/, JSON.stringify(value));
  });

  test('rawHeaderOf() finds a header whatever its case, and gives undefined for an absent one', () => {
    assert.equal(rawHeaderOf(CAPTURED.rawHeaders, 'x-request-id'), 'FkgZlx7w_cMJWyAs-rt');
    assert.equal(rawHeaderOf(CAPTURED.rawHeaders, 'location'), undefined);
  });

  test('createCeilingServer(plain) answers the captured status and body with Content-Type and Content-Length only, on a kept connection', async () => {
    await withCeiling('plain', async (origin) => {
      assert.ok(GET_PET !== undefined);
      const answer = await requestAnswer(origin, GET_PET);
      assert.equal(answer.status, 200);
      assert.equal(answer.body, CAPTURED.body);
      assert.deepEqual(answer.rawHeaders, ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', '61']);
      GET_PET.check.verify(answer);
      const text = await twoOnOneConnection(origin, '/v1/pets/42');
      assert.equal(text, `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 61\r\n\r\n${CAPTURED.body}`.repeat(2));
    });
  });

  test('createCeilingServer(same) answers exactly the captured headers, with a new request id on every answer whose counter goes on from the captured one', async () => {
    await withCeiling('same', async (origin) => {
      assert.ok(GET_PET !== undefined);
      const first = await requestAnswer(origin, GET_PET);
      const second = await requestAnswer(origin, GET_PET);
      checkSameHeaders(CAPTURED, first);
      checkSameHeaders(CAPTURED, second);
      GET_PET.check.verify(first);
      // The captured counter is `rt` in base 36: the ceiling's ids go on from it, with their own random prefix.
      assert.match(rawHeaderOf(first.rawHeaders, 'x-request-id') ?? '', /^[A-Za-z0-9_-]{16}-ru$/);
      assert.match(rawHeaderOf(second.rawHeaders, 'x-request-id') ?? '', /^[A-Za-z0-9_-]{16}-rv$/);
      assert.equal(first.body, CAPTURED.body);
    });
  });

  test('createCeilingServer() answers a request it has not captured with 404 and an Error body', async () => {
    await withCeiling('same', async (origin) => {
      const answer = await requestAnswer(origin, { name: 'other', method: 'GET', path: '/v1/pets/43', isAuthenticated: true, expectedStatus: 404, check: { verify: () => undefined, verifyHeaders: () => undefined, optionalHeaders: [] } });
      assert.equal(answer.status, 404);
      assert.deepEqual(JSON.parse(answer.body), { code: 'not_found', message: 'Not a captured request', status: 404 });
    });
  });
});
