/**
 * PostgreSQL storage benchmark (issue 8): create and list throughput through 1, 2 and 4 server
 * processes over one PostgreSQL, and the per-request overhead against the in-memory storage,
 * measured in the same run. Loopback only; every wrk run is bounded in time.
 *
 *   npx tsx bench/postgres.ts [--seconds 3] [--connections 32] [--rounds 3]
 *
 * Needs wrk (Debian: apt-get install wrk) and the PostgreSQL server binaries; starts a throwaway
 * cluster with durable settings (fsync and synchronous_commit on) and deletes it afterwards.
 * Layout on a 2-core machine: wrk on core 0; server processes and PostgreSQL on core 1 ("pinned"),
 * then, for comparison, everything free to use both cores ("shared").
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { createPostgresStorage } from '../lib/storage/postgres/index.js';
import { findPostgresBinaries, startPostgresCluster } from '../scripts/postgres-cluster.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const API_KEY = 'bench-postgres-key';
/** Pets in the table before any run, a third of each status, so listing by status walks the (status, id) index. */
const PREFILLED_PETS = 20_000;
/** Lists start after a random id in 0..this, well inside the prefilled pets. */
const LIST_AFTER_RANGE = 15_000;

interface Server {
  child: ChildProcess;
  origin: string;
}

interface Pair {
  create: Measurement;
  list: Measurement;
}

/** One configuration measured in every round. */
interface Cell {
  key: string;
  env: Record<string, string>;
  processes: number;
  core: string;
  connections: number;
  isAsynchronousCommit?: boolean;
}

interface Measurement {
  requests: number;
  /** CPU time per request, in microseconds, of the server processes and of PostgreSQL (all its processes). */
  serverCpuMicroseconds: number;
  databaseCpuMicroseconds: number;
  requestsPerSecond: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const { values: options } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' }, rounds: { type: 'string', default: '3' } },
});
const ROUNDS = Number(options.rounds);
const SECONDS = Number(options.seconds);
const CONNECTIONS = Number(options.connections);

