import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore, PetstoreError } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { createMetrics, instrumentPool, instrumentStorage } from '../../../extras/operator/index.js';
import type { Metrics } from '../../../extras/operator/index.js';
import { AUTH, call, JSON_POST, rawExchange, startTestServer } from '../../support/standalone-http.js';

/** One sample line of the text format: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses exposition text into its samples, checking every sample's family was announced by HELP and TYPE first. */
function parseExposition(text: string): Sample[] {
  const announced = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n').slice(0, -1)) {
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary)$/.exec(line);
    if (type?.[1] !== undefined) announced.add(type[1]);
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    assert.ok(match?.[1] !== undefined && match[3] !== undefined, `a sample line: ${line}`);
    const family = match[1].replace(/_(bucket|sum|count)$/, '');
    assert.ok(announced.has(match[1]) || announced.has(family), `TYPE before ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, name = '', value = '']) => [name, value]));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels. */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value) && Object.keys(sample.labels).length === Object.keys(labels).length);
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} appears ${found.length} times`);
  return found[0]?.value;
}

/** promtool's verdict on exposition text: its output, or why it could not run. Under CI=true it must be installed. */
function promtoolCheck(text: string): { skipped: string } | { output: string; status: number | null } {
  const probe = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined) {
    if (process.env['CI'] === 'true') throw new Error('promtool is not installed, and CI=true: install Debian\'s prometheus package');
    return { skipped: 'promtool is not installed (Debian: apt-get install prometheus)' };
  }
  const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { output: `${checked.stdout}${checked.stderr}`, status: checked.status };
}

describe('instrumentStorage()', () => {
  test('instrumentStorage() passes the storage\'s usage on, so a capacity holds with metrics on', async () => {
    const store = createPetstore({ storage: instrumentStorage(createMemoryStorage(), createMetrics(), 'memory'), capacity: { maxPets: 1 } });
    await store.createPet({ name: 'Rex', categoryId: 1 });
    await assert.rejects(store.createPet({ name: 'Tom', categoryId: 1 }), { code: 'insufficient_storage' });
    const bare: PetStorage = { insert: async () => { throw new Error('unused'); }, get: async () => undefined, list: async () => [] };
    assert.equal(instrumentStorage(bare, createMetrics(), 'bare').usage, undefined);
  });
});

