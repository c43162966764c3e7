import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ALL_SETTINGS } from '../../../extras/cli/settings.js';
import { freezePet } from '../../../lib/validate.js';
import { encodeHeader, encodePetRecord } from '../../../extras/file-storage/journal-format.js';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { call } from '../../support/http.js';
import { jsonLines, ROOT, runMain, spawnServer } from '../../support/process.js';

const KEY = 'main-test-key-0123456';
const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('extras/cli/main.ts', () => {
  test('main --help lists the commands, and serve --help every setting, its variable and the signals', async () => {
    const top = await runMain({}, ['--help']);
    assert.equal(top.code, 0);
    for (const command of ['serve', 'openapi', 'repair', 'conformance', '--version']) assert.ok(top.stdout.includes(command), command);
    // The guides the README links to, found from the command's own place, as an installed copy finds its own.
    assert.ok(top.stdout.endsWith(`Documentation, installed with this command:\n  ${join(ROOT, 'docs')}\n  the guides the README links to; README.md is in the folder above\n`), top.stdout);
    const serve = await runMain({}, ['serve', '--help']);
    assert.equal(serve.code, 0);
    for (const setting of ALL_SETTINGS) {
      assert.ok(serve.stdout.includes(setting.env), setting.env);
      if (setting.flag !== undefined) assert.ok(serve.stdout.includes(setting.flag), setting.flag);
    }
    for (const word of ['SIGTERM', 'SIGHUP', '/healthz', '/readyz', '/metrics']) assert.ok(serve.stdout.includes(word), word);
    assert.equal((await runMain({}, ['--port', '1', '-h'])).stdout, serve.stdout, 'serve is the default command');
  });

  test('main repair --help lists only what repair takes: --data as required, --salvage, --log-level, and no earlier spelling', async () => {
    const { code, stdout } = await runMain({}, ['repair', '--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: petstore-reference repair --data <file> \[--salvage\]$/m);
    assert.deepEqual(stdout.split('\n').filter((line) => /^ {2}-/.test(line)).map((line) => line.trim().split(' ')[0]), ['--data', '--salvage', '--log-level', '-h,']);
    assert.match(stdout, /--data <file> +PETSTORE_DATA\n.*\n {6}default: none: required\n/);
    assert.doesNotMatch(stdout, /in memory|--repair|--port|--api-keys/);
  });

  test('main repair --salvage keeps the intact records after the damage and says where the dropped bytes went', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-salvage-'));
    const dataFile = join(directory, 'pets.journal');
    try {
      const storage = await createFileStorage(dataFile, { log: () => undefined });
      for (const name of ['One', 'Two', 'Three']) await storage.insert({ name, categoryId: 1 });
      await storage.close();
      const bytes = await readFile(dataFile);
      // The name of the second record: its checksum fails, the third record stays intact.
      bytes[16 + 29 + 20] = (bytes[16 + 29 + 20] ?? 0) ^ 0x5a;
      await writeFile(dataFile, bytes);
      const salvaged = await runMain({ PETSTORE_DATA: dataFile }, ['repair', '--salvage']);
      assert.equal(salvaged.code, 0, salvaged.stderr);
      assert.match(salvaged.stdout, /: salvaged from the first damage at byte offset 45 \(record checksum mismatch\): 2 pets kept, 1 of them after the damage; 29 bytes dropped, kept in .*\.dropped; the file as it was is in .*\.bak\n$/);
      const reopened = await createFileStorage(dataFile, { log: () => undefined });
      assert.deepEqual((await reopened.list({ status: undefined, after: 0, limit: 10 })).map((pet) => pet.name), ['One', 'Three']);
      await reopened.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main --version prints the version of package.json', async () => {
    const { code, stdout } = await runMain({}, ['--version']);
    assert.equal(code, 0);
    assert.equal(stdout, `${VERSION}\n`);
  });

  test('main openapi prints the document the server serves, as openapi.json holds it', async () => {
    const { code, stdout } = await runMain({}, ['openapi']);
    assert.equal(code, 0);
    assert.equal(stdout, await readFile(join(ROOT, 'openapi.json'), 'utf8'));
  });

  test('main refuses an unknown command, flag or bad value with exit code 2, naming it and what is accepted', async () => {
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ PORT: 'abc' }, [], /^petstore-reference: PORT must be an integer from 0 to 65535, not "abc"\n$/],
      [{}, ['--port', '70000'], /^petstore-reference: --port must be an integer from 0 to 65535, not "70000"\n$/],
      [{}, ['--bogus'], /^petstore-reference: unknown argument "--bogus": serve accepts --port, --host, .*; see petstore-reference serve --help\n$/],
      [{}, ['srve'], /^petstore-reference: unknown command "srve": the commands are serve, openapi, repair, conformance; see petstore-reference --help\n$/],
      [{}, ['--metrics=maybe'], /^petstore-reference: --metrics must be 1, true, yes \(on\) or 0, false, no \(off\), in any case, not "maybe"\n$/],
      [{ PETSTORE_ACCESS_LOG: 'on' }, [], /PETSTORE_ACCESS_LOG must be 1, true, yes \(on\) or 0, false, no \(off\)/],
      [{ PETSTORE_LOG_LEVEL: 'loud' }, [], /PETSTORE_LOG_LEVEL must be one of "error", "warn", "info", "debug", not "loud"/],
      [{}, ['--shutdown-delay', 'soon'], /--shutdown-delay must be a number of seconds from 0 to 3600, not "soon"/],
      [{}, ['--cors-origins', 'example.com'], /--cors-origins must be "\*" or a comma-separated list of origins/],
      [{}, ['openapi', '--port', '1'], /--port is not an option of openapi/],
      [{}, ['--api-keys', 'k'], /--api-keys is not an option: a command line is visible to every user/],
    ];
    for (const [env, argv, message] of cases) {
      const { code, stdout, stderr } = await runMain(env, argv);
      assert.equal(code, 2, argv.join(' '));
      assert.match(stderr, message);
      assert.equal(stdout, '');
    }
  });

  test('main takes a flag over its variable, as --name value or --name=value', async () => {
    for (const args of [['--port', '0', '--host', '127.0.0.1'], ['serve', '--port=0', '--host=127.0.0.1']]) {
      const server = spawnServer({ PORT: 'not-a-port', HOST: 'not-a-host', PETSTORE_API_KEYS: KEY }, args);
      try {
        await server.ready;
        assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      } finally {
        server.child.kill('SIGTERM');
        assert.equal(await server.exited, 0);
      }
    }
  });

  test('main without keys prints a development key once to stdout, and that key works', async () => {
    const server = spawnServer({});
    try {
      await server.ready;
      const match = /development key for this run only: (\S+)/.exec(server.stdout());
      assert.ok(match?.[1] !== undefined, server.stdout());
      assert.equal(server.stdout().split(match[1]).length, 2, 'printed exactly once');
      assert.ok(!server.stderr().includes(match[1]));
      assert.equal((await call(server, 'GET', '/v1/pets')).status, 401);
      assert.equal((await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${match[1]}` } })).status, 200);
      assert.ok(jsonLines(server.stderr()).some((line) => line['msg'] === 'API keys generated for this run' && line['keys'] === 1));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('main accepts each comma-separated key of PETSTORE_API_KEYS, with a comment after #, and serves /healthz', async () => {
    const server = spawnServer({ PETSTORE_API_KEYS: ' alpha-key-0123456789 , beta-key-0123456789,, # rotated 2026-11' });
    try {
      await server.ready;
      for (const key of ['alpha-key-0123456789', 'beta-key-0123456789']) assert.equal((await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status, 200);
      assert.equal((await call(server, 'GET', '/healthz')).status, 200);
      assert.ok(!server.stderr().includes('development key'));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  test('main with the access log on (PETSTORE_ACCESS_LOG=true or --access-log) writes one JSON line per request on stdout and never a header', async () => {
    const key = 'access-log-secret-key';
    for (const [env, args] of [[{ PETSTORE_ACCESS_LOG: 'true' }, []], [{}, ['--access-log']]] as const) {
      const server = spawnServer({ PETSTORE_API_KEYS: key, ...env }, args);
      try {
        await server.ready;
        await call(server, 'POST', '/v1/pets', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"Logged","categoryId":1}' });
        await call(server, 'GET', '/v1/pets?limit=5', { headers: { authorization: `Bearer ${key}` } });
        await call(server, 'GET', '/v1/pets', { headers: { authorization: 'Bearer wrong-guess' } });
      } finally {
        server.child.kill('SIGTERM');
        assert.equal(await server.exited, 0);
      }
      const lines = jsonLines(server.stdout());
      assert.deepEqual(lines.map((line) => [line['method'], line['path'], line['status']]), [['POST', '/v1/pets', 201], ['GET', '/v1/pets', 200], ['GET', '/v1/pets', 401]]);
      for (const line of lines) {
        assert.equal(typeof line['requestId'], 'string');
        assert.equal(typeof line['durationMs'], 'number');
      }
      const everything = server.stdout() + server.stderr();
      assert.ok(!everything.includes(key), 'the key is never written');
      assert.ok(!everything.includes('wrong-guess'), 'a rejected token is never written');
    }
  });

  test('main refuses contradictory settings with exit code 2, naming the flags or variables', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-main-conflicts-'));
    const keyFile = join(directory, 'keys');
    await writeFile(keyFile, 'file-key\n');
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ PETSTORE_DATA: '/tmp/x.journal', PETSTORE_DATABASE_URL: 'postgres://127.0.0.1/x' }, [], /PETSTORE_DATA and PETSTORE_DATABASE_URL are both set: choose one storage/],
      [{ PETSTORE_DATABASE_URL: 'postgres://127.0.0.1/x' }, ['--data', '/tmp/x.journal'], /--data and PETSTORE_DATABASE_URL are both set: choose one storage/],
      [{ PETSTORE_DURABILITY: 'write' }, [], /PETSTORE_DURABILITY applies only with a data file \(--data or PETSTORE_DATA\)/],
      [{ PETSTORE_API_KEYS: KEY }, ['--api-keys-file', keyFile], /PETSTORE_API_KEYS and --api-keys-file are both set: choose one/],
      [{ PETSTORE_DATABASE_URL: 'postgres://127.0.0.1/x' }, ['--max-pets', '10'], /--max-pets bounds the pets kept in memory \(in memory or with --data\); PostgreSQL \(PETSTORE_DATABASE_URL\) keeps them in the database/],
      [{}, ['repair'], /repair needs --data \(or PETSTORE_DATA\)/],
      [{}, ['--repair'], /repair needs --data \(or PETSTORE_DATA\)/],
    ];
    try {
      for (const [env, args, message] of cases) {
        const { code, stderr } = await runMain(env, args);
        assert.equal(code, 2, JSON.stringify([env, args]));
        assert.match(stderr, message);
        assert.ok(!stderr.includes('file-key'));
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main refuses a --data file with more pets than --max-pets in one line with exit code 2, and with room answers a create past it with 507', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-main-capacity-'));
    const path = join(directory, 'pets.journal');
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    try {
      const first = spawnServer({ PETSTORE_API_KEYS: KEY }, ['--data', path, '--durability', 'write']);
      await first.ready;
      for (const name of ['Rex', 'Tom', 'Kit']) assert.equal((await call(first, 'POST', '/v1/pets', { headers, body: JSON.stringify({ name, categoryId: 1 }) })).status, 201);
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
      const refused = await runMain({ PETSTORE_API_KEYS: KEY, PETSTORE_MAX_PETS: '2', PETSTORE_LOG_LEVEL: 'warn' }, ['--data', path]);
      assert.equal(refused.code, 2);
      assert.equal(refused.stderr, `petstore-reference: Cannot open data file ${path}: it holds more than 2 pets, the capacity (\`capacity.maxPets\`); raise --max-pets (PETSTORE_MAX_PETS)\n`);
      const full = spawnServer({ PETSTORE_API_KEYS: KEY }, ['--data', path, '--max-pets', '3']);
      await full.ready;
      try {
        const create = await call(full, 'POST', '/v1/pets', { headers, body: '{"name":"Max","categoryId":1}' });
        assert.equal(create.status, 507);
        assert.equal((create.json as { code: string }).code, 'insufficient_storage');
        assert.equal((await call(full, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${KEY}` } })).status, 200);
      } finally {
        full.child.kill('SIGTERM');
        await full.exited;
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  // The timeout turns a server that starts when it should refuse into a failure, instead of a run that waits for its exit forever.
  test('main refuses a --data file too big for the heap in one line with exit code 2, saying what it needs and the --max-old-space-size that holds it', { timeout: 120_000 }, async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-main-heap-'));
    const path = join(directory, 'pets.journal');
    const records = Array.from({ length: 10_000 }, (_, index) => encodePetRecord(freezePet(index + 1, { name: '🐶'.repeat(256), categoryId: 1 })));
    await writeFile(path, Buffer.concat([encodeHeader(), ...records]));
    try {
      const refused = await runMain({ PETSTORE_API_KEYS: KEY, PETSTORE_LOG_LEVEL: 'warn', NODE_OPTIONS: '--max-old-space-size=48' }, ['--data', path]);
      assert.equal(refused.code, 2);
      assert.equal(refused.stderr.split('\n').length, 2, refused.stderr);
      assert.match(refused.stderr, /^petstore-reference: Cannot open data file .*: its 10,500,016 bytes hold pets that need at least 2\.0 MiB of memory, more than the 1\.6 MiB set aside for pets/);
      assert.match(refused.stderr, /pets may take 70% of the 48\.0 MiB old space less 32\.0 MiB: start node with --max-old-space-size=49 or more \(in NODE_OPTIONS\), or keep the pets in PostgreSQL \(--database-url\)\n$/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main --durability write serves from the --data file and keeps pets across restarts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-main-'));
    const args = ['--data', join(directory, 'pets.journal'), '--durability', 'write'];
    try {
      const first = spawnServer({ PETSTORE_API_KEYS: KEY }, args);
      await first.ready;
      const created = await call(first, 'POST', '/v1/pets', { headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"name":"Kept","categoryId":3}' });
      assert.equal(created.status, 201);
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
      assert.ok(jsonLines(first.stderr()).some((line) => line['msg'] === 'Storage opened' && line['storage'] === 'file' && line['file'] === args[1]));
      const second = spawnServer({ PETSTORE_API_KEYS: KEY }, args);
      await second.ready;
      try {
        assert.deepEqual((await call(second, 'GET', '/v1/pets/1', { headers: { authorization: `Bearer ${KEY}` } })).json, { id: 1, name: 'Kept', categoryId: 3 });
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main repair (and --repair) backs up a damaged data file, cuts it, says so and exits 0; a healthy one is left alone', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-repair-'));
    const dataFile = join(directory, 'pets.journal');
    try {
      const server = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile });
      await server.ready;
      for (const name of ['One', 'Two', 'Three']) {
        await call(server, 'POST', '/v1/pets', { headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
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
      const refused = await runMain({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /^petstore-reference: Data file .* is corrupt at byte offset \d+/);

      const repaired = await runMain({}, ['repair', '--data', dataFile]);
      assert.equal(repaired.code, 0, repaired.stderr);
      assert.match(repaired.stdout, /cut at byte offset \d+/);
      assert.ok((await readdir(directory)).some((file) => file.endsWith('.bak')), 'a backup was written');
      const restarted = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile });
      await restarted.ready;
      restarted.child.kill('SIGTERM');
      assert.equal(await restarted.exited, 0);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('main stops on SIGTERM and SIGINT with exit code 0, logging the signal and the exit', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = spawnServer({ PETSTORE_API_KEYS: KEY });
      await server.ready;
      server.child.kill(signal);
      assert.equal(await server.exited, 0, signal);
      const events = jsonLines(server.stderr()).filter((line) => line['signal'] === signal).map((line) => line['msg']);
      assert.deepEqual([events[0], events.at(-1)], ['Signal received', 'Process exiting'], signal);
    }
  });

  test('main writes one JSON event per line on stderr, filtered by --log-level', async () => {
    for (const [level, expected] of [['info', ['API keys loaded', 'Storage opened', 'Server listening']], ['warn', []], ['error', []]] as const) {
      const server = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_LOG_LEVEL: level });
      await server.ready;
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
      const lines = server.stderr().split('\n').filter((line) => line !== '');
      const events = jsonLines(server.stderr());
      assert.equal(events.length, lines.length, 'every line of stderr is a JSON event');
      for (const event of events) {
        assert.match(String(event['time']), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.ok(['error', 'warn', 'info', 'debug'].includes(String(event['level'])));
        assert.equal(typeof event['msg'], 'string');
      }
      for (const msg of expected) assert.ok(events.some((event) => event['msg'] === msg), `${level}: ${msg}`);
      if (level !== 'info') assert.deepEqual(events.filter((event) => event['level'] === 'info' || event['level'] === 'debug'), [], level);
    }
  });
});
