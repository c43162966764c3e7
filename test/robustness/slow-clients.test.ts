import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { responseProblems } from './checks.js';
import { percentile, PROFILE, report } from './settings.js';
import { parseResponses } from './wire.js';

/** Short timeouts for the bounded run, so a few seconds show every cut-off; the long run keeps the production values. */
const SHORT_TIMEOUTS = { headers: 1_000, request: 2_000, keepAlive: 500, socket: 2_000, connectionsCheckingInterval: 100 };

/** How often a trickling client sends its next byte (ms): often enough that no idle timeout catches it. */
const TRICKLE_INTERVAL = PROFILE.isProductionTimeouts ? 1_000 : 100;

/** After this long (ms) every hostile socket must have been cut off: the slowest cut is the request or socket timeout. */
const CUT_OFF_LIMIT = PROFILE.isProductionTimeouts ? 45_000 : 8_000;

const AUTH_LINE = `Authorization: Bearer ${API_KEY}\r\n`;

type HostileKind = 'trickling headers' | 'trickling body' | 'trickling chunks' | 'idle' | 'idle after a response' | 'not reading';
const KINDS: readonly HostileKind[] = ['trickling headers', 'trickling body', 'trickling chunks', 'idle', 'idle after a response', 'not reading'];

/** One hostile connection and what the server did to it. */
interface Hostile {
  kind: HostileKind;
  socket: Socket;
  received: Buffer[];
  closed: Promise<void>;
  isClosedByServer: boolean;
}

