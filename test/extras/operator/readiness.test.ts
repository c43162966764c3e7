import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore, PetstoreError } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { createHandler } from '../../../server/node/index.js';
import type { LogEntry } from '../../../server/node/index.js';
import { assertError, call, startTestServer } from '../../support/standalone-http.js';

/** A memory storage whose readiness is whatever `checkReady` is set to. */
function storageReadyAs(checkReady: () => Promise<void>): PetStorage {
  return { ...createMemoryStorage(), checkReady };
}

describe('/readyz', () => {
  test('/readyz answers 200 {"status":"ready"} without a key when the storage is ready, and HEAD without a body', async () => {
    let checks = 0;
    const server = await startTestServer({ store: createPetstore({ storage: storageReadyAs(async () => void checks++) }) });
    try {
      const reply = await call(server, 'GET', '/readyz');
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(reply.json, { status: 'ready' });
      const head = await call(server, 'HEAD', '/readyz');
      assert.deepEqual([head.status, head.text, head.headers['content-length']], [200, '', reply.headers['content-length']]);
      assert.equal(checks, 2, 'the storage is asked every time, never a cached answer');
      assertError(await call(server, 'POST', '/readyz'), 405, 'method_not_allowed');
    } finally {
      await server.close();
    }
  });

  test('/readyz answers 503 unavailable with the storage\'s reason while it is not ready, and 200 again once it is', async () => {
    let problem: PetstoreError | undefined = new PetstoreError('unavailable', 'Data file /data/pets.journal refuses writes: ENOSPC. Free space.', { cause: new Error('ENOSPC') });
    const entries: LogEntry[] = [];
    const storage = storageReadyAs(async () => {
      if (problem !== undefined) throw problem;
    });
    const server = await startTestServer({ store: createPetstore({ storage }), log: (entry) => void entries.push(entry) });
    try {
      assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', /^Data file \/data\/pets\.journal refuses writes: ENOSPC\. Free space\.$/);
      assert.deepEqual(entries, [], 'a storage logs its own failures, once per episode; probes add nothing');
      problem = undefined;
      assert.equal((await call(server, 'GET', '/readyz')).status, 200);
    } finally {
      await server.close();
    }
  });

  test('/readyz answers 503 when the storage takes longer than readyTimeout, and when its check fails unexpectedly, logging only the latter', async () => {
    const entries: LogEntry[] = [];
    let check = (): Promise<void> => new Promise(() => {});
    const server = await startTestServer({ store: createPetstore({ storage: storageReadyAs(() => check()) }), readyTimeout: 50, log: (entry) => void entries.push(entry) });
    try {
      assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', /^The storage did not answer the readiness check within 50 ms$/);
      check = () => Promise.reject(new TypeError('bug in checkReady'));
      const reply = await call(server, 'GET', '/readyz');
      assertError(reply, 503, 'unavailable', /^The storage failed its readiness check; the error has been logged$/);
      assert.equal(entries.length, 1);
      assert.equal(entries[0]?.requestId, reply.headers['x-request-id']);
      assert.match(String(entries[0]?.['cause']), /TypeError: bug in checkReady/);
    } finally {
      await server.close();
    }
  });

  test('startServer() refuses a readyTimeout that is not a positive number of milliseconds', async () => {
    for (const readyTimeout of [0, -1, Number.NaN, Infinity]) {
      await assert.rejects(startTestServer({ readyTimeout }), /^TypeError: operatorKit: `readyTimeout` must be a positive number of milliseconds$/);
    }
  });

  test('close() makes /readyz answer 503 at once, while the API keeps answering during the delay', async () => {
    const server = await startTestServer();
    const closing = server.close({ delay: 1_000 });
    assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', /^The server is shutting down$/);
    assert.equal((await call(server, 'GET', '/healthz')).status, 200, 'liveness is not readiness');
    assert.equal((await call(server, 'GET', '/v1/openapi.json')).status, 200);
    assert.equal(server.close({ delay: 0 }), closing, 'a second call returns the same promise');
    await closing;
    await assert.rejects(call(server, 'GET', '/readyz'), /ECONNREFUSED/);
  });

  test('close() refuses a delay that is not 0 or more milliseconds, and does not begin shutting down', async () => {
    const server = await startTestServer();
    try {
      for (const delay of [-1, Number.NaN, Infinity]) await assert.rejects(server.close({ delay }), /^TypeError: close: `delay` must be a number of milliseconds, 0 or more$/);
      assert.equal((await call(server, 'GET', '/readyz')).status, 200);
    } finally {
      await server.close();
    }
  });

  test('close() logs when shutdown begins and when it has finished', async () => {
    const entries: LogEntry[] = [];
    const server = await startTestServer({ log: (entry) => void entries.push(entry) });
    await server.close({ delay: 10 });
    assert.deepEqual(entries, [
      { level: 'info', msg: 'Shutdown begun: /readyz answers 503; requests are served until the delay ends', delayMs: 10 },
      { level: 'info', msg: 'Shutdown finished' },
    ]);
  });

  test('/readyz, /healthz and /metrics are the standalone server\'s: an embedded handler and a server without metrics answer 404', async () => {
    const server = await startTestServer();
    try {
      assertError(await call(server, 'GET', '/metrics'), 404, 'not_found');
    } finally {
      await server.close();
    }
    const handler = createHandler({ store: createPetstore(), apiKeys: ['readiness-key-0123456789'] });
    const { createServer } = await import('node:http');
    const embedded = createServer((request, response) => handler(request, response));
    await new Promise<void>((listening) => embedded.listen(0, '127.0.0.1', listening));
    try {
      const address = embedded.address();
      assert.ok(address !== null && typeof address === 'object');
      const origin = `http://127.0.0.1:${address.port}`;
      for (const path of ['/readyz', '/healthz', '/metrics']) assertError(await call({ origin }, 'GET', path), 404, 'not_found');
    } finally {
      await new Promise((closed) => embedded.close(closed));
    }
  });
});
