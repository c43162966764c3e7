import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildPackage } from '../../support/runtimes.js';
import type { PackageBuild } from '../../support/runtimes.js';

const KEY = 'log-reader-key-0123456789';
/**
 * The command compiled into a directory of its own, as `npm start` runs it from `dist/`: not `dist/`
 * itself, which a fresh clone has not built and which test/readme.test.ts rebuilds while tests run.
 */
let compiledCli = '';

/** The compiled command, its stdout and stderr piped to this test, which reads until the URL is printed and no further. */
async function startCompiled(args: readonly string[]): Promise<{ child: ChildProcess; url: string; exited: Promise<number | string> }> {
  const child = spawn(process.execPath, [compiledCli, ...args], {
    env: { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  let stdout = '';
  const url = await new Promise<string>((found, fail) => {
    const onData = (data: Buffer): void => {
      stdout += data.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] === undefined) return;
      child.stdout?.off('data', onData);
      found(match[1]);
    };
    child.stdout?.on('data', onData);
    exited.then((code) => fail(new Error(`exited with ${code} before listening`)));
  });
  return { child, url, exited };
}

/** One request with the key; the status, or the error's code when the connection failed. */
function send(url: string, method: string, path: string, body?: string): Promise<number | string> {
  return new Promise((done) => {
    const target = new URL(url);
    const outgoing = request({ host: target.hostname, port: target.port, method, path, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, (response) => {
      response.resume().on('end', () => done(response.statusCode ?? 0));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    outgoing.end(body);
  });
}

/** GET a path and its body as text. */
async function text(url: string, path: string): Promise<string> {
  const answer = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${KEY}` } });
  return answer.text();
}

describe('the compiled command with log readers that go away or stall', () => {
  let directory = '';
  let build: PackageBuild | undefined;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-log-readers-'));
    build = await buildPackage();
    compiledCli = join(build.dist, 'extras', 'cli', 'main.js');
  });
  after(async () => {
    await rm(directory, { recursive: true, force: true });
    await build?.remove();
  });

  test('main whose stdout and stderr readers close early (| head -1) keeps serving, drains on SIGTERM and exits 0', async (context) => {
    const dataFile = join(directory, 'closed.journal');
    const server = await startCompiled(['--data', dataFile, '--access-log', '--log-level', 'debug', '--shutdown-delay', '1']);
    context.after(() => void server.child.kill('SIGKILL'));
    // As `| head -1` does: the first line read, then both pipes closed, so every later write fails with EPIPE.
    server.child.stdout?.destroy();
    server.child.stderr?.destroy();
    const origin = new URL(server.url).origin;
    const statuses: (number | string)[] = [];
    for (let index = 0; index < 20; index++) statuses.push(await send(origin, 'POST', '/v1/pets', JSON.stringify({ name: `Pet ${index}`, categoryId: 1 })));
    server.child.kill('SIGTERM');
    // The drain: still served during the shutdown delay, while the signal's own log lines fail to be written.
    const duringDrain = await send(origin, 'POST', '/v1/pets', '{"name":"Late","categoryId":1}');
    assert.equal(await server.exited, 0, 'the exit after a finished shutdown');
    assert.deepEqual(statuses, Array(20).fill(201));
    assert.equal(duringDrain, 201);
    assert.deepEqual((await readdir(directory)).filter((file) => file.startsWith('closed')), ['closed.journal'], 'the store was closed: its lock is released');
    const restarted = await startCompiled(['--data', dataFile]);
    try {
      const listed = JSON.parse(await text(restarted.url, `${new URL(restarted.url).pathname}/pets?limit=100`)) as unknown[];
      assert.equal(listed.length, 21, 'every acknowledged pet is there');
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  });

  test('main whose stdout reader stalls drops log lines past the bound, counts them in petstore_log_lines_dropped_total, and still shuts down with exit 0', async (context) => {
    const server = await startCompiled(['--access-log', '--metrics']);
    context.after(() => void server.child.kill('SIGKILL'));
    // Never read again: the pipe and this side's buffer fill, then the server's own bound.
    server.child.stdout?.pause();
    const origin = new URL(server.url).origin;
    // Each 404 writes an access-log line of about 8 KB (its path): 400 of them are three times the 1 MiB bound.
    const longPath = `/v1/${'p'.repeat(8000)}`;
    const statuses = new Set<number | string>();
    for (let index = 0; index < 400; index++) statuses.add(await send(origin, 'GET', longPath));
    assert.deepEqual([...statuses], [404], 'every request is answered while the reader stalls');
    const metrics = await text(origin, '/metrics');
    const dropped = /^petstore_log_lines_dropped_total\{stream="stdout"\} (\d+)$/m.exec(metrics);
    assert.ok(dropped?.[1] !== undefined, metrics);
    assert.ok(Number(dropped[1]) > 0, `lines were dropped: ${dropped[0]}`);
    assert.match(metrics, /^petstore_log_lines_dropped_total\{stream="stderr"\} 0$/m);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });
});