/** Opens one hostile connection of the given kind; it keeps misbehaving until the server cuts it off. */
function openHostile(port: number, kind: HostileKind): Hostile {
  const socket = connect(port, '127.0.0.1');
  const hostile: Hostile = { kind, socket, received: [], closed: Promise.resolve(), isClosedByServer: false };
  let timer: NodeJS.Timeout | undefined;
  const trickle = (bytes: string): void => {
    let index = 0;
    timer = setInterval(() => {
      if (socket.destroyed || !socket.writable) return clearInterval(timer);
      socket.write(bytes[index % bytes.length] as string);
      index++;
    }, TRICKLE_INTERVAL);
  };
  hostile.closed = new Promise((resolve) => {
    socket.on('end', () => { hostile.isClosedByServer = true; });
    socket.on('error', () => { hostile.isClosedByServer = true; });
    socket.on('close', () => {
      clearInterval(timer);
      resolve();
    });
  });
  if (kind !== 'not reading') socket.on('data', (data: Buffer) => hostile.received.push(data));
  socket.on('connect', () => {
    switch (kind) {
      case 'trickling headers':
        socket.write('GET /v1/pets HTTP/1.1\r\n');
        return trickle('X-Slow: abcdefghijklmnopqrstuvwxyz\r\n');
      case 'trickling body':
        socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
        return trickle(' ');
      case 'trickling chunks':
        socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        return trickle('1\r\n \r\n');
      case 'idle':
        return;
      case 'idle after a response':
        socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`);
        return;
      case 'not reading':
        // Pipelined requests for large pages while never reading a byte of the answers.
        socket.pause();
        // About 12 MB of answers: more than the loopback buffers hold, so the server's writes stall.
        socket.write(`GET /v1/pets?limit=100 HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`.repeat(2_000));
        return;
    }
  });
  return hostile;
}

/** One request from a well-behaved client over a new connection; resolves with its status and latency. */
function honestRequest(port: number, index: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const isCreate = index % 4 === 0;
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name: `Honest ${index}`, categoryId: 1 });
    const request = httpRequest({ host: '127.0.0.1', port, method: isCreate ? 'POST' : 'GET', path: isCreate ? '/v1/pets' : '/v1/pets?limit=5', agent: false, headers: { authorization: `Bearer ${API_KEY}`, ...(isCreate ? { 'content-type': 'application/json' } : {}) } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(isCreate ? body : undefined);
  });
}

function connections(server: TestServer): Promise<number> {
  return new Promise((resolve, reject) => server.server.getConnections((error, count) => (error === null ? resolve(count) : reject(error))));
}

describe('slow and idle clients', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(PROFILE.isProductionTimeouts ? {} : { timeouts: SHORT_TIMEOUTS });
    for (let index = 0; index < 100; index++) await server.store.createPet({ name: `Large page ${index}`, categoryId: index });
  });
  after(() => server.close());

  test(`the server cuts off ${PROFILE.slowSockets} trickling, idle and non-reading sockets by its timeouts while an honest client keeps being answered, and returns to its baseline of open connections`, async () => {
    const baseline = await connections(server);
    const started = Date.now();
    const hostiles = Array.from({ length: PROFILE.slowSockets }, (_, index) => openHostile(server.port, KINDS[index % KINDS.length] as HostileKind));
    // A client that reads nothing never sees the server's close either, so those are judged by the
    // server's own count of connections once everything else is over.
    const talkers = hostiles.filter((hostile) => hostile.kind !== 'not reading');
    let isAttackOver = false;
    const allClosed = Promise.all(talkers.map((hostile) => hostile.closed)).then(() => { isAttackOver = true; });
    const limit = new Promise<void>((resolve) => setTimeout(resolve, CUT_OFF_LIMIT).unref());

    const latencies: number[] = [];
    const honestFailures: string[] = [];
    const honest = (async () => {
      for (let index = 0; !isAttackOver && Date.now() - started < CUT_OFF_LIMIT; index++) {
        try {
          const { status, ms } = await honestRequest(server.port, index);
          if (status !== 200 && status !== 201) honestFailures.push(`status ${status}`);
          latencies.push(ms);
        } catch (error) {
          honestFailures.push(String(error));
        }
      }
    })();
    await Promise.race([allClosed, limit]);
    await honest;
    while ((await connections(server)) > baseline && Date.now() - started < CUT_OFF_LIMIT) await new Promise((resume) => setTimeout(resume, 20));
    const held = (await connections(server)) - baseline;
    const open = talkers.filter((hostile) => !hostile.socket.destroyed);
    for (const hostile of hostiles) hostile.socket.destroy();

    const p99 = percentile(latencies, 99);
    const notCutByServer = talkers.filter((hostile) => !hostile.isClosedByServer);
    const answerProblems: string[] = [];
    for (const hostile of hostiles) {
      if (hostile.kind !== 'trickling headers' && hostile.kind !== 'trickling body' && hostile.kind !== 'trickling chunks') continue;
      const [response] = parseResponses(Buffer.concat(hostile.received), ['GET']).responses;
      if (response === undefined) answerProblems.push(`${hostile.kind}: cut off without the 408 Error body`);
      else if (response.status !== 408) answerProblems.push(`${hostile.kind}: answered ${response.status}`);
      else answerProblems.push(...responseProblems(response, 'GET'));
    }
    report({
      part: `slow clients (${PROFILE.isProductionTimeouts ? 'production' : 'short'} timeouts)`,
      cases: hostiles.length,
      failures: held + open.length + notCutByServer.length + answerProblems.length + honestFailures.length,
      p99Ms: Math.round(p99 * 10) / 10,
      note: `${latencies.length} honest requests, all cut after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    });
    assert.equal(held, 0, 'the server holds no hostile connection (the non-reading ones included) after the limit');
    assert.deepEqual(open.map((hostile) => hostile.kind), [], 'every hostile socket was cut off within the limit');
    assert.deepEqual(notCutByServer.map((hostile) => hostile.kind), [], 'the server, not the client, ended every hostile connection');
    assert.deepEqual(answerProblems.slice(0, 5), [], `${answerProblems.length} trickling clients lacked the 408 Error body`);
    assert.deepEqual(honestFailures.slice(0, 5), [], 'the honest client was always answered');
    assert.ok(latencies.length > 0, 'the honest client got answers during the attack');
  });
});
