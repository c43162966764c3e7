import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import type { LogEntry } from '../../../server/node/index.js';
import { API_KEY, AUTH, call, parseRawResponses, rawExchange, startTestServer } from '../../support/http.js';

/** The fields of an access log line this test reads. */
type AccessLogLine = { readonly requestId: string; readonly path: string; readonly status: number };

const GENERATED = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

describe('X-Request-Id on the standalone server', () => {
  test('answers Node\'s own layer gives carry a new X-Request-Id too: a malformed request, oversize headers, CONNECT', async () => {
    const server = await startTestServer();
    try {
      const texts = ['GARBAGE\r\n\r\n', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n'];
      const ids: string[] = [];
      for (const text of texts) {
        const [response] = parseRawResponses(await rawExchange(server.port, [text]));
        assert.ok(response !== undefined && response.status >= 400, text.slice(0, 20));
        ids.push(response.headers['x-request-id'] ?? '');
      }
      for (const id of ids) assert.match(id, GENERATED);
      assert.equal(new Set(ids).size, ids.length);
    } finally {
      await server.close();
    }
  });

  test('a 417 carries the request\'s own id when valid, a new one otherwise', async () => {
    const server = await startTestServer();
    try {
      const own = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'teapot', 'x-request-id': 'expect-1' } });
      assert.deepEqual([own.status, own.headers['x-request-id']], [417, 'expect-1']);
      const fresh = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'teapot' } });
      assert.match(fresh.headers['x-request-id'] ?? '', GENERATED);
    } finally {
      await server.close();
    }
  });

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
