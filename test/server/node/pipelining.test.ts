import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, test } from 'node:test';
import { MAX_PIPELINED_REQUESTS, MAX_WAITING_REQUESTS } from '../../../server/node/standalone/pipelining.js';
import { MAX_HEADER_LINES } from '../../../server/node/standalone/start-server.js';
import { startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';
import { parseResponses } from '../../robustness/wire.js';

/** A server with `/hold`, answered once `release()` is called, and `/count`, which counts the times it ran. */
async function startHoldingServer(): Promise<{ server: TestServer; release: () => void; counted: () => number }> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  const server = await startTestServer({
    plugins: [() => ({
      rootRoutes: [
        { path: '/hold', operation: 'hold', answer: async () => { await held; return { status: 204, headers: [], body: '' }; } },
        { path: '/count', operation: 'count', answer: () => { count++; return { status: 204, headers: [], body: '' }; } },
      ],
    })],
  });
  return { server, release, counted: () => count };
}

/** A connection that sends `text` and collects what comes back. */
function open(port: number, text: string): { socket: Socket; received: () => Buffer; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (data: Buffer) => chunks.push(data));
  socket.on('error', () => undefined);
  socket.write(text);
  return { socket, received: () => Buffer.concat(chunks), closed: new Promise((resolve) => socket.once('close', () => resolve())) };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const GET = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

/** Waits until `count` answers arrived on a connection, and returns their statuses. */
async function statuses(connection: { received: () => Buffer }, count: number): Promise<number[]> {
  for (;;) {
    const { responses } = parseResponses(connection.received(), Array.from({ length: count }, () => 'GET'));
    if (responses.length >= count) return responses.map((response) => response.status);
    await pause(10);
  }
}

describe('pipelining in the standalone server', () => {
  test('startServer() runs a request pipelined behind an unanswered one only when its turn to be answered comes, so a connection holds one answer at a time', async () => {
    const { server, release, counted } = await startHoldingServer();
    try {
      const connection = open(server.port, GET('/hold') + GET('/count') + GET('/count'));
      await pause(100);
      assert.equal(counted(), 0, 'the requests behind /hold have not run');
      release();
      assert.deepEqual(await statuses(connection, 3), [204, 204, 204]);
      assert.equal(counted(), 2);
      connection.socket.destroy();
    } finally {
      await server.close();
    }
  });

  test(`startServer() cuts a connection whose pipelined request would pass ${MAX_WAITING_REQUESTS} waiting over all connections, answers the rest in full, and takes pipelines again once they are answered`, async () => {
    const { server, release } = await startHoldingServer();
    const depth = MAX_PIPELINED_REQUESTS;
    const count = Math.ceil(MAX_WAITING_REQUESTS / depth) + 4;
    try {
      const connections: ReturnType<typeof open>[] = [];
      for (let index = 0; index < count; index++) {
        connections.push(open(server.port, GET('/hold') + GET('/count').repeat(depth)));
        await pause(2);
      }
      await pause(200);
      const cut = connections.filter((connection) => connection.socket.destroyed || connection.socket.readableEnded);
      assert.ok(cut.length >= 4, `${cut.length} connections cut`);
      release();
      const kept = connections.filter((connection) => !cut.includes(connection));
      for (const connection of kept) assert.deepEqual(await statuses(connection, depth + 1), Array.from({ length: depth + 1 }, () => 204));
      for (let round = 0; round < 3; round++) {
        const again = open(server.port, GET('/count').repeat(depth + 1));
        assert.deepEqual(await statuses(again, depth + 1), Array.from({ length: depth + 1 }, () => 204));
        again.socket.destroy();
      }
      for (const connection of connections) connection.socket.destroy();
    } finally {
      release();
      await server.close();
    }
  });

  test(`startServer() answers a request of more than ${MAX_HEADER_LINES} header lines 431 with the Error body, and one of ${MAX_HEADER_LINES} as usual`, async () => {
    const { server } = await startHoldingServer();
    try {
      for (const [lines, status] of [[MAX_HEADER_LINES - 1, 204], [MAX_HEADER_LINES, 431], [1_400, 431]] as const) {
        const connection = open(server.port, `GET /count HTTP/1.1\r\nHost: x\r\n${'X-Line: a\r\n'.repeat(lines)}\r\n`);
        const { responses } = await (async () => {
          for (;;) {
            const parsed = parseResponses(connection.received(), ['GET']);
            if (parsed.responses.length > 0) return parsed;
            await pause(10);
          }
        })();
        assert.equal(responses[0]?.status, status, `${lines + 1} lines`);
        // 1,400 lines of 11 bytes: Node 22 and later count a head's size so that their own 16 KiB limit may refuse it first, in its own words.
        const words = lines === MAX_HEADER_LINES ? [`The request has more than ${MAX_HEADER_LINES} header lines`] : [`The request has more than ${MAX_HEADER_LINES} header lines`, 'The request headers are too large'];
        if (status === 431) {
          const body = JSON.parse(responses[0]?.body.toString('utf8') ?? '') as { code: string; message: string; status: number };
          assert.deepEqual({ code: body.code, status: body.status }, { code: 'headers_too_large', status: 431 });
          assert.ok(words.includes(body.message), body.message);
        }
        connection.socket.destroy();
      }
    } finally {
      await server.close();
    }
  });
});
