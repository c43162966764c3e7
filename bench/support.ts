import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createPetstore } from '../lib/index.js';
import type { PetStorage } from '../lib/index.js';

/** Repository root. */
export const ROOT = resolve(import.meta.dirname, '..');

/** Runs a command and returns its stdout. */
export const run = promisify(execFile);

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Whether a command is on PATH. */
export async function hasCommand(name: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${name}`]).then(() => true, () => false);
}

/** Prefix that pins a command to a CPU core (or a list such as `0,1`) when `taskset` is available. */
export async function pinnedTo(core: number | string): Promise<string[]> {
  return (await hasCommand('taskset')) ? ['taskset', '-c', String(core)] : [];
}

/**
 * Options of `startProcess`: the core to pin the process to with `taskset`; the pattern of the
 * stdout line that says it is ready (ending with `\n`, so a line read in two chunks is never matched
 * half-way); its whole environment (default this process's) and working directory (default the
 * repository root); how long to wait for the ready line before it is stopped (default no limit).
 */
export interface StartProcessOptions {
  core?: number | string;
  ready: RegExp;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
}

/** Starts a compiled Node script, optionally pinned, and waits for a stdout line matching `ready`. */
export async function startProcess(args: readonly string[], options: StartProcessOptions): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const command = [...(options.core === undefined ? [] : await pinnedTo(options.core)), process.execPath, ...args];
  const child = spawn(command[0] as string, command.slice(1), { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  let output = '';
  let timer: NodeJS.Timeout | undefined;
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const found = options.ready.exec(output);
      if (found !== null) done(found);
    });
    child.stderr?.on('data', (data: Buffer) => { output += data.toString(); });
    child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
    if (options.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        fail(new Error(`${args.join(' ')} printed no line matching ${options.ready} within ${options.timeoutMs} ms: ${output}`));
        child.kill('SIGKILL');
      }, options.timeoutMs);
    }
  }).finally(() => clearTimeout(timer));
  return { child, match };
}

/** Stops a child process and waits for it. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

/**
 * Runs `node <args>` on the latest release of a Node major, fetched by the test matrix's installer
 * (scripts/test-node.sh) and first on PATH, so every process it starts (`npm run build` too) runs on
 * that Node; output inherited. Resolves with its exit code.
 */
export async function runOnNode(major: string, args: readonly string[]): Promise<number> {
  const { stdout } = await run('bash', [resolve(ROOT, 'scripts', 'test-node.sh'), major, '--install'], { cwd: ROOT });
  const folder = stdout.trim().split('\n').at(-1) ?? '';
  const env = { ...process.env, PATH: `${folder}${delimiter}${process.env['PATH'] ?? ''}` };
  const child = spawn(join(folder, 'node'), args, { cwd: ROOT, stdio: 'inherit', env });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}

const STATUSES = ['available', 'pending', 'sold'] as const;

/** The pet of index `index` of the in-process figures: a 10-character name, as their heap target assumes, a category and a status. */
export function tenCharacterPet(index: number): { name: string; categoryId: number; status: (typeof STATUSES)[number] } {
  return { name: `pet-${String(index % 1_000_000).padStart(6, '0')}`, categoryId: index % 50, status: STATUSES[index % 3] as (typeof STATUSES)[number] };
}

/** Runs two full collections (the process runs with `--expose-gc`), so heap figures count only what is reachable. */
function collectGarbage(): void {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
  gc();
  gc();
}

/**
 * Heap bytes per pet of a storage made by `make` and filled through the engine with `count` pets of
 * 10-character names (each with a fresh `randomUUID()` key when `isKeyed`), after full collections;
 * the storage stays reachable until measured. Filled in batches of 1,000, so a file storage
 * group-commits them; through the engine, as a server or an embedder creates, whose key check also
 * leaves the key one flat string (a string of pieces kept as it is would cost some 400 bytes more).
 */
export async function heapPerPet(make: () => Promise<PetStorage>, count: number, isKeyed: boolean): Promise<{ heap: number; storage: PetStorage }> {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const storage = await make();
  const store = createPetstore({ storage });
  for (let start = 0; start < count; start += 1000) {
    const batch: Promise<unknown>[] = [];
    for (let index = start; index < Math.min(count, start + 1000); index++) batch.push(store.createPet(tenCharacterPet(index), isKeyed ? { idempotencyKey: randomUUID() } : {}));
    await Promise.all(batch);
  }
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if ((await storage.list({ status: undefined, after: 0, limit: 1 })).length !== 1) throw new Error('the storage is empty');
  return { heap: (after - before) / count, storage };
}

/** Formats a number with thousands separators and the given decimals. */
export function format(value: number, decimals = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Milliseconds in wrk's units. */
const WRK_UNITS: Record<string, number> = { us: 1 / 1000, ms: 1, s: 1000, m: 60_000 };

/** Reads a wrk report: requests, rate, latencies in ms (NaN where wrk printed none), non-2xx answers and socket errors; throws on one without a rate. */
export function readWrk(output: string) {
  const count = (pattern: RegExp): number => Number(pattern.exec(output)?.[1] ?? 0);
  const duration = (label: string): number => {
    const match = new RegExp(`\\s${label}\\s+([\\d.]+)(us|ms|s|m)\\s`).exec(output);
    return match === null ? Number.NaN : Number(match[1]) * (WRK_UNITS[match[2] as string] as number);
  };
  const requestsPerSecond = count(/Requests\/sec:\s+([\d.]+)/);
  if (!(requestsPerSecond > 0)) throw new Error(`cannot read wrk output:\n${output}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests: count(/(\d+) requests in/), requestsPerSecond, meanMs: duration('Latency'), p50Ms: duration('50%'), p99Ms: duration('99%'),
    non2xx: count(/Non-2xx or 3xx responses:\s+(\d+)/), socketErrors: socket === null ? 0 : socket.slice(1).reduce((sum, value) => sum + Number(value), 0),
  };
}
