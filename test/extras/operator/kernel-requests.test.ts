import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { UNAVAILABLE_RETRY_AFTER } from '../../../server/core/index.js';
import type { LogEntry } from '../../../server/node/index.js';
import { API_KEY, AUTH, JSON_POST, assertError, call, rawExchange, startTestServer } from '../../support/standalone-http.js';
import type { TestServer } from '../../support/standalone-http.js';
import { failingStorage } from '../../support/failing-storage.js';

/**
 * The kernel's requests as the standalone server serves them with its extras: the access log and
 * /readyz of the operator's kit, and the root the docs site redirects. The kernel's own tests
 * (test/server/node/) start a server with no extra.
 */

/** The fields of an access log line this test reads. */
type AccessLogLine = { readonly requestId: string; readonly path: string; readonly status: number };

const GENERATED = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

describe('POST /v1/pets with Idempotency-Key, with the access log', () => {
  test('createPet with a key that is, holds or shares 12 characters with an API key answers 400 invalid_idempotency_key without quoting it, and stores nothing', async () => {
    const entries: string[] = [];
    const keyed = await startTestServer({ apiKeys: [API_KEY, 'other-key-abcdefghij'], accessLog: (line) => void entries.push(line), log: (entry) => void entries.push(JSON.stringify(entry)) });
    try {
      const holding = [API_KEY, `order-${API_KEY}`, `${API_KEY}-1`, API_KEY.slice(0, -1), API_KEY.slice(2, 14), 'other-key-abcdefghij', 'x-other-key-ab'];
      for (const key of holding) {
        for (const value of [`"${key}"`, key]) {
          const reply = await call(keyed, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': value }, body: '{"name":"Leaked","categoryId":1}' });
          assertError(reply, 400, 'invalid_idempotency_key', /^Cannot create pet: `Idempotency-Key` holds an API key or a long part of one, and keys are stored with their pets; send a fresh random key, such as a UUID$/);
          assert.ok(!reply.text.includes(key.slice(0, 12)) && !JSON.stringify(reply.headers).includes(key.slice(0, 12)), key);
        }
      }
      const listed = await call(keyed, 'GET', '/v1/pets?limit=100', { headers: AUTH });
      assert.deepEqual(listed.json, []);
      // Eleven characters of a key, and a UUID, are no part of one.
      for (const key of [API_KEY.slice(2, 13), '8e03978e-40d5-43e8-bc93-6894a57f9324']) {
        const kept = await call(keyed, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': `"${key}"` }, body: '{"name":"Kept","categoryId":1}' });
        assert.equal(kept.status, 201, kept.text);
      }
    } finally {
      await keyed.close();
    }
    for (const run of [API_KEY.slice(0, 12), API_KEY.slice(-12), 'other-key-ab']) assert.ok(!entries.join('\n').includes(run), run);
  });
});

describe('routing on the standalone server with its extras', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('the standalone server answers /healthz without a key', async () => {
    const reply = await call(server, 'GET', '/healthz');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { status: 'ok' });
    assert.equal((await call(server, 'HEAD', '/healthz')).status, 200);
    const post = await call(server, 'POST', '/healthz');
    assertError(post, 405, 'method_not_allowed');
    assert.equal(post.headers['allow'], 'GET, HEAD');
  });

  test('a storage outage is a 503 with Retry-After on every operation and on /readyz, over a socket', async () => {
    const down = new PetstoreError('unavailable', 'The database is unreachable; try again later', { cause: new Error('ECONNREFUSED') });
    const storage = { ...failingStorage(down), checkReady: async (): Promise<void> => { throw down; } };
    const server = await startTestServer({ store: createPetstore({ storage }), logError: () => {}, log: () => {} });
    try {
      for (const [method, path, body] of [['GET', '/v1/pets', undefined], ['GET', '/v1/pets/1', undefined], ['POST', '/v1/pets', '{"name":"x","categoryId":1}'], ['GET', '/readyz', undefined]] as const) {
        const reply = await call(server, method, path, body === undefined ? { headers: AUTH } : { headers: JSON_POST, body });
        assertError(reply, 503, 'unavailable', /unreachable/);
        assert.equal(reply.headers['retry-after'], String(UNAVAILABLE_RETRY_AFTER), `${method} ${path}`);
      }
    } finally {
      await server.close();
    }
  });
});

