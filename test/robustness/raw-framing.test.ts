import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MAX_PIPELINED_REQUESTS } from '../../server/node/standalone/pipelining.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { codeOf, exchangeProblems, responseProblems } from './checks.js';
import { report } from './settings.js';
import { Random } from './prng.js';
import { exchange } from './wire.js';
import type { Delivery, WireExchange, WireResponse } from './wire.js';

// Framing cases beyond test/server/protocol.test.ts, each with a create smuggled behind it where
// that makes sense: whatever the server does with the bad request, the smuggled one must never run.

const AUTH_LINE = `Authorization: Bearer ${API_KEY}\r\n`;
const JSON_LINE = 'Content-Type: application/json\r\n';
const HEAD = `Host: x\r\n${AUTH_LINE}${JSON_LINE}`;

function create(name: string, extra = ''): string {
  const body = JSON.stringify({ name, categoryId: 1 });
  return `POST /v1/pets HTTP/1.1\r\n${HEAD}${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A chunked body made of these pieces, one chunk each, with the last chunk. */
function chunked(pieces: readonly string[]): string {
  return `${pieces.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`).join('')}0\r\n\r\n`;
}

const SMUGGLED = create('Smuggled');
const LIST = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`;

function connections(server: TestServer): Promise<number> {
  return new Promise((resolve, reject) => server.server.getConnections((error, count) => (error === null ? resolve(count) : reject(error))));
}

/** Waits until the server holds no more than `count` connections; fails after `limitMs`. */
async function settleConnections(server: TestServer, count: number, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while ((await connections(server)) > count) {
    if (Date.now() - started > limitMs) assert.fail(`the server still holds ${await connections(server)} connections, expected ${count}`);
    await new Promise((resume) => setTimeout(resume, 20));
  }
}

function only(outcome: WireExchange): { status: number; code: string | undefined } {
  const [response] = outcome.responses;
  assert.ok(response !== undefined, `no answer: ${outcome.leftover}`);
  assert.deepEqual(responseProblems(response, 'POST'), []);
  return { status: response.status, code: codeOf(response) };
}

describe('raw-socket framing and hostile clients', () => {
  let server: TestServer;
  let cases = 0;
  before(async () => {
    server = await startTestServer({ bodyLimit: 1_024, timeouts: { headers: 1_000, request: 2_000, connectionsCheckingInterval: 100 } });
  });
  after(async () => {
    report({ part: 'raw-socket cases', cases, failures: 0 });
    await server.close();
  });

  async function assertNothingSmuggled(): Promise<void> {
    const names = (await server.store.listPets({ limit: 100 })).map((pet) => pet.name);
    assert.ok(!names.includes('Smuggled'), `a smuggled request ran: ${names.join(', ')}`);
  }

  test('Content-Length repeated with equal values or as a list is a 400 bad_request, and nothing behind it runs', async () => {
    for (const lengths of ['Content-Length: 29\r\nContent-Length: 29\r\n', 'Content-Length: 29, 29\r\n', 'Content-Length: 29\r\ncontent-length: 29\r\n']) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(`POST /v1/pets HTTP/1.1\r\n${HEAD}${lengths}\r\n{"name":"Dup","categoryId":1}${SMUGGLED}`), { methods: ['POST', 'POST'] });
      assert.deepEqual(only(outcome), { status: 400, code: 'bad_request' }, lengths);
    }
    await assertNothingSmuggled();
  });

  test('Content-Length together with Transfer-Encoding, in any order or spelling, is a 400 bad_request, and nothing behind it runs', async () => {
    const framings = [
      'Transfer-Encoding: chunked\r\nContent-Length: 5\r\n',
      'Content-Length: 0\r\nTransfer-Encoding: chunked\r\n',
      'Content-Length: 5\r\nTransfer-Encoding: CHUNKED\r\n',
      'Content-Length: 5\r\nTransfer-Encoding: identity, chunked\r\n',
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n',
    ];
    for (const framing of framings) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(`POST /v1/pets HTTP/1.1\r\n${HEAD}${framing}\r\n0\r\n\r\n${SMUGGLED}`), { methods: ['POST', 'POST'] });
      assert.deepEqual(only(outcome), { status: 400, code: 'bad_request' }, framing);
    }
    await assertNothingSmuggled();
  });

  test('a transfer coding other than chunked is a 400 bad_request, and nothing behind it runs', async () => {
    for (const coding of ['identity', 'chunked, gzip', 'xchunked', 'chunked;q=1', 'chunked ,']) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(`POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: ${coding}\r\n\r\n1d\r\n{"name":"TE","categoryId":1}\r\n0\r\n\r\n${SMUGGLED}`), { methods: ['POST', 'POST'] });
      assert.equal(only(outcome).status, 400, coding);
    }
    await assertNothingSmuggled();
  });

  test('bad chunk framing is a 400 bad_request Error body, and nothing behind it runs', async () => {
    const bodies = [
      'fffffffffffffffffffff\r\n',
      '-1\r\nx\r\n0\r\n\r\n',
      '1d x\r\n{"name":"Chunk","categoryId":1}\r\n0\r\n\r\n',
      '1d\r\n{"name":"Chunk","categoryId":1}XX0\r\n\r\n',
      '2\r\n{"name":"Chunk","categoryId":1}\r\n0\r\n\r\n',
      '1d\n{"name":"Chunk","categoryId":1}\n0\n\n',
      '1d\r\n{"name":"Chunk","categoryId":1}\r\n0\r\nbad trailer\r\n\r\n',
      '0x1d\r\n{"name":"Chunk","categoryId":1}\r\n0\r\n\r\n',
      ' 1d\r\n{"name":"Chunk","categoryId":1}\r\n0\r\n\r\n',
    ];
    for (const body of bodies) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(`POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n${body}${SMUGGLED}`), { methods: ['POST', 'POST'] });
      assert.deepEqual(only(outcome), { status: 400, code: 'bad_request' }, JSON.stringify(body));
    }
    await assertNothingSmuggled();
    assert.deepEqual(await server.store.listPets(), [], 'no chunk-framing case created anything');
  });

  test('oversize chunk extensions are a 413 payload_too_large Error body', async () => {
    cases++;
    const outcome = await exchange(server.port, Buffer.from(`POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n1;${'x'.repeat(20_000)}\r\n{\r\n0\r\n\r\n`), { methods: ['POST'] });
    assert.deepEqual(only(outcome), { status: 413, code: 'payload_too_large' });
  });

  test('bare CR and mixed line endings are rejected with a 400 bad_request Error body', async () => {
    for (const request of [`GET /v1/pets HTTP/1.1\rHost: x\r\n${AUTH_LINE}\r\n`, `GET /v1/pets HTTP/1.1\r\nHost: x\n${AUTH_LINE}\r\n`, `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\n`]) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(request + SMUGGLED), { methods: ['GET', 'POST'] });
      assert.deepEqual(only(outcome), { status: 400, code: 'bad_request' }, JSON.stringify(request));
    }
    await assertNothingSmuggled();
  });

  test('oversize heads are a 431 headers_too_large Error body: many small headers, a long target, and one arriving in small pieces', async () => {
    const manyHeaders = Array.from({ length: 1_900 }, (_, index) => `X-Header-${index}: some value\r\n`).join('');
    const requests: { bytes: string; delivery: Delivery }[] = [
      { bytes: `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${manyHeaders}\r\n`, delivery: 'whole' },
      { bytes: `GET /v1/pets?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, delivery: 'whole' },
      // In small pieces rather than one byte per write: 17k writes would outlast the headers timeout.
      { bytes: `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`, delivery: { pieces: new Random(7) } },
    ];
    for (const { bytes, delivery } of requests) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(bytes), { methods: ['GET'], delivery });
      assert.deepEqual(only(outcome), { status: 431, code: 'headers_too_large' });
    }
  });

  test('pipelined requests with well-framed errors between them are all answered, in order, on one connection', async () => {
    const requests = [
      [LIST, 'GET', 200],
      [create('Pipelined A'), 'POST', 201],
      [`GET /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n`, 'GET', 401],
      [`POST /v1/pets HTTP/1.1\r\n${HEAD}Content-Length: 5\r\n\r\n{"nam`, 'POST', 400],
      [`POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello`, 'POST', 415],
      [`DELETE /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`, 'DELETE', 405],
      [`GET /v1/nothing HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`, 'GET', 404],
      [`HEAD /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`, 'HEAD', 200],
      [`POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n${chunked(['{"nam', 'e":"Pipelined B","categor', 'yId":1}'])}`, 'POST', 201],
      [`GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`, 'GET', 200],
    ] as const;
    // As many rounds of ten as the server's limit of requests waiting on one connection holds.
    const rounds = Math.max(1, Math.floor((MAX_PIPELINED_REQUESTS + 1) / requests.length));
    const bytes = Buffer.from(requests.map(([text]) => text).join('').repeat(rounds));
    const methods = Array.from({ length: rounds }, () => requests.map(([, method]) => method)).flat();
    const expected = Array.from({ length: rounds }, () => requests.map(([, , status]) => status)).flat();
    for (const delivery of ['whole', 'bytewise'] as const) {
      cases++;
      const outcome = await exchange(server.port, bytes, { methods, delivery, timeoutMs: 20_000 });
      assert.deepEqual(exchangeProblems(outcome, 'GET'), []);
      assert.deepEqual(outcome.responses.map((response) => response.status), expected, delivery);
      for (const [index, response] of outcome.responses.entries()) assert.deepEqual(responseProblems(response, methods[index] as string), []);
    }
  });

  test(`a connection pipelining more than ${MAX_PIPELINED_REQUESTS} waiting requests gets those answered, then a 400 with Connection: close, and nothing behind it runs`, async () => {
    // GETs: Node itself reads a pipelined request with a body only once the one before it is answered.
    cases++;
    const count = 200;
    const bytes = Buffer.from(LIST.repeat(count) + SMUGGLED);
    const outcome = await exchange(server.port, bytes, { methods: [...Array.from({ length: count }, () => 'GET'), 'POST'] });
    assert.equal(outcome.isResetEarly, false);
    const statuses = outcome.responses.map((response) => response.status);
    assert.deepEqual(statuses, [...Array.from({ length: MAX_PIPELINED_REQUESTS + 1 }, () => 200), 400]);
    const refusal = outcome.responses.at(-1) as WireResponse;
    assert.equal(refusal.headers['connection'], 'close');
    assert.deepEqual(responseProblems(refusal, 'GET'), []);
    assert.match(refusal.body.toString('utf8'), /Too many pipelined requests/);
    await assertNothingSmuggled();
  });

  test('a connection that keeps pipelining after being told to close is cut off, and nothing behind it runs', async () => {
    cases++;
    const baseline = await connections(server);
    const outcome = await exchange(server.port, Buffer.from(LIST.repeat(3_000) + SMUGGLED), { methods: Array.from({ length: 3_001 }, () => 'GET') });
    assert.ok(outcome.isClosedByServer, 'the server ended the connection');
    assert.ok(outcome.responses.length <= MAX_PIPELINED_REQUESTS + 2, `${outcome.responses.length} answers`);
    await settleConnections(server, baseline);
    await assertNothingSmuggled();
  });

  test('a request pipelined behind one that closes the connection never runs', async () => {
    const leaders = [
      { name: 'a 413 judged from Content-Length', text: `POST /v1/pets HTTP/1.1\r\n${HEAD}Content-Length: 2000\r\n\r\n${' '.repeat(2_000)}`, status: 413 },
      { name: 'a 413 judged by counting chunks', text: `POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n7d0\r\n${' '.repeat(2_000)}\r\n0\r\n\r\n`, status: 413 },
      { name: 'a request with Connection: close', text: `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Connection: close\r\n\r\n`, status: undefined },
      { name: 'an HTTP/1.0 request', text: `GET /v1/pets HTTP/1.0\r\n${AUTH_LINE}\r\n`, status: undefined },
    ];
    for (const leader of leaders) {
      for (const delivery of ['whole', 'bytewise'] as const) {
        cases++;
        const outcome = await exchange(server.port, Buffer.from(leader.text + SMUGGLED), { methods: ['POST', 'POST'], delivery });
        assert.equal(outcome.isResetEarly, false, leader.name);
        if (leader.status !== undefined) assert.equal(outcome.responses[0]?.status, leader.status, leader.name);
        assert.ok(outcome.responses.length <= 1, `${leader.name}: ${outcome.responses.length} answers`);
        await new Promise((resume) => setTimeout(resume, 20));
        await assertNothingSmuggled();
      }
    }
  });

  test('CONNECT is answered with a 400 bad_request Error body, not a dropped connection', async () => {
    for (const request of ['CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', `CONNECT /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`]) {
      cases++;
      const outcome = await exchange(server.port, Buffer.from(request + SMUGGLED), { methods: ['CONNECT', 'POST'] });
      assert.deepEqual(only(outcome), { status: 400, code: 'bad_request' });
      assert.equal(outcome.responses[0]?.headers['connection'], 'close');
      assert.equal(outcome.isResetEarly, false);
    }
    await assertNothingSmuggled();
  });

  test('clients that send half a body and vanish create nothing, and their connections are released', async () => {
    const baseline = await connections(server);
    const before = (await server.store.listPets({ limit: 100 })).length;
    const halves = [
      { text: create('Half by length'), cut: 0.6 },
      { text: `POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n1d\r\n{"name":"Half chunked","categoryId":1}\r\n`, cut: 1 },
      { text: `POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n1d\r\n{"name":"Half chunk","categ`, cut: 1 },
    ];
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, index) => {
      const half = halves[index % halves.length] as (typeof halves)[number];
      const bytes = Buffer.from(half.text);
      return exchange(server.port, bytes, { methods: ['POST'], vanishAfter: Math.floor(bytes.length * half.cut) - (half.cut === 1 ? 0 : 1) });
    }));
    cases += outcomes.length;
    await settleConnections(server, baseline);
    assert.equal((await server.store.listPets({ limit: 100 })).length, before, 'a vanished client created a pet');
  });

  test('clients that send half a body and then close their side get no pet and at most an Error body', async () => {
    const before = (await server.store.listPets({ limit: 100 })).length;
    for (const text of [create('Half closed').slice(0, -5), `POST /v1/pets HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n1d\r\n{"name":"Half closed","categoryId":1}\r\n`]) {
      cases++;
      const received = await new Promise<string>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.end(text));
        let answer = '';
        socket.on('data', (data: Buffer) => { answer += data.toString('latin1'); });
        socket.on('error', () => resolve(`${answer}<reset>`));
        socket.on('close', () => resolve(answer));
      });
      assert.ok(received === '' || /^HTTP\/1\.1 4\d\d /.test(received), received);
    }
    assert.equal((await server.store.listPets({ limit: 100 })).length, before);
  });
});
