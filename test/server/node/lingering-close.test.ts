import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { discardIncoming, isDiscarding, LINGER_BYTES, lingerAndClose } from '../../../server/node/handler.js';
import { API_KEY, parseRawResponses, startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';

/** What a client that uploads without waiting for an answer got. */
interface Upload {
  /** Everything the server sent, as text. */
  received: string;
  /** The error that ended the connection (ECONNRESET when a reset swallowed the answer), if any. */
  errorCode: string | undefined;
}

/** Size of the upload a careless client sends whole while the server has already refused it (bytes). */
const UPLOAD_SIZE = 400 * 1_024;

/** Tries per case: each must read its answer (the reset that lost it came about 1 time in 20). */
const TRIES = 20;

/** Options of upload(). */
interface UploadOptions {
  /**
   * Whether the client reads while it sends (as curl does). Otherwise it reads only once its whole
   * upload is written, as many simple clients do, so an upload cut by a reset loses the answer.
   */
  readsWhileSending: boolean;
}

/** Sends `head` and then `bodySize` bytes without looking at the answer first, and reads until the server closes. */
function upload(port: number, head: string, bodySize: number, options: UploadOptions): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let errorCode: string | undefined;
    if (!options.readsWhileSending) socket.pause();
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (errorCode = error.code));
    socket.on('close', () => resolve({ received, errorCode }));
    socket.on('connect', () => {
      socket.write(head);
      let left = bodySize;
      // A piece per turn of the event loop, as a file streamed from disk goes out.
      const writeMore = (): void => {
        if (left === 0 || socket.destroyed) return;
        const size = Math.min(left, 16_384);
        left -= size;
        const isLast = left === 0;
        const isBelowLimit = socket.write(Buffer.alloc(size, 0x20), isLast ? () => socket.resume() : undefined);
        if (isBelowLimit) setImmediate(writeMore);
        else socket.once('drain', writeMore);
      };
      writeMore();
    });
  });
}

/** The one answer of an upload, with its Error code; fails when a reset swallowed it. */
function answerOf(outcome: Upload): { status: number; code: unknown } {
  const [response, ...others] = parseRawResponses(outcome.received);
  assert.ok(response !== undefined, `no answer (connection ended with ${outcome.errorCode ?? 'a close'})`);
  assert.equal(others.length, 0);
  const body: unknown = JSON.parse(response.body);
  assert.ok(typeof body === 'object' && body !== null);
  return { status: response.status, code: Reflect.get(body, 'code') };
}

/** The server side of every connection the server accepts from now on. */
function serverSockets(server: TestServer): Socket[] {
  const sockets: Socket[] = [];
  server.server.on('connection', (socket: Socket) => sockets.push(socket));
  return sockets;
}

describe('a connection closed after an answer while the client still sends', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyLimit: 1_024 });
  });
  after(() => server.close());

  const cases = [
    {
      name: 'a 413 judged from Content-Length',
      head: `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${UPLOAD_SIZE}\r\n\r\n`,
      answer: { status: 413, code: 'payload_too_large' },
    },
    {
      name: 'a 401 refused on its head',
      head: `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${UPLOAD_SIZE}\r\n\r\n`,
      answer: { status: 401, code: 'unauthorized' },
    },
    {
      name: 'a 401 refused on its head, with a chunked body',
      head: `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${(UPLOAD_SIZE).toString(16)}\r\n`,
      answer: { status: 401, code: 'unauthorized' },
    },
    {
      name: 'a 400 judged from the head',
      head: `POST /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${UPLOAD_SIZE}\r\n\r\n`,
      answer: { status: 400, code: 'bad_request' },
    },
  ];

  for (const { name, head, answer } of cases) {
    test(`${name} is read by a client that uploads ${UPLOAD_SIZE / 1_024} KB before it reads, every time`, async () => {
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const outcome = await upload(server.port, head, UPLOAD_SIZE, { readsWhileSending: false });
        assert.deepEqual(answerOf(outcome), answer, `try ${attempt + 1} of ${TRIES}`);
      }
      assert.deepEqual(await server.store.listPets(), []);
    });
  }

  test('a connection closed after its answer stops reading a client that sends forever once it has discarded LINGER_BYTES', async () => {
    const sockets = serverSockets(server);
    // Ten times the bound: the client would still be sending when the bound cuts it, long before the time bound would.
    const outcome = await upload(server.port, cases[0]?.head ?? '', 10 * LINGER_BYTES, { readsWhileSending: true });
    assert.deepEqual(answerOf(outcome), { status: 413, code: 'payload_too_large' });
    const [socket] = sockets;
    assert.ok(socket !== undefined);
    assert.ok(socket.bytesRead <= LINGER_BYTES + 1_048_576, `the server read ${socket.bytesRead} bytes`);
  });

  test('a connection closed after its answer is closed by the server when the client keeps its side open', async () => {
    const sockets = serverSockets(server);
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    socket.write(`${cases[0]?.head ?? ''}${' '.repeat(10_000)}`);
    await ended;
    assert.equal(parseRawResponses(received)[0]?.status, 413);
    const [serverSocket] = sockets;
    assert.ok(serverSocket !== undefined);
    // The client never ends its side: only the server's bound in time closes the connection.
    if (!serverSocket.destroyed) await new Promise<void>((resolve) => serverSocket.once('close', () => resolve()));
    assert.equal(socket.destroyed, false, 'the client kept its side open');
    socket.destroy();
  });
});

