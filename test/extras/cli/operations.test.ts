import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call } from '../../support/http.js';
import { jsonLines, spawnServer } from '../../support/process.js';
import type { ServerProcess } from '../../support/process.js';

const KEY = 'operations-secret-key-5c1d0e';
const AUTH = { authorization: `Bearer ${KEY}` };

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.stderr());
}

/** Every secret must be absent from everything the process wrote. */
function assertNeverWritten(server: ServerProcess, secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const [where, text] of [['stdout', server.stdout()], ['stderr', server.stderr()]] as const) {
      assert.equal(text.split(secret).length - 1, 0, `${JSON.stringify(secret)} appears in ${where}`);
    }
  }
}

describe('cli operations: readiness, drain, metrics, CORS, keys from a file', () => {
  let directory = '';
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-operations-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('main --shutdown-delay keeps serving after SIGTERM with /readyz failing, then exits 0', async (context) => {
    const server = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_SHUTDOWN_DELAY: '5' });
    // Whatever fails below, the process does not outlive the test.
    context.after(() => void server.child.kill('SIGKILL'));
    await server.ready;
    const ready = await call(server, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.json, { status: 'ready' });
    server.child.kill('SIGTERM');
    const received = await server.waitForStderr(/\{[^\n]*"msg":"Signal received"[^\n]*\}/);
    const event = JSON.parse(received[0]) as Record<string, unknown>;
    assert.deepEqual([event['level'], event['signal'], event['delaySeconds']], ['info', 'SIGTERM', 5]);
    const draining = await call(server, 'GET', '/readyz');
    assert.equal(draining.status, 503);
    assert.equal((draining.json as { code?: string }).code, 'unavailable');
    const served = await call(server, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Late","categoryId":1}' });
    assert.equal(served.status, 201, 'requests are still served during the delay');
    assert.equal((await call(server, 'GET', '/healthz')).status, 200, 'liveness holds while draining');
    assert.equal(await server.exited, 0);
    assert.ok(jsonLines(server.stderr()).some((line) => line['msg'] === 'Process exiting'));
  });

  test('main --metrics serves /metrics in the Prometheus text format with the storage timed by kind; without it, /metrics is a 404', async () => {
    const metered = spawnServer({ PETSTORE_API_KEYS: KEY }, ['--metrics', '--data', join(directory, 'metered.journal')]);
    try {
      await metered.ready;
      assert.equal((await call(metered, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Counted","categoryId":1}' })).status, 201);
      const scraped = await call(metered, 'GET', '/metrics');
      assert.equal(scraped.status, 200);
      assert.equal(scraped.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      for (const name of ['petstore_http_requests_total', 'petstore_http_request_duration_seconds', 'petstore_http_requests_in_flight', 'process_resident_memory_bytes', 'petstore_heap_used_bytes']) {
        assert.match(scraped.text, new RegExp(`^# TYPE ${name} `, 'm'), name);
      }
      assert.match(scraped.text, /^petstore_storage_operation_duration_seconds_count\{[^}]*storage="file"[^}]*operation="insert"[^}]*\} 1$|^petstore_storage_operation_duration_seconds_count\{[^}]*operation="insert"[^}]*storage="file"[^}]*\} 1$/m);
    } finally {
      await stop(metered);
    }
    const plain = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_METRICS: 'no' });
    try {
      await plain.ready;
      assert.equal((await call(plain, 'GET', '/metrics')).status, 404);
    } finally {
      await stop(plain);
    }
  });

  test('main --cors-origins answers allowed origins with CORS headers, and others without', async () => {
    const server = spawnServer({ PETSTORE_API_KEYS: KEY }, ['--cors-origins', 'https://app.example.com, http://localhost:5173']);
    try {
      await server.ready;
      const allowed = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, origin: 'https://app.example.com' } });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.com');
      const other = await call(server, 'GET', '/v1/pets', { headers: { ...AUTH, origin: 'https://evil.example' } });
      assert.equal(other.status, 200);
      assert.equal(other.headers['access-control-allow-origin'], undefined);
    } finally {
      await stop(server);
    }
  });

  test('main --api-keys-file: SIGHUP puts a rotated file in force on the next request, keeps the keys when the file gives none, and never writes a key', async () => {
    const keyFile = join(directory, 'keys');
    const [oldKey, newKey, spareKey] = ['rotation-old-key-8a7b6c', 'rotation-new-key-1f2e3d', 'rotation-spare-key-4d5c6b'];
    await writeFile(keyFile, `# keys of this server\n${oldKey}\n${spareKey}\n`);
    const server = spawnServer({ PETSTORE_ACCESS_LOG: '1', PETSTORE_LOG_LEVEL: 'debug' }, ['--api-keys-file', keyFile]);
    const status = async (key: string): Promise<number> => (await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status;
    try {
      await server.ready;
      assert.deepEqual([await status(oldKey), await status(newKey)], [200, 401]);

      await writeFile(keyFile, `${newKey}\n${spareKey} # kept through the rotation\n`);
      server.child.kill('SIGHUP');
      await server.waitForStderr(/"msg":"API keys reloaded"/);
      assert.deepEqual([await status(oldKey), await status(newKey), await status(spareKey)], [401, 200, 200]);

      await writeFile(keyFile, '# emptied by mistake\n');
      server.child.kill('SIGHUP');
      await server.waitForStderr(/"msg":"API keys not reloaded; the keys in force stay"/);
      assert.deepEqual([await status(newKey), await status(spareKey)], [200, 200], 'the keys in force stay');

      await rm(keyFile);
      server.child.kill('SIGHUP');
      await server.waitForStderr(/"msg":"API keys not reloaded; the keys in force stay"[^\n]*ENOENT/);
      assert.equal(await status(newKey), 200);
    } finally {
      await stop(server);
    }
    const events = jsonLines(server.stderr()).filter((line) => ['API keys loaded', 'API keys reloaded', 'API keys not reloaded; the keys in force stay'].includes(String(line['msg'])));
    assert.deepEqual(events.map((line) => [line['msg'], line['keys']]), [['API keys loaded', 2], ['API keys reloaded', 2], ['API keys not reloaded; the keys in force stay', undefined], ['API keys not reloaded; the keys in force stay', undefined]]);
    assert.ok(!server.stderr().includes('development key'));
    assertNeverWritten(server, [oldKey, newKey, spareKey]);
  });

  test('main without a key file notes SIGHUP and keeps serving', async () => {
    const server = spawnServer({ PETSTORE_API_KEYS: KEY });
    try {
      await server.ready;
      server.child.kill('SIGHUP');
      await server.waitForStderr(/"msg":"SIGHUP ignored: no key file to re-read"/);
      assert.equal((await call(server, 'GET', '/v1/pets', { headers: AUTH })).status, 200);
    } finally {
      await stop(server);
    }
  });

  test('main refuses to start on a key file that cannot be read or holds no key (exit 2), naming the file, not a key', async () => {
    const empty = join(directory, 'empty-keys');
    await writeFile(empty, '# no keys yet\n\n');
    for (const [env, message] of [[{ PETSTORE_API_KEYS_FILE: empty }, /PETSTORE_API_KEYS_FILE: .*empty-keys holds no key/], [{ PETSTORE_API_KEYS_FILE: join(directory, 'none') }, /PETSTORE_API_KEYS_FILE: cannot read .*none \(ENOENT\)/]] as const) {
      const server = spawnServer(env);
      server.ready.catch(() => undefined);
      assert.equal(await server.exited, 2);
      assert.match(server.stderr(), message);
    }
  });
});
