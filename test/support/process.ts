import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { TOOLS_REGISTER } from '../tools/paths.js';

/** Root of the repository. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** A standalone server process started from extras/cli/main.ts. */
export interface ServerProcess {
  child: ChildProcess;
  /** Base URL printed by the server, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  origin: string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or signal name) once the process has ended and its output has been read. */
  exited: Promise<number | string>;
  /**
   * Resolves with the first match of `pattern` in stderr (what was written already included); rejects
   * if the process ends first, or after `giveUpMs` (a guard against a hanging test, not a measure of speed).
   */
  waitForStderr: (pattern: RegExp, giveUpMs?: number) => Promise<RegExpExecArray>;
}

/** Options of spawnServer. */
export interface SpawnServerOptions {
  /** A compiled `extras/cli/main.js` to run on node alone, which starts several times faster. Default: extras/cli/main.ts through tsx. */
  compiledMain?: string;
}

/** Runs extras/cli/main.ts through tsx (or a compiled main) with `env` added to a clean environment and `PORT=0`. */
export function spawnServer(env: Record<string, string>, args: readonly string[] = [], options: SpawnServerOptions = {}): ServerProcess & { ready: Promise<void> } {
  // The test tools' hook lets the CLI's `import('pg')` find the driver in test/tools/node_modules.
  const main = options.compiledMain === undefined ? ['--import', 'tsx', '--import', TOOLS_REGISTER, resolve(ROOT, 'extras', 'cli', 'main.ts')] : [options.compiledMain];
  const child = spawn(process.execPath, [...main, ...args], {
    cwd: ROOT,
    // NODE_V8_COVERAGE passes through so c8 measures the child as well; a compiled build has no source maps to lead it back to the sources.
    env: { PATH: process.env['PATH'] ?? '', NODE_V8_COVERAGE: options.compiledMain === undefined ? (process.env['NODE_V8_COVERAGE'] ?? '') : '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // 'close', not 'exit': by then stdout and stderr have been read to their end.
  const exited = new Promise<number | string>((done) => child.once('close', (code, signal) => done(code ?? signal ?? -1)));
  const waiters = new Set<() => void>();
  const waitForStderr = (pattern: RegExp, giveUpMs = 60_000): Promise<RegExpExecArray> => new Promise((found, fail) => {
    const giveUp = setTimeout(() => {
      if (waiters.delete(check)) fail(new Error(`stderr did not match ${pattern} within ${giveUpMs} ms: ${stderr}`));
    }, giveUpMs);
    const check = (): void => {
      const match = pattern.exec(stderr);
      if (match === null) return;
      waiters.delete(check);
      clearTimeout(giveUp);
      found(match);
    };
    waiters.add(check);
    check();
    exited.then((code) => {
      if (!waiters.delete(check)) return;
      clearTimeout(giveUp);
      fail(new Error(`exited with ${code} before stderr matched ${pattern}: ${stderr}`));
    });
  });
  const result = {
    child,
    url: '',
    origin: '',
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStderr,
    ready: Promise.resolve(),
  };
  result.ready = new Promise<void>((ready, fail) => {
    child.stdout?.on('data', (data: Buffer) => {
      stdout += data.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] !== undefined && result.url === '') {
        result.url = match[1];
        result.origin = new URL(match[1]).origin;
        ready();
      }
    });
    child.stderr?.on('data', (data: Buffer) => {
      stderr += data.toString('utf8');
      for (const check of [...waiters]) check();
    });
    exited.then((code) => fail(new Error(`server exited with ${code} before listening: ${stderr}`)));
  });
  return result;
}

/** Runs extras/cli/main.ts to completion (for --help and configuration errors). */
export async function runMain(env: Record<string, string>, args: readonly string[] = []): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const server = spawnServer(env, args);
  server.ready.catch(() => {});
  const code = await server.exited;
  return { code, stdout: server.stdout(), stderr: server.stderr() };
}

/** The JSON lines of a process's output (structured log events on stderr, access log lines on stdout), parsed; other lines are left out. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Starts a server that should be refused; one that starts listening instead is stopped, and its code is `listening`. */
export async function startRefused(env: Record<string, string>): Promise<{ code: number | string; stderr: string }> {
  const server = spawnServer(env);
  const outcome = await Promise.race([server.exited, server.ready.then(() => 'listening', () => 'exited')]);
  if (outcome === 'listening') {
    server.child.kill('SIGTERM');
    await server.exited;
    return { code: 'listening', stderr: server.stderr() };
  }
  return { code: await server.exited, stderr: server.stderr() };
}

/** Stops a server with SIGTERM and checks that it exits cleanly. */
export async function stopServer(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.stderr());
}
