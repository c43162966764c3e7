import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, test } from 'node:test';
import { connectionRefusalCounterOf, createMetrics } from '../../extras/operator/metrics.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import { spawnServer } from '../support/process.js';
import { PROFILE, report } from './settings.js';
import { parseResponses } from './wire.js';

// Issue 28, item 4: connections had no bound. On a 64 MiB old space, 8,000 sockets with unfinished
// 15 KB heads took RSS to 251 MB, 16,000 to 358 MB, 4,000 holding 65,000-byte bodies to 304 MB, all
// beyond the documented "old space + about 100 MiB". The budget bounds the connections open at once
// and the bytes of bodies received at once; the excess is refused at accept, or with a 503.

const AUTH_LINE = `Authorization: Bearer ${API_KEY}\r\n`;

/** Opens a socket and writes `text`; resolves once connected, with a promise of its close and the bytes it received. */
async function openSocket(port: number, text: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => {
    socket.once('connect', resolve);
    socket.once('close', () => resolve());
  });
  if (!socket.destroyed) socket.write(text);
  return { socket, received: () => received, closed };
}

/** Resolves after `ms` milliseconds. */
/** A server whose body budget holds one create of 80 bytes, the refusals it reports, and that create as it goes on the wire. */
async function startOneBodyServer(): Promise<{ server: Awaited<ReturnType<typeof startTestServer>>; refused: string[]; request: string }> {
  const refused: string[] = [];
  const server = await startTestServer({ connections: { maxBodyBytes: 100, onRefused: (reason) => refused.push(reason) } });
  const body = JSON.stringify({ name: 'Rex', categoryId: 1 }).padEnd(80, ' ');
  return { server, refused, request: `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('connection budget', () => {
  test('startServer() with `connections.maxConnections` makes room for a newcomer by closing the oldest connection without a whole request, then the oldest idle one, tells onRefused, and closes the newcomer only when every connection has a request under way', async () => {
    const refused: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await startTestServer({ connections: { maxConnections: 4, onRefused: (reason) => refused.push(reason) }, plugins: [() => ({ extraRoutes: [{ path: '/hold', operation: 'hold', answer: async () => { await held; return { status: 204, headers: [], body: '' }; } }] })] });
    try {
      const idle = await openSocket(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      while (!idle.received().includes('\r\n\r\n')) await pause(10);
      const busy = await openSocket(server.port, `GET /hold HTTP/1.1\r\nHost: x\r\n\r\n`);
      const fresh = await Promise.all([openSocket(server.port, 'G'), openSocket(server.port, 'GET / HTTP/1.1\r\n')]);
      await pause(50);
      // Full: each newcomer closes the oldest connection that has done least.
      const first = await openSocket(server.port, '');
      await fresh[0]?.closed;
      const second = await openSocket(server.port, '');
      await fresh[1]?.closed;
      const third = await openSocket(server.port, '');
      await first.closed;
      const fourth = await openSocket(server.port, '');
      await second.closed;
      assert.equal(idle.socket.destroyed, false, 'the idle connection is older than the newcomers that were never used');
      for (const socket of [third, fourth]) socket.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      while (!fourth.received().includes('\r\n\r\n')) await pause(10);
      assert.match(fourth.received(), /^HTTP\/1\.1 200 /);
      await pause(50);
      // Now the oldest idle connection makes room; with every connection busy, the newcomer is closed.
      const fifth = await openSocket(server.port, '');
      await idle.closed;
      fifth.socket.write(`GET /hold HTTP/1.1\r\nHost: x\r\n\r\n`);
      await pause(50);
      third.socket.write(`GET /hold HTTP/1.1\r\nHost: x\r\n\r\n`);
      fourth.socket.write(`GET /hold HTTP/1.1\r\nHost: x\r\n\r\n`);
      await pause(50);
      const turnedAway = await openSocket(server.port, '');
      await turnedAway.closed;
      assert.equal(busy.socket.destroyed, false);
      assert.deepEqual(refused, Array.from({ length: 6 }, () => 'connections'));
      release();
      while (!busy.received().includes('\r\n\r\n')) await pause(10);
      assert.match(busy.received(), /^HTTP\/1\.1 204 /);
      for (const socket of [busy, third, fourth, fifth]) socket.socket.destroy();
    } finally {
      release();
      await server.close();
    }
  });

  test('startServer() with `connections.maxConnectionsPerAddress` closes at accept a connection from an address that holds its share, while other addresses are served', async () => {
    const refused: string[] = [];
    const server = await startTestServer({ connections: { maxConnectionsPerAddress: 2, onRefused: (reason) => refused.push(reason) } });
    try {
      const held = await Promise.all([openSocket(server.port, ''), openSocket(server.port, '')]);
      const extra = await openSocket(server.port, '');
      await extra.closed;
      assert.deepEqual(refused, ['connections']);
      const other = connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
      let received = '';
      other.on('data', (data: Buffer) => (received += data.toString('latin1')));
      other.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      while (!received.includes('\r\n\r\n')) await pause(10);
      assert.match(received, /^HTTP\/1\.1 200 /);
      other.destroy();
      for (const socket of held) socket.socket.destroy();
      await Promise.all(held.map((socket) => socket.closed));
      await pause(50);
      const again = await openSocket(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      while (!again.received().includes('\r\n\r\n')) await pause(10);
      assert.match(again.received(), /^HTTP\/1\.1 200 /);
      again.socket.destroy();
    } finally {
      await server.close();
    }
  });

  test('the CLI with --connections-per-address 2 closes a third connection from one address at accept, and refuses a share that is not a count', async () => {
    const server = spawnServer({ PETSTORE_API_KEYS: API_KEY, PETSTORE_LOG_LEVEL: 'error' }, ['--connections-per-address', '2']);
    try {
      await server.ready;
      const port = Number(new URL(server.url).port);
      const held = await Promise.all([openSocket(port, ''), openSocket(port, '')]);
      const extra = await openSocket(port, '');
      await extra.closed;
      assert.equal(extra.received(), '');
      for (const socket of held) socket.socket.destroy();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const refused = spawnServer({ PETSTORE_API_KEYS: API_KEY, PETSTORE_CONNECTIONS_PER_ADDRESS: 'none' });
    refused.ready.catch(() => undefined);
    assert.equal(await refused.exited, 2);
    assert.match(refused.stderr(), /PETSTORE_CONNECTIONS_PER_ADDRESS/);
  });

  test('startServer() refuses a connection budget that is not a positive integer', async () => {
    for (const connections of [{ maxConnections: 0 }, { maxBodyBytes: 1.5 }, { maxConnectionsPerAddress: -1 }]) {
      await assert.rejects(startTestServer({ connections }), /must be a positive integer/);
    }
  });

  test('startServer() with `connections.maxBodyBytes` answers a request whose body would pass it 503 with Retry-After and closes its connection, and takes bodies again once one is done', async () => {
    const refused: string[] = [];
    const server = await startTestServer({ connections: { maxBodyBytes: 100, onRefused: (reason) => refused.push(reason) } });
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 }).padEnd(80, ' ');
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    try {
      const slow = await openSocket(server.port, `${head}${body.slice(0, 10)}`);
      await pause(50);
      const second = await openSocket(server.port, `${head}${body}`);
      await second.closed;
      const [answer] = parseResponses(Buffer.from(second.received(), 'latin1'), ['POST']).responses;
      assert.ok(answer !== undefined, second.received());
      assert.equal(answer.status, 503);
      assert.equal(answer.headers['retry-after'], '1');
      assert.equal(answer.headers['connection'], 'close');
      assert.equal((JSON.parse(answer.body.toString('utf8')) as { code: string }).code, 'unavailable');
      assert.deepEqual(refused, ['bodies']);
      slow.socket.write(body.slice(10));
      while (!slow.received().includes('\r\n\r\n')) await pause(10);
      assert.match(slow.received(), /^HTTP\/1\.1 201 /);
      const third = await openSocket(server.port, `${head}${body}`);
      while (!third.received().includes('\r\n\r\n')) await pause(10);
      assert.match(third.received(), /^HTTP\/1\.1 201 /);
      slow.socket.destroy();
      third.socket.destroy();
    } finally {
      await server.close();
    }
  });

  test('startServer() with `connections.maxBodyBytes` counts a body only until its answer is out: many creates one after another, on one connection and on new ones, all pass a budget of one body', async () => {
    const { server, refused, request } = await startOneBodyServer();
    try {
      const kept = await openSocket(server.port, request);
      let isClosed = false;
      void kept.closed.then(() => (isClosed = true));
      for (let sent = 1; sent <= 20 && !isClosed; sent++) {
        if (sent > 1) kept.socket.write(request);
        while ((kept.received().match(/HTTP\/1\.1 /g) ?? []).length < sent && !isClosed) await pause(5);
      }
      assert.equal((kept.received().match(/HTTP\/1\.1 201 /g) ?? []).length, 20, kept.received().slice(-400));
      kept.socket.destroy();
      for (let index = 0; index < 20; index++) {
        const fresh = await openSocket(server.port, request);
        while (!fresh.received().includes('\r\n\r\n')) await pause(5);
        assert.match(fresh.received(), /^HTTP\/1\.1 201 /);
        fresh.socket.destroy();
        await fresh.closed;
      }
      assert.deepEqual(refused, []);
    } finally {
      await server.close();
    }
  });

  test('startServer() with `connections.maxBodyBytes` counts a pipelined body only until its answer is out: three creates in one write, under a budget of one body, are all created', async () => {
    const { server, refused, request } = await startOneBodyServer();
    try {
      const pipelined = await openSocket(server.port, request.repeat(3));
      let isClosed = false;
      void pipelined.closed.then(() => (isClosed = true));
      while ((pipelined.received().match(/HTTP\/1\.1 /g) ?? []).length < 3 && !isClosed) await pause(5);
      assert.equal((pipelined.received().match(/HTTP\/1\.1 201 /g) ?? []).length, 3, pipelined.received().slice(-400));
      assert.deepEqual(refused, []);
      pipelined.socket.destroy();
    } finally {
      await server.close();
    }
  });

  test('connectionRefusalCounterOf() counts refusals by reason in petstore_connections_refused_total, both series from 0', () => {
    const metrics = createMetrics();
    const count = connectionRefusalCounterOf(metrics);
    assert.match(metrics.render(), /petstore_connections_refused_total\{reason="bodies"\} 0/);
    count('connections');
    count('connections');
    assert.match(metrics.render(), /petstore_connections_refused_total\{reason="connections"\} 2/);
  });
});

/** The attacks of the issue at their real sizes: how many sockets, what each sends. */
const ATTACKS: readonly { name: string; sockets: number; text: () => string }[] = [
  { name: 'unfinished 15 KB heads', sockets: 8_000, text: () => `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(15_000)}` },
  ...(PROFILE.name === 'long' ? [
    { name: 'unfinished 15 KB heads', sockets: 16_000, text: () => `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(15_000)}` },
    { name: 'idle sockets', sockets: 8_000, text: () => '' },
    {
      name: 'keyed 65,000-byte bodies held',
      sockets: 4_000,
      text: () => `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nIdempotency-Key: ${Math.random().toString(36).slice(2)}\r\nContent-Length: 65001\r\n\r\n${' '.repeat(65_000)}`,
    },
  ] : []),
];

/** Resident memory of a process, in bytes, from /proc. */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  assert.ok(match?.[1] !== undefined, 'this system has /proc');
  return Number(match[1]) * 1024;
}

const OLD_SPACE_MIB = 64;
/** What the sizing rule leaves a server: its old space and about 100 MiB for the rest of the process. */
const RSS_BOUND = (OLD_SPACE_MIB + 100) * 1_048_576;

describe('connection budget at the issue\'s sizes', () => {
  for (const attack of ATTACKS) {
    test(`the server on a ${OLD_SPACE_MIB} MiB old space keeps its RSS within the old space and 100 MiB under ${attack.sockets.toLocaleString('en-US')} ${attack.name}, and answers reads after`, async () => {
      const server = spawnServer({ PETSTORE_API_KEYS: API_KEY, NODE_OPTIONS: `--max-old-space-size=${OLD_SPACE_MIB}`, PETSTORE_LOG_LEVEL: 'error' });
      await server.ready;
      const pid = server.child.pid;
      assert.ok(pid !== undefined);
      const port = Number(new URL(server.url).port);
      const sockets: Socket[] = [];
      try {
        const before = await residentBytes(pid);
        for (let start = 0; start < attack.sockets; start += 500) {
          const batch = await Promise.all(Array.from({ length: Math.min(500, attack.sockets - start) }, () => openSocket(port, attack.text())));
          for (const opened of batch) sockets.push(opened.socket);
        }
        // Let the server read what was sent (the heads and bodies are in flight, none finished).
        await pause(1_000);
        const during = await residentBytes(pid);
        for (const socket of sockets) socket.destroy();
        const open = sockets.filter((socket) => !socket.destroyed).length;
        report({ part: `connections: ${attack.sockets.toLocaleString('en-US')} ${attack.name}, ${OLD_SPACE_MIB} MiB`, cases: attack.sockets, failures: during > RSS_BOUND ? 1 : 0, rssStartMb: Math.round(before / 1e6), rssEndMb: Math.round(during / 1e6), note: `${open} still open after destroy` });
        assert.ok(during <= RSS_BOUND, `RSS ${Math.round(during / 1e6)} MB, more than ${Math.round(RSS_BOUND / 1e6)} MB`);
        await pause(200);
        const reply = await openSocket(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Connection: close\r\n\r\n`);
        await reply.closed;
        assert.match(reply.received(), /^HTTP\/1\.1 200 /);
      } finally {
        for (const socket of sockets) socket.destroy();
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });
  }
});
