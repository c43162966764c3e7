import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../lib/index.js';
import type { PetStorage } from '../../lib/index.js';
import { createMetrics, instrumentStorage } from '../../extras/operator/index.js';
import type { LogEntry } from '../../server/node/index.js';
import { KEY_RUN } from '../../server/core/auth.js';
import { startTestServer } from '../support/standalone-http.js';
import { spawnServer } from '../support/process.js';
import { report } from './settings.js';
import { exchange } from './wire.js';

/** Two keys, as during a rotation; distinctive enough that any copy of them is found. */
const KEYS = ['robust-secret-alpha-7f3c9e51d2', 'robust-secret-beta-1d2b8a40c6'];

/** Every run of KEY_RUN characters of the keys: no part that long of a key may be written either. */
const KEY_RUNS = KEYS.flatMap((key) => Array.from({ length: key.length - KEY_RUN + 1 }, (_, start) => key.slice(start, start + KEY_RUN)));

/** Tokens clients tried that are not keys: they must not be written either. */
const GUESSES = ['guessed-token-0a9b8c7d6e', `${KEYS[0]}-and-more`];

/** Requests that carry a key (or a guess) in every place a client might put one, through every path of the server. */
function requests(): { text: string; method: string }[] {
  const [alpha = '', beta = ''] = KEYS;
  const auth = (token: string, scheme = 'Bearer'): string => `Authorization: ${scheme} ${token}\r\n`;
  const json = 'Content-Type: application/json\r\n';
  const body = (name: string): string => JSON.stringify({ name, categoryId: 3, status: 'available' });
  const post = (authorization: string, text: string, extra = ''): string => `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${authorization}${json}${extra}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  const get = (path: string, authorization: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n${authorization}\r\n`;
  return [
    { text: post(auth(alpha), body('Secret keeper')), method: 'POST' },
    { text: post(auth(beta), body('Second keeper')), method: 'POST' },
    { text: get('/v1/pets?limit=5', auth(alpha, 'bearer')), method: 'GET' },
    { text: get('/v1/pets/1', auth(beta, 'BEARER')), method: 'GET' },
    { text: get('/v1/pets/999', auth(alpha)), method: 'GET' },
    { text: get('/v1/nothing', auth(alpha)), method: 'GET' },
    { text: get('/v1/pets?status=nope', auth(alpha)), method: 'GET' },
    { text: get('/healthz', auth(alpha)), method: 'GET' },
    { text: get('/readyz', auth(alpha)), method: 'GET' },
    { text: get('/metrics', auth(beta)), method: 'GET' },
    { text: `OPTIONS /v1/pets HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example.com\r\nAccess-Control-Request-Method: POST\r\n${auth(alpha)}\r\n`, method: 'OPTIONS' },
    { text: get('/v1/pets', auth(GUESSES[0] as string)), method: 'GET' },
    { text: get('/v1/pets', auth(GUESSES[1] as string)), method: 'GET' },
    { text: get('/v1/pets', auth(alpha, 'Basic')), method: 'GET' },
    { text: get('/v1/pets', `Authorization: ${alpha}\r\n`), method: 'GET' },
    { text: get('/v1/pets', `X-Api-Key: ${alpha}\r\nCookie: key=${beta}\r\n`), method: 'GET' },
    { text: post(auth(alpha), '{"name":', ''), method: 'POST' },
    { text: post(auth(alpha), body('x'.repeat(300))), method: 'POST' },
    { text: post(auth(alpha).replace(json, ''), body('Typed'), 'Content-Type: text/plain\r\n').replace(json, ''), method: 'POST' },
    { text: post(auth(alpha), body('Big'), `X-Pad: ${'p'.repeat(70_000)}\r\n`), method: 'POST' },
    { text: `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${auth(alpha)}${json}Content-Length: 70000\r\n\r\n`, method: 'POST' },
    { text: `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${auth(alpha)}${json}Transfer-Encoding: chunked\r\n\r\nZZ\r\n`, method: 'POST' },
    { text: `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${auth(alpha)}Expect: teapot\r\n\r\n`, method: 'GET' },
    { text: `CONNECT /v1/pets HTTP/1.1\r\nHost: x\r\n${auth(alpha)}\r\n`, method: 'CONNECT' },
    { text: `OPTIONS /v1/pets HTTP/1.1\r\nHost: x\r\n${auth(beta)}\r\n`, method: 'OPTIONS' },
    { text: `DELETE /v1/pets/1 HTTP/1.1\r\nHost: x\r\n${auth(beta)}\r\n`, method: 'DELETE' },
    { text: `GET /v1/pets HTTP/1.1\r\n${auth(alpha)}\r\n`, method: 'GET' },
    { text: `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${auth(alpha)}X-Bad\u0001: y\r\n\r\n`, method: 'GET' },
    // A key sent as the request id: without Authorization, beside a wrong token, beside the other key, on a 417.
    { text: get('/v1/pets', `X-Request-Id: ${alpha}\r\n`), method: 'GET' },
    { text: get('/v1/pets', `${auth(GUESSES[0] as string)}X-Request-Id: ${beta}\r\n`), method: 'GET' },
    { text: get('/v1/pets/1', `${auth(beta)}X-Request-Id: ${alpha}\r\n`), method: 'GET' },
    { text: post(auth(alpha), body('Traced'), `X-Request-Id: ${beta}\r\n`), method: 'POST' },
    { text: `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${alpha}\r\nExpect: teapot\r\n\r\n`, method: 'GET' },
    // A key beside other text or less a character, as the request id or as the idempotency key, which the data file would keep.
    { text: get('/v1/pets', `X-Request-Id: id:${alpha}\r\n`), method: 'GET' },
    { text: get('/v1/pets', `${auth(alpha)}X-Request-Id: ${beta.slice(0, -1)}\r\n`), method: 'GET' },
    { text: post(auth(alpha), body('Keyed by a key'), `Idempotency-Key: "${alpha}"\r\n`), method: 'POST' },
    { text: post(auth(beta), body('Keyed by a part'), `Idempotency-Key: order-${alpha.slice(1)}\r\nX-Request-Id: ${beta.slice(1)}\r\n`), method: 'POST' },
  ];
}

