import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { listenProblem } from '../../../extras/cli/listen-error.js';
import { runMain } from '../../support/process.js';

const ENV = { PETSTORE_API_KEYS: 'listen-test-key-0123456789' };

/** Asserts a run ended with status 2 and, as its last line, this one plain line: no stack, no JSON. */
function assertOneLine(result: { code: number | string; stderr: string }, message: RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  assert.match(lines.at(-1) ?? '', message);
  assert.ok(!result.stderr.includes('    at '), `no stack trace: ${result.stderr}`);
  assert.ok(lines.slice(0, -1).every((line) => line.startsWith('{')), 'every other line is a JSON event');
}

/** The first port an unprivileged process may bind, or undefined where the kernel does not say. */
async function unprivilegedPortStart(): Promise<number | undefined> {
  const text = await readFile('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.trim());
}

const isRoot = process.getuid?.() === 0;

describe('cli listen errors', () => {
  test('main on a port in use (EADDRINUSE) says so in one line naming --port, exit 2, no stack', async () => {
    const occupier = createServer();
    await new Promise<void>((listening) => occupier.listen(0, '127.0.0.1', listening));
    const { port } = occupier.address() as AddressInfo;
    try {
      const result = await runMain(ENV, ['--port', String(port), '--host', '127.0.0.1']);
      assertOneLine(result, new RegExp(`^petstore-reference: cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is in use by another process: choose another --port \\(or PORT\\)`));
    } finally {
      occupier.close();
    }
  });

  test('main on an address not of this host (EADDRNOTAVAIL, 192.0.2.1 of TEST-NET-1: nothing is sent) says so in one line naming --host, exit 2, no stack', async () => {
    const result = await runMain(ENV, ['--host', '192.0.2.1']);
    assertOneLine(result, /^petstore-reference: cannot listen on 192\.0\.2\.1:0: 192\.0\.2\.1 is not an address of this machine: choose a --host \(or HOST\)/);
  });

  test('main on a privileged port without the privilege (EACCES) says so in one line naming --port, exit 2, no stack', { skip: isRoot ? 'running as root, which may bind any port: EACCES cannot happen' : false }, async (context) => {
    const start = await unprivilegedPortStart();
    if (start !== undefined && start <= 80) return context.skip(`this kernel lets every user bind ports from ${start}`);
    const result = await runMain(ENV, ['--port', '80', '--host', '127.0.0.1']);
    assertOneLine(result, /^petstore-reference: cannot listen on 127\.0\.0\.1:80: permission to use port 80 is denied \(ports below 1024 need privileges\): choose a --port \(or PORT\) of 1024 or more/);
  });
});

describe('listenProblem()', () => {
  test('listenProblem() words each failure an operator can fix, and leaves any other to the caller', () => {
    const failure = (code: string): Error => Object.assign(new Error(`listen ${code}`), { code });
    const target = { host: '::1', port: 443 };
    assert.match(listenProblem(failure('EACCES'), target) ?? '', /^cannot listen on ::1:443: permission to use port 443 is denied/);
    assert.match(listenProblem(failure('EADDRINUSE'), target) ?? '', /port 443 is in use by another process/);
    assert.match(listenProblem(failure('EADDRNOTAVAIL'), target) ?? '', /::1 is not an address of this machine/);
    assert.match(listenProblem(failure('ENOTFOUND'), { host: 'nowhere.invalid', port: 1 }) ?? '', /nowhere\.invalid is not a host name this machine can resolve/);
    for (const other of [failure('EMFILE'), new Error('odd'), 'text']) assert.equal(listenProblem(other, target), undefined);
  });
});