function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (match === null) throw new Error(`cannot read wrk duration ${text}`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function parseWrk(output: string): Measurement {
  const requests = /(\d+) requests in/.exec(output);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const mean = /Latency\s+(\S+)/.exec(output);
  const p50 = /\s50%\s+(\S+)/.exec(output);
  const p99 = /\s99%\s+(\S+)/.exec(output);
  if (rate?.[1] === undefined || mean?.[1] === undefined || p50?.[1] === undefined || p99?.[1] === undefined) throw new Error(`cannot read wrk output:\n${output}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? '0');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket === null ? 0 : socket.slice(1).reduce((sum, count) => sum + Number(count), 0);
  return { requests: Number(requests?.[1] ?? '0'), serverCpuMicroseconds: 0, databaseCpuMicroseconds: 0, requestsPerSecond: Number(rate[1]), meanMs: milliseconds(mean[1]), p50Ms: milliseconds(p50[1]), p99Ms: milliseconds(p99[1]), errors: non2xx + socketErrors };
}

async function startServer(env: Record<string, string>, core: string): Promise<Server> {
  const command = ['taskset', '-c', core, process.execPath, '--import', 'tsx', join(ROOT, 'cli', 'main.ts')];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: API_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((ready, fail) => {
    const collect = (data: Buffer): void => {
      output += data.toString('utf8');
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (match?.[1] !== undefined) ready({ child, origin: match[1] });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', (data: Buffer) => void (output += data.toString('utf8')));
    child.once('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
  });
}

async function stopServers(servers: readonly Server[]): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      const exited = new Promise((done) => server.child.once('exit', done));
      server.child.kill('SIGTERM');
      await exited;
    }),
  );
}

/** Runs one wrk per server at once (a load balancer spreading connections), summing throughput. */
/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User plus system CPU ticks a process has used, 0 once it is gone. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
}

/** The processes of a PostgreSQL cluster: the postmaster and its children (backends, writers). */
async function clusterPids(dataDirectory: string): Promise<number[]> {
  const postmaster = Number((await readFile(join(dataDirectory, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

async function totalTicks(pids: readonly number[]): Promise<number> {
  return (await Promise.all(pids.map(cpuTicks))).reduce((sum, ticks) => sum + ticks, 0);
}

let databaseDirectory = '';

async function load(servers: readonly Server[], script: string, connections: number, seconds: number): Promise<Measurement> {
  const serverPids = servers.map((server) => server.child.pid ?? 0);
  const databasePids = await clusterPids(databaseDirectory);
  const [serverBefore, databaseBefore] = [await totalTicks(serverPids), await totalTicks(databasePids)];
  const measured = await loadOnly(servers, script, connections, seconds);
  const [serverAfter, databaseAfter] = [await totalTicks(serverPids), await totalTicks(databasePids)];
  const microsecondsPerTick = 1_000_000 / TICKS_PER_SECOND;
  return {
    ...measured,
    serverCpuMicroseconds: ((serverAfter - serverBefore) * microsecondsPerTick) / measured.requests,
    databaseCpuMicroseconds: ((databaseAfter - databaseBefore) * microsecondsPerTick) / measured.requests,
  };
}

async function loadOnly(servers: readonly Server[], script: string, connections: number, seconds: number): Promise<Measurement> {
  const perServer = Math.max(1, Math.round(connections / servers.length));
  const outputs = await Promise.all(
    servers.map(async (server) => {
      const { stdout } = await run('taskset', ['-c', '0', 'wrk', '-t1', `-c${perServer}`, `-d${seconds}s`, '--latency', '-s', script, `${server.origin}/`], { timeout: (seconds + 30) * 1000 });
      return parseWrk(stdout);
    }),
  );
  const total = outputs.reduce((sum, result) => sum + result.requestsPerSecond, 0);
  return {
    requests: outputs.reduce((sum, result) => sum + result.requests, 0),
    serverCpuMicroseconds: 0,
    databaseCpuMicroseconds: 0,
    requestsPerSecond: total,
    // Weighted by each server's share of the requests.
    meanMs: outputs.reduce((sum, result) => sum + result.meanMs * result.requestsPerSecond, 0) / total,
    p50Ms: Math.max(...outputs.map((result) => result.p50Ms)),
    p99Ms: Math.max(...outputs.map((result) => result.p99Ms)),
    errors: outputs.reduce((sum, result) => sum + result.errors, 0),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

function fixed(value: number, decimals: number): string {
  return value.toFixed(decimals);
}

async function main(): Promise<void> {
  const binaries = await findPostgresBinaries();
  if (binaries === undefined) throw new Error('PostgreSQL server binaries not found; apt-get install postgresql');
  await run('wrk', ['--version']).catch((error: unknown) => {
    // wrk prints its version and exits 1; only a missing binary is a problem.
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw new Error('wrk not found; apt-get install wrk');
  });
  const scripts = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
  const create = join(scripts, 'create.lua');
  const list = join(scripts, 'list.lua');
  await writeFile(
    create,
    `wrk.method = "POST"\nwrk.path = "/v1/pets"\nwrk.headers["Authorization"] = "Bearer ${API_KEY}"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"bench pet","categoryId":7,"status":"available"}'\n`,
  );
  await writeFile(
    list,
    `wrk.headers["Authorization"] = "Bearer ${API_KEY}"\nrequest = function() return wrk.format("GET", "/v1/pets?limit=20&status=available&after=" .. math.random(0, ${LIST_AFTER_RANGE})) end\n`,
  );
  const cores = availableParallelism();
  // The load generator stays on core 0 throughout; children inherit that, so servers name their cores.
  await run('taskset', ['-cp', '0', String(process.pid)]);
  const cluster = await startPostgresCluster(binaries, { isDurable: true, cpus: '1' });
  databaseDirectory = cluster.dataDirectory;
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  try {
    const { stdout: pgVersion } = await run(join(binaries, 'postgres'), ['--version']);
    print(`Machine: ${cores} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${pgVersion.trim()}, wrk 4.1 pinned to core 0.`);
    print(`PostgreSQL: throwaway cluster, fsync=on, synchronous_commit=on (every acknowledged create is on disk), default pool of 10 connections per server process.`);
    print(`Each run: ${SECONDS} s of wrk after a 1 s warm-up, on fresh server processes; ${CONNECTIONS} connections spread evenly over the processes; table prefilled with ${PREFILLED_PETS} pets and analysed; create = POST /v1/pets, list = GET /v1/pets?limit=20&status=available&after=<random 0..${LIST_AFTER_RANGE}>.`);
    print('');

    async function measure(env: Record<string, string>, processes: number, core: string, connections: number): Promise<Pair> {
      const servers: Server[] = [];
      for (let index = 0; index < processes; index++) servers.push(await startServer(env, core));
      try {
        await load(servers, create, connections, 1);
        const created = await load(servers, create, connections, SECONDS);
        await load(servers, list, connections, 1);
        const listed = await load(servers, list, connections, SECONDS);
        return { create: created, list: listed };
      } finally {
        await stopServers(servers);
      }
    }

    const database = { PETSTORE_DATABASE_URL: cluster.url };
    // Prefilled in one statement and analysed, as autovacuum would within a minute: a brand-new
    // table has no statistics, and its first plans (bitmap scan plus sort) would be measured instead.
    const pool = new pg.Pool({ connectionString: cluster.url, max: 1 });
    await createPostgresStorage({ query: pool.query.bind(pool) });
    await pool.query(
      `INSERT INTO pets (name, category_id, status) SELECT 'prefilled ' || n, n % 7, (ARRAY['available', 'pending', 'sold'])[1 + n % 3] FROM generate_series(1, ${PREFILLED_PETS}) AS n`,
    );
    await pool.query('ANALYZE pets');
    const setSynchronousCommit = async (value: 'on' | 'off'): Promise<void> => {
      await pool.query(`ALTER SYSTEM SET synchronous_commit = ${value}`);
      await pool.query('SELECT pg_reload_conf()');
    };

    const PINNED = '1';
    const SHARED = '0,1';
    const cells: Cell[] = [
      { key: 'serial memory', env: {}, processes: 1, core: PINNED, connections: 1 },
      { key: 'serial postgres', env: database, processes: 1, core: PINNED, connections: 1 },
      ...[PINNED, SHARED].flatMap((core) => [
        { key: `${core} memory 1`, env: {}, processes: 1, core, connections: CONNECTIONS },
        ...[1, 2, 4].map((processes) => ({ key: `${core} postgres ${processes}`, env: database, processes, core, connections: CONNECTIONS })),
      ]),
      ...[1, 2].map((processes) => ({ key: `nosync postgres ${processes}`, env: database, processes, core: PINNED, connections: CONNECTIONS, isAsynchronousCommit: true })),
      { key: 'nosync serial postgres', env: database, processes: 1, core: PINNED, connections: 1, isAsynchronousCommit: true },
    ];
    const results = new Map<string, Pair[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`round ${round} of ${ROUNDS}\n`);
      for (const cell of cells) {
        if (cell.isAsynchronousCommit === true) await setSynchronousCommit('off');
        const result = await measure(cell.env, cell.processes, cell.core, cell.connections);
        if (cell.isAsynchronousCommit === true) await setSynchronousCommit('on');
        results.set(cell.key, [...(results.get(cell.key) ?? []), result]);
      }
    }
    await pool.end();
    const pick = (key: string, operation: 'create' | 'list', field: keyof Measurement): number =>
      median((results.get(key) ?? []).map((result) => result[operation][field]));
    const spread = (key: string, operation: 'create' | 'list'): string => {
      const rates = (results.get(key) ?? []).map((result) => result[operation].requestsPerSecond);
      return `${fixed(Math.min(...rates), 0)}–${fixed(Math.max(...rates), 0)}`;
    };

    print(`All figures are medians over ${ROUNDS} interleaved rounds (the range of req/s across rounds is shown too).`);
    print('');
    print('## Per-request overhead: 1 server process on core 1, 1 connection (sequential requests)');
    print('');
    print('Latency is wall time seen by wrk; CPU is what the server process and PostgreSQL (all its processes) spent per request, which other load on the machine disturbs far less.');
    print('');
    print(row(['storage', 'operation', 'mean ms', 'p50 ms', 'p99 ms', 'server CPU µs/request', 'PostgreSQL CPU µs/request']));
    print(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
    for (const operation of ['create', 'list'] as const) {
      for (const name of ['memory', 'postgres']) {
        const key = `serial ${name}`;
        print(
          row([
            name,
            operation,
            fixed(pick(key, operation, 'meanMs'), 3),
            fixed(pick(key, operation, 'p50Ms'), 3),
            fixed(pick(key, operation, 'p99Ms'), 3),
            fixed(pick(key, operation, 'serverCpuMicroseconds'), 0),
            name === 'memory' ? '–' : fixed(pick(key, operation, 'databaseCpuMicroseconds'), 0),
          ]),
        );
      }
      print(
        row([
          '**postgres − memory**',
          operation,
          fixed(pick('serial postgres', operation, 'meanMs') - pick('serial memory', operation, 'meanMs'), 3),
          fixed(pick('serial postgres', operation, 'p50Ms') - pick('serial memory', operation, 'p50Ms'), 3),
          '',
          fixed(pick('serial postgres', operation, 'serverCpuMicroseconds') - pick('serial memory', operation, 'serverCpuMicroseconds'), 0),
          fixed(pick('serial postgres', operation, 'databaseCpuMicroseconds'), 0),
        ]),
      );
    }
    print('');

    for (const [layout, core] of [['pinned: server processes and PostgreSQL on core 1, wrk on core 0', PINNED], ['shared: server processes on both cores, PostgreSQL on core 1, wrk on core 0', SHARED]] as const) {
      print(`## Throughput, ${CONNECTIONS} connections, ${layout}`);
      print('');
      print(row(['storage', 'processes', 'create req/s', '(range)', 'create p99 ms', 'list req/s', '(range)', 'list p99 ms', 'create vs memory', 'list vs memory', 'create CPU µs/req (server + PostgreSQL)', 'list CPU µs/req (server + PostgreSQL)']));
      print(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
      const memoryKey = `${core} memory 1`;
      for (const [name, processes] of [['memory', 1], ['postgres', 1], ['postgres', 2], ['postgres', 4]] as const) {
        const key = `${core} ${name} ${processes}`;
        print(
          row([
            name,
            processes,
            fixed(pick(key, 'create', 'requestsPerSecond'), 0),
            spread(key, 'create'),
            fixed(pick(key, 'create', 'p99Ms'), 1),
            fixed(pick(key, 'list', 'requestsPerSecond'), 0),
            spread(key, 'list'),
            fixed(pick(key, 'list', 'p99Ms'), 1),
            fixed(pick(key, 'create', 'requestsPerSecond') / pick(memoryKey, 'create', 'requestsPerSecond'), 2),
            fixed(pick(key, 'list', 'requestsPerSecond') / pick(memoryKey, 'list', 'requestsPerSecond'), 2),
            `${fixed(pick(key, 'create', 'serverCpuMicroseconds'), 0)} + ${fixed(pick(key, 'create', 'databaseCpuMicroseconds'), 0)}`,
            `${fixed(pick(key, 'list', 'serverCpuMicroseconds'), 0)} + ${fixed(pick(key, 'list', 'databaseCpuMicroseconds'), 0)}`,
          ]),
        );
      }
      print('');
    }

    print(`## Creates with synchronous_commit=off (the commit no longer waits for the disk), pinned layout`);
    print('');
    print(row(['processes', 'connections', 'create req/s', '(range)', 'create mean ms', 'create p99 ms']));
    print(row(['---:', '---:', '---:', '---:', '---:', '---:']));
    for (const [key, processes, connections] of [['nosync serial postgres', 1, 1], ['nosync postgres 1', 1, CONNECTIONS], ['nosync postgres 2', 2, CONNECTIONS]] as const) {
      print(row([processes, connections, fixed(pick(key, 'create', 'requestsPerSecond'), 0), spread(key, 'create'), fixed(pick(key, 'create', 'meanMs'), 3), fixed(pick(key, 'create', 'p99Ms'), 1)]));
    }
    const errors = [...results.values()].flat().reduce((sum, result) => sum + result.create.errors + result.list.errors, 0);
    print('');
    print(`Errors (non-2xx responses and socket errors) over all runs: ${errors}.`);
  } finally {
    await cluster.stop();
    await rm(scripts, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/postgres: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