/** A create with one key that names the other as its id and leaves before its body is complete: the access log writes it unanswered. */
function leavingCreate(): Buffer {
  const [alpha = '', beta = ''] = KEYS;
  return Buffer.from(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${beta}\r\nX-Request-Id: ${alpha}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
}

describe('secrets in everything the real server writes', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-secrets-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('the standalone server with the access log and a data file writes neither API keys nor rejected tokens anywhere, and answers none', async () => {
    const server = spawnServer({
      PETSTORE_API_KEYS: KEYS.join(','),
      PETSTORE_ACCESS_LOG: '1',
      PETSTORE_DATA: join(directory, 'pets.data'),
      PETSTORE_LOG_LEVEL: 'debug',
      PETSTORE_METRICS: 'true',
      PETSTORE_CORS_ORIGINS: 'https://app.example.com',
    });
    const answers: string[] = [];
    try {
      await server.ready;
      const port = Number(new URL(server.origin).port);
      for (const { text, method } of requests()) {
        const outcome = await exchange(port, Buffer.from(text), { methods: [method] });
        answers.push(outcome.responses.map((response) => JSON.stringify(response.headers) + response.body.toString('latin1')).join('') + outcome.leftover);
      }
      // A client that sends a key and vanishes before its headers are complete.
      const slow = await exchange(port, Buffer.from(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS[0]}\r\n`), { methods: ['GET'], timeoutMs: 500 });
      answers.push(slow.leftover);
      const leaving = await exchange(port, leavingCreate(), { methods: ['POST'], timeoutMs: 300 });
      answers.push(leaving.leftover);
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.stderr());
    }
    const files: string[] = [];
    for (const name of await readdir(directory)) files.push((await readFile(join(directory, name))).toString('latin1'));
    assert.ok(files.length > 0 && files.some((file) => file.includes('Secret keeper')), 'the data file holds the pets created');
    const written = { stdout: server.stdout(), stderr: server.stderr(), 'data files': files.join('\n'), answers: answers.join('\n') };
    assert.ok(written.stdout.split('\n').filter((line) => line.startsWith('{')).length >= requests().length - 6, 'the access log recorded the requests');
    let found = 0;
    for (const secret of [...KEY_RUNS, ...GUESSES]) {
      for (const [where, text] of Object.entries(written)) {
        const count = text.split(secret).length - 1;
        found += count;
        assert.equal(count, 0, `${JSON.stringify(secret)} appears ${count} times in ${where}`);
      }
    }
    report({ part: 'secrets (stdout, stderr, data file, answers)', cases: requests().length + 2, failures: found });
  });

  test('every log entry, access-log line, metric and answer of an embedded server leaves keys and rejected tokens out, a failing key list included', async () => {
    const [alpha = '', beta = ''] = KEYS;
    const written: string[] = [];
    const failure = (code: string): Error => new PetstoreError('unavailable', `The storage is down (${code})`, { cause: new Error(`socket ${code}`) });
    let calls = 0;
    // getPet fails in turn unexpectedly (a 500) and with a storage outage (a 503), both logged with their detail.
    const flaky: PetStorage = {
      insert: async (pet) => ({ ...pet, id: ++calls }),
      get: async () => { throw ++calls % 2 === 0 ? new Error('unexpected') : failure('ECONNRESET'); },
      list: async () => [],
      checkReady: async () => { throw failure('ETIMEDOUT'); },
    };
    const metrics = createMetrics();
    let keys: readonly string[] = KEYS;
    const server = await startTestServer({
      store: createPetstore({ storage: instrumentStorage(flaky, metrics, 'flaky') }),
      apiKeys: () => keys,
      metrics,
      corsOrigins: ['https://app.example.com'],
      accessLog: (line) => void written.push(line),
      log: (entry: LogEntry) => void written.push(JSON.stringify(entry)),
    });
    const port = server.port;
    const send = async (text: string, method: string): Promise<void> => {
      const outcome = await exchange(port, Buffer.from(text), { methods: [method] });
      written.push(outcome.responses.map((response) => JSON.stringify(response.headers) + response.body.toString('latin1')).join('') + outcome.leftover);
    };
    try {
      for (const { text, method } of requests()) await send(text, method);
      written.push((await exchange(port, leavingCreate(), { methods: ['POST'], timeoutMs: 300 })).leftover);
      for (const path of ['/v1/pets/1', '/v1/pets/2', '/readyz']) await send(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alpha}\r\n\r\n`, 'GET');
      // A list the function returns that cannot be used, holding the keys: the warning must not quote them.
      keys = [alpha, `${beta} with a space`];
      await send(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${beta}\r\n\r\n`, 'GET');
      keys = [beta];
      await send(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alpha}\r\n\r\n`, 'GET');
      await send('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n', 'GET');
      written.push(metrics.render());
    } finally {
      await server.close({ delay: 10 });
    }
    const text = written.join('\n');
    for (const expected of ['"level":"error"', '"level":"warn"', 'cannot be used', 'Shutdown finished', 'petstore_http_requests_total', '"requestId"']) {
      assert.ok(text.includes(expected), `the run wrote ${expected}`);
    }
    let found = 0;
    for (const secret of [...KEY_RUNS, ...GUESSES]) {
      const count = text.split(secret).length - 1;
      found += count;
      assert.equal(count, 0, `${JSON.stringify(secret)} appears ${count} times`);
    }
    report({ part: 'secrets (log entries, access log, metrics, answers of an embedded server)', cases: requests().length + 7, failures: found });
  });
});