describe('GET /metrics', () => {
  test('GET /metrics answers the text format 0.0.4 without a key, counting requests by operation and status and timing them and the storage', async (context) => {
    const metrics = createMetrics();
    const store = createPetstore({ storage: instrumentStorage(createMemoryStorage(), metrics, 'memory') });
    const server = await startTestServer({ store, metrics });
    try {
      assert.equal((await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' })).status, 201);
      assert.equal((await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":""}' })).status, 400);
      for (let index = 0; index < 3; index++) assert.equal((await call(server, 'GET', '/v1/pets/1', { headers: AUTH })).status, 200);
      assert.equal((await call(server, 'GET', '/v1/pets')).status, 401);
      assert.equal((await call(server, 'GET', '/v1/nowhere', { headers: AUTH })).status, 404);
      assert.equal((await call(server, 'GET', '/healthz')).status, 200);
      const reply = await call(server, 'GET', '/metrics');
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      assert.equal(reply.headers['cache-control'], 'no-store');
      assert.equal(Number(reply.headers['content-length']), Buffer.byteLength(reply.text));
      const samples = parseExposition(reply.text);
      const requests = (operation: string, status: string): number | undefined => valueOf(samples, 'petstore_http_requests_total', { operation, status });
      assert.deepEqual([requests('createPet', '201'), requests('createPet', '400'), requests('getPet', '200'), requests('none', '401'), requests('none', '404'), requests('checkHealth', '200')], [1, 1, 3, 1, 1, 1]);
      assert.equal(valueOf(samples, 'petstore_http_request_duration_seconds_count', { operation: 'getPet' }), 3);
      assert.equal(valueOf(samples, 'petstore_http_request_duration_seconds_bucket', { operation: 'getPet', le: '+Inf' }), 3);
      assert.ok((valueOf(samples, 'petstore_http_request_duration_seconds_sum', { operation: 'getPet' }) ?? 0) > 0);
      assert.equal(valueOf(samples, 'petstore_http_requests_in_flight'), 1, 'the scrape itself');
      assert.equal(valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'memory', operation: 'insert', outcome: 'ok' }), 1);
      assert.equal(valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'memory', operation: 'get', outcome: 'ok' }), 3);
      assert.ok((valueOf(samples, 'process_resident_memory_bytes') ?? 0) > 1_000_000);
      assert.ok((valueOf(samples, 'petstore_heap_used_bytes') ?? 0) > 1_000_000);
      for (const quantile of ['0.5', '0.99']) assert.notEqual(valueOf(samples, 'petstore_event_loop_delay_seconds', { quantile }), undefined);
      assert.equal(typeof valueOf(samples, 'petstore_event_loop_delay_seconds_count'), 'number');
      const checked = promtoolCheck(reply.text);
      if ('skipped' in checked) context.skip(checked.skipped);
      else assert.deepEqual([checked.status, checked.output], [0, ''], 'promtool check metrics reports no problem');
      const second = parseExposition((await call(server, 'GET', '/metrics')).text);
      assert.equal(valueOf(second, 'petstore_http_requests_total', { operation: 'getMetrics', status: '200' }), 1, 'the previous scrape is counted too');
      const head = await call(server, 'HEAD', '/metrics');
      assert.deepEqual([head.status, head.text], [200, '']);
    } finally {
      await server.close();
    }
  });

  test('GET /metrics counts creates with an Idempotency-Key that stored no new pet, by outcome, and times insertOnce', async () => {
    const metrics = createMetrics();
    const store = createPetstore({ storage: instrumentStorage(createMemoryStorage(), metrics, 'memory') });
    const server = await startTestServer({ store, metrics });
    try {
      const before = parseExposition((await call(server, 'GET', '/metrics')).text);
      for (const outcome of ['replayed', 'in_flight', 'key_reused']) assert.equal(valueOf(before, 'petstore_idempotency_outcomes_total', { outcome }), 0, outcome);
      const headers = { ...JSON_POST, 'idempotency-key': '"k"' };
      assert.equal((await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Rex","categoryId":1}' })).status, 201);
      for (let index = 0; index < 2; index++) assert.equal((await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Rex","categoryId":1}' })).status, 201);
      assert.equal((await call(server, 'POST', '/v1/pets', { headers, body: '{"name":"Tom","categoryId":1}' })).status, 422);
      assert.equal((await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Kit","categoryId":1}' })).status, 201);
      // A 409 of createPet is always a key in flight: a burst with one key makes some, or every create was quick enough to replay.
      const burst = await Promise.all(Array.from({ length: 8 }, () => call(server, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': '"burst"' }, body: '{"name":"B","categoryId":1}' })));
      const samples = parseExposition((await call(server, 'GET', '/metrics')).text);
      const conflicts = burst.filter((reply) => reply.status === 409).length;
      const replays = burst.filter((reply) => reply.status === 201).length - 1;
      assert.equal(valueOf(samples, 'petstore_idempotency_outcomes_total', { outcome: 'replayed' }), 2 + replays);
      assert.equal(valueOf(samples, 'petstore_idempotency_outcomes_total', { outcome: 'key_reused' }), 1);
      assert.equal(valueOf(samples, 'petstore_idempotency_outcomes_total', { outcome: 'in_flight' }), conflicts);
      assert.equal(valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'memory', operation: 'insertOnce', outcome: 'ok' }), 4 + 1 + replays);
      assert.equal(valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'memory', operation: 'insert', outcome: 'ok' }), 1);
    } finally {
      await server.close();
    }
  });

  test('instrumentStorage() keeps a storage without insertOnce without it, so creates with a key stay refused', async () => {
    const inner = createMemoryStorage();
    const plain: PetStorage = { insert: (pet) => inner.insert(pet), get: (id) => inner.get(id), list: (query) => inner.list(query) };
    assert.equal(instrumentStorage(plain, createMetrics(), 'plain').insertOnce, undefined);
  });

  test('the server counts the answers it gives before the core, under operation none', async () => {
    const metrics = createMetrics();
    const server = await startTestServer({ metrics });
    try {
      assert.equal((await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'teapot' } })).status, 417);
      const samples = parseExposition((await call(server, 'GET', '/metrics')).text);
      assert.equal(valueOf(samples, 'petstore_http_requests_total', { operation: 'none', status: '417' }), 1);
    } finally {
      await server.close();
    }
  });

  test('label values are escaped: a storage name with quotes, a backslash and a line feed', () => {
    const metrics = createMetrics();
    instrumentStorage(createMemoryStorage(), metrics, 'odd "name"\\\n');
    const text = metrics.render();
    assert.ok(text.includes('storage="odd \\"name\\"\\\\\\n"'), text.slice(0, 2000));
    const checked = promtoolCheck(text);
    if (!('skipped' in checked)) assert.deepEqual([checked.status, checked.output], [0, '']);
  });

  test('GET /metrics shows a storage\'s pool (connections, idle, waiting, wait timeouts), its failures by cause, and its durations by outcome, as promtool accepts', async (context) => {
    const metrics = createMetrics();
    const failure = (code: string): PetstoreError => new PetstoreError('unavailable', `Cannot store the pet: ${code}`, { cause: Object.assign(new Error(code), { code }) });
    let lockTimeouts = 0;
    const storage: PetStorage = {
      insert: () => (lockTimeouts++ < 2 ? Promise.reject(failure('55P03')) : Promise.reject(failure('PETSTORE_POOL_WAIT'))),
      get: () => Promise.reject(new PetstoreError('unavailable', 'Cannot read the pet', { cause: new Error('no code') })),
      list: async () => [],
    };
    const instrumented = instrumentStorage(storage, metrics, 'postgres');
    instrumentPool(metrics, 'postgres', () => ({ max: 10, total: 7, idle: 2, waiting: 3, waitTimeouts: 1 }));
    assert.equal('connections' in instrumented, false, 'a pool is no member of the storage contract');
    const server = await startTestServer({ store: createPetstore({ storage: instrumented }), metrics });
    try {
      for (let index = 0; index < 3; index++) assert.equal((await call(server, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' })).status, 503);
      assert.equal((await call(server, 'GET', '/v1/pets/1', { headers: AUTH })).status, 503);
      assert.equal((await call(server, 'GET', '/v1/pets', { headers: AUTH })).status, 200);
      const reply = await call(server, 'GET', '/metrics');
      const samples = parseExposition(reply.text);
      const errors = (operation: string, cause: string): number | undefined => valueOf(samples, 'petstore_storage_errors_total', { storage: 'postgres', operation, cause });
      assert.deepEqual([errors('insert', '55P03'), errors('insert', 'PETSTORE_POOL_WAIT'), errors('get', 'unknown')], [2, 1, 1]);
      const durations = (operation: string, outcome: string): number | undefined => valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'postgres', operation, outcome });
      assert.deepEqual([durations('insert', 'error'), durations('insert', 'ok'), durations('list', 'ok'), durations('list', 'error')], [3, 0, 1, 0]);
      const pool = (name: string): number | undefined => valueOf(samples, name, { storage: 'postgres' });
      assert.deepEqual(
        ['max_connections', 'connections', 'idle_connections', 'waiting_requests', 'wait_timeouts_total'].map((name) => pool(`petstore_storage_pool_${name}`)),
        [10, 7, 2, 3, 1],
      );
      assert.match(reply.text, /# TYPE petstore_storage_pool_wait_timeouts_total counter\n/);
      const checked = promtoolCheck(reply.text);
      if ('skipped' in checked) context.skip(checked.skipped);
      else assert.deepEqual([checked.status, checked.output], [0, ''], 'promtool check metrics reports no problem');
    } finally {
      await server.close();
    }
  });

  test('instrumentStorage() times failed operations too, and keeps checkReady and close', async () => {
    const metrics = createMetrics();
    let isClosed = false;
    const failing: PetStorage = {
      insert: () => Promise.reject(new Error('full')),
      get: async () => undefined,
      list: async () => [],
      checkReady: async () => undefined,
      close: async () => { isClosed = true; },
    };
    const storage = instrumentStorage(failing, metrics, 'test');
    await assert.rejects(storage.insert({ name: 'Rex', categoryId: 1 }), /full/);
    await storage.checkReady?.();
    await storage.close?.();
    assert.equal(isClosed, true);
    const samples = parseExposition(metrics.render());
    assert.equal(valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'test', operation: 'insert', outcome: 'error' }), 1);
    assert.equal(valueOf(samples, 'petstore_storage_operation_duration_seconds_count', { storage: 'test', operation: 'checkReady', outcome: 'ok' }), 1);
    const bare = instrumentStorage(createMemoryStorage(), metrics, 'bare');
    assert.equal(bare.checkReady, undefined, 'a storage without checkReady stays without it');
  });

  test('startServer() and instrumentStorage() refuse metrics that createMetrics() did not make', async () => {
    const foreign: Metrics = { render: () => '' };
    await assert.rejects(startTestServer({ metrics: foreign }), /^TypeError: operatorKit: `metrics` must come from createMetrics\(\)$/);
    assert.throws(() => instrumentStorage(createMemoryStorage(), foreign, 'x'), /^TypeError: instrumentStorage: `metrics` must come from createMetrics\(\)$/);
  });

  test('a pipelined request refused past the bound is counted and carries a request id', async () => {
    const metrics = createMetrics();
    const server = await startTestServer({ metrics });
    try {
      const requests = Array.from({ length: 40 }, () => 'GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n').join('');
      const text = await rawExchange(server.port, [requests], { until: /Too many pipelined requests[^]*\}$/ });
      assert.match(text, /HTTP\/1\.1 400 [^]*X-Request-Id: [A-Za-z0-9_-]{16}-[0-9a-z]+\r\n[^]*Too many pipelined requests/);
      const samples = parseExposition((await call(server, 'GET', '/metrics')).text);
      assert.equal(valueOf(samples, 'petstore_http_requests_total', { operation: 'none', status: '400' }), 1);
    } finally {
      await server.close();
    }
  });
});