describe('a 408 for a body that stops coming', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ timeouts: { headers: 300, request: 300, connectionsCheckingInterval: 50 } });
  });
  after(() => server.close());

  test('a 408 for a body that stops coming is read by a client that sends the rest after it', async () => {
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    let errorCode: string | undefined;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', (error: NodeJS.ErrnoException) => (errorCode = error.code));
    const firstAnswer = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n{"name":`);
    await firstAnswer;
    // The rest of the body arrives once the server has answered and stopped sending.
    if (!socket.destroyed) socket.write(' '.repeat(49_000));
    await closed;
    assert.equal(errorCode, undefined);
    const [response] = parseRawResponses(received);
    assert.equal(response?.status, 408);
    assert.equal(JSON.parse(response.body).code, 'request_timeout');
    assert.deepEqual(await server.store.listPets(), []);
  });
});

/** A connection without a socket under it: what is pushed into it arrives, what is written goes nowhere. */
function fakeConnection(): Duplex {
  return new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      done();
    },
  });
}

describe('discardIncoming() and lingerAndClose() on any duplex stream', () => {
  test('discardIncoming() drops what arrives, stops reading past LINGER_BYTES before the answer is out, and lingerAndClose() then cuts at once', async () => {
    const connection = fakeConnection();
    const parsed: Buffer[] = [];
    connection.on('data', (chunk: Buffer) => parsed.push(chunk));
    discardIncoming(connection);
    discardIncoming(connection);
    assert.equal(isDiscarding(connection), true);
    connection.push(Buffer.alloc(1_024));
    await new Promise((resume) => setImmediate(resume));
    assert.deepEqual(parsed, [], 'the listener that parsed is gone');
    assert.equal(connection.isPaused(), false);
    connection.push(Buffer.alloc(LINGER_BYTES));
    await new Promise((resume) => setImmediate(resume));
    assert.equal(connection.isPaused(), true, 'reading stops while the answer is not out');
    assert.equal(connection.destroyed, false, 'the answer still goes out');
    lingerAndClose(connection);
    assert.equal(connection.destroyed, true);
  });

  test('lingerAndClose() ends the sending side, reads on, and cuts a connection that passes LINGER_BYTES while it lingers', async () => {
    const connection = fakeConnection();
    lingerAndClose(connection);
    lingerAndClose(connection);
    assert.equal(connection.writableEnded, true);
    assert.equal(connection.destroyed, false);
    connection.push(Buffer.alloc(LINGER_BYTES));
    await new Promise((resume) => setImmediate(resume));
    assert.equal(connection.destroyed, false, 'LINGER_BYTES are read and dropped');
    connection.push(Buffer.alloc(1));
    await new Promise((resume) => setImmediate(resume));
    assert.equal(connection.destroyed, true);
  });
});
