import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { call } from '../support/http.js';
import { runMain, spawnServer } from '../support/process.js';

describe('cli/main.ts', () => {
  test('main --help explains every setting and exits 0', async () => {
    const { code, stdout } = await runMain({}, ['--help']);
    assert.equal(code, 0);
    for (const name of ['PORT', 'HOST', 'PETSTORE_API_KEYS', 'PETSTORE_DATA', 'PETSTORE_DURABILITY', 'PETSTORE_DATABASE_URL', 'PETSTORE_ACCESS_LOG', '--repair', 'SIGTERM', '/healthz']) {
      assert.ok(stdout.includes(name), name);
    }
  });

  test('main refuses an invalid PORT or an unknown argument with exit code 2', async () => {
    for (const port of ['abc', '70000', '-1', '80.5']) {
      const { code, stderr } = await runMain({ PORT: port });
      assert.equal(code, 2, port);
      assert.match(stderr, /PORT must be an integer from 0 to 65535/);
    }
    const { code, stderr } = await runMain({}, ['--bogus']);
    assert.equal(code, 2);
    assert.match(stderr, /unknown argument "--bogus"/);
  });

  test('main without PETSTORE_API_KEYS prints a development key once to stderr, and that key works', async () => {
    const server = spawnServer({});
    try {
      await server.ready;
      const match = /development key for this run only: (\S+)/.exec(server.stderr());
      assert.ok(match?.[1] !== undefined, server.stderr());
      assert.equal(server.stderr().split(match[1]).length, 2, 'printed exactly once');
      assert.ok(!server.stdout().includes(match[1]));
      assert.equal((await call(server, 'GET', '/v1/pets')).status, 401);
      assert.equal((await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${match[1]}` } })).status, 200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('main accepts each comma-separated key and serves /healthz', async () => {
    const server = spawnServer({ PETSTORE_API_KEYS: ' alpha , beta,,' });
    try {
      await server.ready;
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      for (const key of ['alpha', 'beta']) assert.equal((await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status, 200);
      assert.equal((await call(server, 'GET', '/healthz')).status, 200);
      assert.ok(!server.stderr().includes('development key'));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('main with PETSTORE_ACCESS_LOG=1 writes one JSON line per request and never a header', async () => {
    const key = 'access-log-secret-key';
    const server = spawnServer({ PETSTORE_API_KEYS: key, PETSTORE_ACCESS_LOG: '1' });
    try {
      await server.ready;
      await call(server, 'POST', '/v1/pets', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"Logged","categoryId":1}' });
      await call(server, 'GET', '/v1/pets?limit=5', { headers: { authorization: `Bearer ${key}` } });
      await call(server, 'GET', '/v1/pets', { headers: { authorization: 'Bearer wrong-guess' } });
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
    const lines = server.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(lines.map((line) => [line['method'], line['path'], line['status']]), [['POST', '/v1/pets', 201], ['GET', '/v1/pets', 200], ['GET', '/v1/pets', 401]]);
    for (const line of lines) {
      assert.equal(typeof line['requestId'], 'string');
      assert.equal(typeof line['durationMs'], 'number');
    }
    const everything = server.stdout() + server.stderr();
    assert.ok(!everything.includes(key), 'the key is never written');
    assert.ok(!everything.includes('wrong-guess'), 'a rejected token is never written');
  });

  test('main refuses contradictory storage settings with exit code 2', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PETSTORE_DATA: '/tmp/x.journal', PETSTORE_DATABASE_URL: 'postgres://127.0.0.1/x' }, /both set: choose one storage/],
      [{ PETSTORE_DATA: '/tmp/x.journal', PETSTORE_DURABILITY: 'sometimes' }, /PETSTORE_DURABILITY must be "fsync" or "write"/],
      [{ PETSTORE_DURABILITY: 'write' }, /applies only with PETSTORE_DATA/],
    ];
    for (const [env, message] of cases) {
      const { code, stderr } = await runMain(env);
      assert.equal(code, 2, JSON.stringify(env));
      assert.match(stderr, message);
    }
    const { code, stderr } = await runMain({}, ['--repair']);
    assert.equal(code, 2);
    assert.match(stderr, /--repair needs PETSTORE_DATA/);
  });

  test('main with PETSTORE_DURABILITY=write serves from the data file and keeps pets across restarts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-main-'));
    const env = { PETSTORE_API_KEYS: 'k', PETSTORE_DATA: join(directory, 'pets.journal'), PETSTORE_DURABILITY: 'write' };
    try {
      const first = spawnServer(env);
      await first.ready;
      const created = await call(first, 'POST', '/v1/pets', { headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"name":"Kept","categoryId":3}' });
      assert.equal(created.status, 201);
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
      const second = spawnServer(env);
      await second.ready;
      try {
        assert.deepEqual((await call(second, 'GET', '/v1/pets/1', { headers: { authorization: 'Bearer k' } })).json, { id: 1, name: 'Kept', categoryId: 3 });
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main --repair backs up a damaged data file, cuts it, says so and exits 0; a healthy one is left alone', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-repair-'));
    const dataFile = join(directory, 'pets.journal');
    try {
      const server = spawnServer({ PETSTORE_API_KEYS: 'k', PETSTORE_DATA: dataFile });
      await server.ready;
      for (const name of ['One', 'Two', 'Three']) {
        await call(server, 'POST', '/v1/pets', { headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
      }
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);

      const healthy = await runMain({ PETSTORE_DATA: dataFile }, ['--repair']);
      assert.equal(healthy.code, 0);
      assert.match(healthy.stdout, /no damage found, nothing changed \(3 pets\)/);

      const bytes = await readFile(dataFile);
      const middle = Math.floor(bytes.length / 2);
      bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
      await writeFile(dataFile, bytes);
      const refused = await runMain({ PETSTORE_API_KEYS: 'k', PETSTORE_DATA: dataFile });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /corrupt at byte offset \d+/);

      const repaired = await runMain({ PETSTORE_DATA: dataFile }, ['--repair']);
      assert.equal(repaired.code, 0, repaired.stderr);
      assert.match(repaired.stdout, /cut at byte offset \d+/);
      assert.ok((await readdir(directory)).some((file) => file.endsWith('.bak')), 'a backup was written');
      const restarted = spawnServer({ PETSTORE_API_KEYS: 'k', PETSTORE_DATA: dataFile });
      await restarted.ready;
      restarted.child.kill('SIGTERM');
      assert.equal(await restarted.exited, 0);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main stops on SIGTERM and SIGINT with exit code 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = spawnServer({ PETSTORE_API_KEYS: 'k' });
      await server.ready;
      server.child.kill(signal);
      assert.equal(await server.exited, 0, signal);
      assert.match(server.stderr(), new RegExp(`${signal} received`));
    }
  });
});
