import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after } from 'node:test';

/** The balancers the fleet's tests run, by the name of their Debian package and program. */
export type BalancerName = 'nginx' | 'haproxy';

/** A running balancer, started by a test in a temporary directory of its own. */
export interface Balancer {
  /** Its origin on loopback, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** What it wrote to its error log (nginx) or its output (HAProxy), for a failed test's message. */
  log(): Promise<string>;
  /** Stops it and deletes its directory; safe to call twice. */
  stop(): Promise<void>;
}

/** Where a balancer's program is: /usr/sbin (Debian's place, outside a user's PATH), else PATH. */
export function findBalancer(name: BalancerName): string | undefined {
  const places = ['/usr/sbin', ...(process.env['PATH'] ?? '').split(delimiter).filter((directory) => directory !== '')];
  return places.map((directory) => join(directory, name)).find((file) => existsSync(file));
}

/**
 * Why a balancer's tests are skipped, or false when its program is installed. In CI (CI=true) a
 * missing program is a failure, not a skip, as for PostgreSQL: `.ci/run` installs Debian's package.
 */
export function balancerSkip(name: BalancerName): string | false {
  if (findBalancer(name) !== undefined) return false;
  const missing = `${name} not found (looked in /usr/sbin and PATH); install the Debian package \`${name}\` to run these tests`;
  if (process.env['CI'] === 'true') throw new Error(`${missing}. In CI this is a failure, not a skip.`);
  return missing;
}

/**
 * The whole nginx configuration around the `upstream` and `server` blocks the docs give (`http`):
 * foreground, one process, and every path in the test's directory, so nothing outside it is written.
 */
function nginxConfiguration(directory: string, http: string): string {
  return [
    'daemon off;',
    'master_process off;',
    'worker_processes 1;',
    `pid ${join(directory, 'nginx.pid')};`,
    `error_log ${join(directory, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '    access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${join(directory, kind)};`),
    http,
    '}',
    '',
  ].join('\n');
}

/** The HAProxy configuration: a `global` section keeping everything in the test's directory, then the docs' sections. */
function haproxyConfiguration(directory: string, sections: string): string {
  return ['global', `    pidfile ${join(directory, 'haproxy.pid')}`, '    log stderr format short local0 notice', '', sections, ''].join('\n');
}

/** Resolves once `origin` answers anything at all over HTTP; rejects when the process ends first or after `giveUpMs`. */
async function waitUntilAnswering(origin: string, child: ChildProcess, giveUpMs: number): Promise<void> {
  const deadline = Date.now() + giveUpMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the balancer exited with ${child.exitCode ?? child.signalCode}`);
    try {
      await (await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1_000) })).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`the balancer did not answer on ${origin} within ${giveUpMs} ms`);
}

/**
 * Starts nginx or HAProxy in the foreground with `configuration` (the docs' blocks, ports already
 * substituted) in a new temporary directory, listening on `port` of 127.0.0.1, and resolves once it
 * answers. It is killed and its directory deleted after the file's tests, or by `stop()`.
 */
export async function startBalancer(name: BalancerName, configuration: string, port: number): Promise<Balancer> {
  const program = findBalancer(name);
  if (program === undefined) throw new Error(`${name} is not installed`);
  const directory = await mkdtemp(join(tmpdir(), `petstore-${name}-`));
  const file = join(directory, `${name}.conf`);
  await writeFile(file, name === 'nginx' ? nginxConfiguration(directory, configuration) : haproxyConfiguration(directory, configuration));
  const args = name === 'nginx' ? ['-p', directory, '-e', join(directory, 'error.log'), '-c', file] : ['-db', '-f', file];
  const child = spawn(program, args, { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] });
  let written = '';
  child.stdout?.on('data', (data: Buffer) => void (written += data.toString('utf8')));
  child.stderr?.on('data', (data: Buffer) => void (written += data.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let isStopped = false;
  const balancer: Balancer = {
    origin: `http://127.0.0.1:${port}`,
    async log() {
      const errors = await readFile(join(directory, 'error.log'), 'utf8').catch(() => '');
      return `${written}${errors}`;
    },
    async stop() {
      if (isStopped) return;
      isStopped = true;
      child.kill('SIGKILL');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
  after(() => balancer.stop());
  try {
    await waitUntilAnswering(balancer.origin, child, 20_000);
  } catch (error) {
    const log = await balancer.log();
    await balancer.stop();
    throw new Error(`${name} did not start with this configuration:\n${configuration}\n${log}`, { cause: error });
  }
  return balancer;
}
