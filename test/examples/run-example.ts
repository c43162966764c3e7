import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** Root of the repository. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** An example running as its own process, as `npx tsx examples/<file>` runs it. */
export interface RunningExample {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first match of `pattern` in stdout, failing if the process exits first. */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  /** Resolves with the exit code, or the signal name. */
  exited: Promise<number | string>;
}

/**
 * Starts `examples/<file>` through tsx in a clean environment plus `env`: no inherited test-runner
 * variables, so an example that runs node:test reports as a program of its own would.
 */
export function runExample(file: string, env: Record<string, string> = {}, command: readonly string[] = [process.execPath, '--import', 'tsx']): RunningExample {
  const [executable = process.execPath, ...prefix] = command;
  const child = spawn(executable, [...prefix, resolve(ROOT, 'examples', file)], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NODE_V8_COVERAGE: process.env['NODE_V8_COVERAGE'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (data: Buffer) => {
    stdout += data.toString('utf8');
  });
  child.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString('utf8');
  });
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  function waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((found, fail) => {
      const check = (): void => {
        const match = pattern.exec(stdout);
        if (match === null) return;
        child.stdout?.off('data', check);
        found(match);
      };
      child.stdout?.on('data', check);
      check();
      exited.then((code) => fail(new Error(`examples/${file} exited with ${code} before printing ${pattern}: ${stderr}`)));
    });
  }
  return { child, stdout: () => stdout, stderr: () => stderr, waitFor, exited };
}