describe('X-Request-Id in the access log', () => {
  test('the access log, the log entry of a 500 and the answer carry the same id, the client\'s or the core\'s', async () => {
    const lines: string[] = [];
    const entries: LogEntry[] = [];
    const broken: PetStorage = { insert: () => Promise.reject(new Error('bug')), get: () => Promise.reject(new Error('bug')), list: () => Promise.reject(new Error('bug')) };
    const server = await startTestServer({ store: createPetstore({ storage: broken }), accessLog: (line) => void lines.push(line), log: (entry) => void entries.push(entry) });
    try {
      const chosen = await call(server, 'GET', '/v1/pets?limit=3', { headers: { ...AUTH, 'x-request-id': 'trace-abc' } });
      const made = await call(server, 'GET', '/v1/pets/1', { headers: AUTH });
      const refused = await call(server, 'GET', '/v1/pets');
      assert.deepEqual([chosen.status, made.status, refused.status], [500, 500, 401]);
      assert.equal(chosen.headers['x-request-id'], 'trace-abc');
      await server.close();
      const logged = lines.map((line) => JSON.parse(line) as AccessLogLine);
      assert.deepEqual(logged.map((entry) => [entry.requestId, entry.path, entry.status]), [
        ['trace-abc', '/v1/pets', 500],
        [made.headers['x-request-id'], '/v1/pets/1', 500],
        [refused.headers['x-request-id'], '/v1/pets', 401],
      ]);
      assert.deepEqual(entries.filter((entry) => entry.level === 'error').map((entry) => entry.requestId), ['trace-abc', made.headers['x-request-id']]);
    } finally {
      await server.close();
    }
  });

  test('a request id that holds an API key beside other text, or the key less a character, is neither echoed nor logged, on an answer, a 401 and a 500', async () => {
    const lines: string[] = [];
    const broken: PetStorage = { insert: () => Promise.reject(new Error('bug')), get: () => Promise.reject(new Error('bug')), list: async () => [] };
    const server = await startTestServer({ store: createPetstore({ storage: broken }), accessLog: (line) => void lines.push(line), log: (entry) => void lines.push(JSON.stringify(entry)) });
    const answers: string[] = [];
    try {
      for (const id of [`id:${API_KEY}`, API_KEY.slice(0, -1), API_KEY.slice(1), `${API_KEY}.1`]) {
        for (const [path, headers] of [['/v1/pets', AUTH], ['/v1/pets', {}], ['/v1/pets/1', AUTH]] as const) {
          const reply = await call(server, 'GET', path, { headers: { ...headers, 'x-request-id': id } });
          assert.match(reply.headers['x-request-id'] ?? '', GENERATED, `${id} on ${path}`);
          answers.push(JSON.stringify(reply.headers), reply.text);
        }
      }
    } finally {
      await server.close();
    }
    assert.ok(lines.length >= 12, 'the access log and the 500s were logged');
    for (const run of [API_KEY.slice(0, 12), API_KEY.slice(-12)]) {
      assert.ok(!lines.join('\n').includes(run), `the log holds ${run}`);
      assert.ok(!answers.join('\n').includes(run), `an answer holds ${run}`);
    }
  });

  test('the access log sets no header of its own: each answer carries exactly one X-Request-Id', async () => {
    const server = await startTestServer({ accessLog: () => {} });
    try {
      const text = await rawExchange(server.port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
      assert.equal(text.match(/^X-Request-Id: /gim)?.length, 1, text);
    } finally {
      await server.close();
    }
  });
});
