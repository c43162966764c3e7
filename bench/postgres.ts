/**
 * PostgreSQL storage benchmark (issue 8): create and list throughput through 1, 2 and 4 server
 * processes over one PostgreSQL, and the per-request overhead against the in-memory storage,
 * measured in the same run. Loopback only; every wrk run is bounded in time.
 *
 *   npm run bench:postgres -- [--seconds 3] [--connections 32] [--rounds 3]
 *   npm run bench:postgres -- --only against --against <git revision>
 *   npm run bench:postgres -- --only scale [--warm-up 5] [--skip-build] [--server-node-arguments=--cpu-prof]
 *
 * Needs wrk (Debian: apt-get install wrk) and the PostgreSQL server binaries; starts a throwaway
 * cluster with durable settings (fsync and synchronous_commit on) and deletes it afterwards.
 * Layout on a 2-core machine: wrk on core 0; server processes and PostgreSQL on core 1 ("pinned"),
 * then, for comparison, everything free to use both cores ("shared"). `--against` measures this
 * build and that revision's (built in a temporary worktree) in the same rounds, alternating.
 * `scale` (issue 41) creates from `fetch` clients through 1 and 2 servers started as `npm start`
 * starts them (the `pg` driver installed: `npm install --no-save -D pg`), every insert statement
 * paying a random commit latency, and checks a paging reader's cursor meanwhile.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPostgresStorage } from '../extras/postgres/index.js';
import { findPostgresBinaries, startPostgresCluster } from '../scripts/postgres-cluster.js';
import { TOOLS_REGISTER } from '../test/tools/paths.js';
import { startCommandOf, startCommandText, withRevisionBuild } from './against.js';
import { CLOCK_TICKS_PER_SECOND, cpuTicksOfStat, processCpuMicroseconds, runNanosecondsOfSchedstat } from './gauge-figures.js';
import { median, readWrk, ROOT, run, startProcess, stopProcess } from './support.js';
import type { StartCommand } from './against.js';

const API_KEY = 'bench-postgres-key';
/** Pets in the table before any run, a third of each status, so listing by status walks the (status, id) index. */
const PREFILLED_PETS = 20_000;
/** Lists start after a random id in 0..this, well inside the prefilled pets. */
const LIST_AFTER_RANGE = 15_000;

/** A server process started for a run, and where it listens. */
type Server = { child: ChildProcess; origin: string };

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
  options: {
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'http' },
    'commit-latency': { type: 'string', default: '5' },
    against: { type: 'string' },
    'server-node-arguments': { type: 'string', default: '' },
    // `scale` runs `npm run build` first; --skip-build runs the dist/ already built.
    'skip-build': { type: 'boolean', default: false },
    'warm-up': { type: 'string', default: '5' },
  },
});
const ROUNDS = Number(options.rounds);
const SECONDS = Number(options.seconds);
const CONNECTIONS = Number(options.connections);
/**
 * Which sections to run: `http` (server processes under wrk), `against` (this build against
 * `--against <revision>`) and `scale` (issue 41). The in-process comparisons of the insert lock
 * against claims (`ordering`) and of unnamed against named statements (`statements`) were run
 * from commit 8f31560 and before; their figures are in bench/RESULTS-postgres.md.
 */
const SECTIONS: ReadonlySet<string> = new Set(options.only.split(','));
/** The mean commit latency (ms) an insert statement pays in the `against` and `scale` sections. */
const COMMIT_LATENCY_MS = Number(options['commit-latency']);
/** Seconds of load on fresh server processes before the `scale` section measures. */
const WARM_UP_SECONDS = Number(options['warm-up']);

function parseWrk(output: string): Measurement {
  const { requests, requestsPerSecond, meanMs, p50Ms, p99Ms, non2xx, socketErrors } = readWrk(output);
  if ([meanMs, p50Ms, p99Ms].some(Number.isNaN)) throw new Error(`cannot read wrk output:\n${output}`);
  return { requests, serverCpuMicroseconds: 0, databaseCpuMicroseconds: 0, requestsPerSecond, meanMs, p50Ms, p99Ms, errors: non2xx + socketErrors };
}

/** How a server process runs: this checkout's sources through tsx, or a build as its `npm start` runs it (the `against` section: both builds alike, whatever their layout). */
interface Launch {
  root: string;
  start?: StartCommand;
}

const FROM_SOURCES: Launch = { root: ROOT };

async function startServer(env: Record<string, string>, core: string, launch: Launch = FROM_SOURCES): Promise<Server> {
  const { root, start } = launch;
  const script = start === undefined
    ? ['--import', 'tsx', '--import', TOOLS_REGISTER, join(root, 'extras', 'cli', 'main.ts')]
    : [...start.nodeArguments, join(root, start.script), ...start.args];
  const environment = { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: API_KEY, ...env };
  const { child, match } = await startProcess(script, { core, ready: /listening on (\S+)\n/, env: environment, cwd: root });
  return { child, origin: new URL(match[1] as string).origin };
}

async function stopServers(servers: readonly Server[]): Promise<void> {
  await Promise.all(servers.map((server) => stopProcess(server.child)));
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

/** User plus system CPU ticks the processes have used, none for one that is gone. */
async function totalTicks(pids: readonly number[]): Promise<number> {
  const stats = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)));
  return stats.reduce((sum, stat) => sum + (stat === undefined ? 0 : cpuTicksOfStat(stat)), 0);
}

let databaseDirectory = '';

async function load(servers: readonly Server[], script: string, connections: number, seconds: number): Promise<Measurement> {
  const serverPids = servers.map((server) => server.child.pid ?? 0);
  const databasePids = await clusterPids(databaseDirectory);
  const [serverBefore, databaseBefore] = [await totalTicks(serverPids), await totalTicks(databasePids)];
  const measured = await loadOnly(servers, script, connections, seconds);
  const [serverAfter, databaseAfter] = [await totalTicks(serverPids), await totalTicks(databasePids)];
  const microsecondsPerTick = 1_000_000 / CLOCK_TICKS_PER_SECOND;
  return {
    ...measured,
    serverCpuMicroseconds: ((serverAfter - serverBefore) * microsecondsPerTick) / measured.requests,
    databaseCpuMicroseconds: ((databaseAfter - databaseBefore) * microsecondsPerTick) / measured.requests,
  };
}

/** Runs one wrk per server at once (a load balancer spreading connections), summing throughput. */
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

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

type Print = (line: string) => void;
type Pick = (key: string, operation: 'create' | 'list', field: keyof Measurement) => number;
type Spread = (key: string, operation: 'create' | 'list') => string;

interface WrkScripts {
  directory: string;
  create: string;
  list: string;
}

async function writeScripts(): Promise<WrkScripts> {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
  const create = join(directory, 'create.lua');
  const list = join(directory, 'list.lua');
  await writeFile(
    create,
    `wrk.method = "POST"\nwrk.path = "/v1/pets"\nwrk.headers["Authorization"] = "Bearer ${API_KEY}"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"bench pet","categoryId":7,"status":"available"}'\n`,
  );
  await writeFile(
    list,
    `wrk.headers["Authorization"] = "Bearer ${API_KEY}"\nrequest = function() return wrk.format("GET", "/v1/pets?limit=20&status=available&after=" .. math.random(0, ${LIST_AFTER_RANGE})) end\n`,
  );
  return { directory, create, list };
}

/**
 * Creates `table` and prefills it in one statement, then analyses it, as autovacuum would within a
 * minute: a brand-new table has no statistics, and its first plans (bitmap scan plus sort) would be
 * measured instead.
 */
async function prefill(pool: pg.Pool, table: string): Promise<void> {
  await createPostgresStorage({ query: pool.query.bind(pool), table });
  await pool.query(
    `INSERT INTO ${table} (name, category_id, status) SELECT 'prefilled ' || n, n % 7, (ARRAY['available', 'pending', 'sold'])[1 + n % 3] FROM generate_series(1, ${PREFILLED_PETS}) AS n`,
  );
  await pool.query(`ANALYZE ${table}`);
}

const PINNED = '1';
const SHARED = '0,1';

function httpCells(databaseUrl: string): Cell[] {
  const database = { PETSTORE_DATABASE_URL: databaseUrl };
  return [
    { key: 'serial memory', env: {}, processes: 1, core: PINNED, connections: 1 },
    { key: 'serial postgres', env: database, processes: 1, core: PINNED, connections: 1 },
    ...[PINNED, SHARED].flatMap((core) => [
      { key: `${core} memory 1`, env: {}, processes: 1, core, connections: CONNECTIONS },
      ...[1, 2, 4].map((processes) => ({ key: `${core} postgres ${processes}`, env: database, processes, core, connections: CONNECTIONS })),
    ]),
    ...[1, 2].map((processes) => ({ key: `nosync postgres ${processes}`, env: database, processes, core: PINNED, connections: CONNECTIONS, isAsynchronousCommit: true })),
    { key: 'nosync serial postgres', env: database, processes: 1, core: PINNED, connections: 1, isAsynchronousCommit: true },
  ];
}

/** Measures creates, then lists, through fresh server processes. */
async function measureHttp(cell: Cell, scripts: WrkScripts, launch: Launch = FROM_SOURCES): Promise<Pair> {
  const servers: Server[] = [];
  for (let index = 0; index < cell.processes; index++) servers.push(await startServer(cell.env, cell.core, launch));
  try {
    await load(servers, scripts.create, cell.connections, 1);
    const created = await load(servers, scripts.create, cell.connections, SECONDS);
    await load(servers, scripts.list, cell.connections, 1);
    const listed = await load(servers, scripts.list, cell.connections, SECONDS);
    return { create: created, list: listed };
  } finally {
    await stopServers(servers);
  }
}

async function runHttpRounds(pool: pg.Pool, databaseUrl: string, scripts: WrkScripts): Promise<Map<string, Pair[]>> {
  const setSynchronousCommit = async (value: 'on' | 'off'): Promise<void> => {
    await pool.query(`ALTER SYSTEM SET synchronous_commit = ${value}`);
    await pool.query('SELECT pg_reload_conf()');
  };
  const results = new Map<string, Pair[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`HTTP round ${round} of ${ROUNDS}\n`);
    for (const cell of httpCells(databaseUrl)) {
      if (cell.isAsynchronousCommit === true) await setSynchronousCommit('off');
      const result = await measureHttp(cell, scripts);
      if (cell.isAsynchronousCommit === true) await setSynchronousCommit('on');
      results.set(cell.key, [...(results.get(cell.key) ?? []), result]);
    }
  }
  return results;
}

function printOverhead(print: Print, pick: Pick): void {
  print('## Per-request overhead: 1 server process on core 1, 1 connection (sequential requests)');
  print('');
  print('Latency is wall time seen by wrk; CPU is what the server process and PostgreSQL (all its processes) spent per request, which other load on the machine disturbs far less.');
  print('');
  print(row(['storage', 'operation', 'mean ms', 'p50 ms', 'p99 ms', 'server CPU µs/request', 'PostgreSQL CPU µs/request']));
  print(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
  const latencies = ['meanMs', 'p50Ms', 'p99Ms'] as const;
  for (const operation of ['create', 'list'] as const) {
    const memory = (field: keyof Measurement): number => pick('serial memory', operation, field);
    const postgres = (field: keyof Measurement): number => pick('serial postgres', operation, field);
    print(row(['memory', operation, ...latencies.map((field) => memory(field).toFixed(3)), memory('serverCpuMicroseconds').toFixed(0), '–']));
    const postgresCpu = postgres('databaseCpuMicroseconds').toFixed(0);
    print(row(['postgres', operation, ...latencies.map((field) => postgres(field).toFixed(3)), postgres('serverCpuMicroseconds').toFixed(0), postgresCpu]));
    const overhead = latencies.slice(0, 2).map((field) => (postgres(field) - memory(field)).toFixed(3));
    print(row(['**postgres − memory**', operation, ...overhead, '', (postgres('serverCpuMicroseconds') - memory('serverCpuMicroseconds')).toFixed(0), postgresCpu]));
  }
  print('');
}

function printThroughput(print: Print, pick: Pick, spread: Spread): void {
  for (const [layout, core] of [['pinned: server processes and PostgreSQL on core 1, wrk on core 0', PINNED], ['shared: server processes on both cores, PostgreSQL on core 1, wrk on core 0', SHARED]] as const) {
    print(`## Throughput, ${CONNECTIONS} connections, ${layout}`);
    print('');
    print(row(['storage', 'processes', 'create req/s', '(range)', 'create p99 ms', 'list req/s', '(range)', 'list p99 ms', 'create vs memory', 'list vs memory', 'create CPU µs/req (server + PostgreSQL)', 'list CPU µs/req (server + PostgreSQL)']));
    print(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
    const memoryKey = `${core} memory 1`;
    const cpu = (key: string, operation: 'create' | 'list'): string =>
      `${pick(key, operation, 'serverCpuMicroseconds').toFixed(0)} + ${pick(key, operation, 'databaseCpuMicroseconds').toFixed(0)}`;
    for (const [name, processes] of [['memory', 1], ['postgres', 1], ['postgres', 2], ['postgres', 4]] as const) {
      const key = `${core} ${name} ${processes}`;
      const rate = (operation: 'create' | 'list'): number => pick(key, operation, 'requestsPerSecond');
      const figures = (operation: 'create' | 'list'): string[] => [rate(operation).toFixed(0), spread(key, operation), pick(key, operation, 'p99Ms').toFixed(1)];
      const versusMemory = (operation: 'create' | 'list'): string => (rate(operation) / pick(memoryKey, operation, 'requestsPerSecond')).toFixed(2);
      print(row([name, processes, ...figures('create'), ...figures('list'), versusMemory('create'), versusMemory('list'), cpu(key, 'create'), cpu(key, 'list')]));
    }
    print('');
  }
}

function printAsynchronousCommit(print: Print, pick: Pick, spread: Spread): void {
  print(`## Creates with synchronous_commit=off (the commit no longer waits for the disk), pinned layout`);
  print('');
  print(row(['processes', 'connections', 'create req/s', '(range)', 'create mean ms', 'create p99 ms']));
  print(row(['---:', '---:', '---:', '---:', '---:', '---:']));
  for (const [key, processes, connections] of [['nosync serial postgres', 1, 1], ['nosync postgres 1', 1, CONNECTIONS], ['nosync postgres 2', 2, CONNECTIONS]] as const) {
    print(row([processes, connections, pick(key, 'create', 'requestsPerSecond').toFixed(0), spread(key, 'create'), pick(key, 'create', 'meanMs').toFixed(3), pick(key, 'create', 'p99Ms').toFixed(1)]));
  }
}

/** The HTTP sections: server processes over one PostgreSQL, measured with wrk. */
async function runHttpBenchmark(pool: pg.Pool, databaseUrl: string, print: Print): Promise<void> {
  const scripts = await writeScripts();
  try {
    print(`HTTP runs: ${SECONDS} s of wrk after a 1 s warm-up, on fresh server processes; ${CONNECTIONS} connections spread evenly over the processes; table prefilled with ${PREFILLED_PETS} pets and analysed; create = POST /v1/pets, list = GET /v1/pets?limit=20&status=available&after=<random 0..${LIST_AFTER_RANGE}>.`);
    print('');
    const results = await runHttpRounds(pool, databaseUrl, scripts);
    const pick: Pick = (key, operation, field) => median((results.get(key) ?? []).map((result) => result[operation][field]));
    const spread: Spread = (key, operation) => {
      const rates = (results.get(key) ?? []).map((result) => result[operation].requestsPerSecond);
      return `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`;
    };
    print(`All figures are medians over ${ROUNDS} interleaved rounds (the range of req/s across rounds is shown too).`);
    print('');
    printOverhead(print, pick);
    printThroughput(print, pick, spread);
    printAsynchronousCommit(print, pick, spread);
    const errors = [...results.values()].flat().reduce((sum, result) => sum + result.create.errors + result.list.errors, 0);
    print('');
    print(`Errors (non-2xx responses and socket errors) over all runs: ${errors}.`);
    print('');
  } finally {
    await rm(scripts.directory, { recursive: true, force: true });
  }
}

/** One build the `against` section measures: this checkout, or the revision given. */
interface Build extends Launch {
  name: string;
}

/** What the `against` section measures of one build in one round. */
interface BuildRound {
  create: Measurement;
  list: Measurement;
  slowCreate: Measurement;
}

/** Adds or removes the trigger that makes every insert into `pets` spend COMMIT_LATENCY_MS in its transaction. */
async function setSlowCommit(pool: pg.Pool, isOn: boolean): Promise<void> {
  if (isOn) {
    await pool.query(`CREATE OR REPLACE FUNCTION pets_sleep() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(${COMMIT_LATENCY_MS / 1000}); RETURN NULL; END $$`);
    // Once per statement, so once per transaction, as a commit's latency is, however many creates the statement carries.
    await pool.query('CREATE TRIGGER slow_commit AFTER INSERT ON pets FOR EACH STATEMENT EXECUTE FUNCTION pets_sleep()');
  } else {
    await pool.query('DROP TRIGGER IF EXISTS slow_commit ON pets');
  }
}

/** One build in one round: creates and lists through 1 server process, then creates with slow commits through 2; pinned layout. */
async function measureBuild(pool: pg.Pool, databaseUrl: string, build: Build, scripts: WrkScripts): Promise<BuildRound> {
  const env = { PETSTORE_DATABASE_URL: databaseUrl };
  const { create, list } = await measureHttp({ key: build.name, env, processes: 1, core: PINNED, connections: CONNECTIONS }, scripts, build);
  await setSlowCommit(pool, true);
  try {
    const servers = [await startServer(env, PINNED, build), await startServer(env, PINNED, build)];
    try {
      await load(servers, scripts.create, CONNECTIONS, 1);
      return { create, list, slowCreate: await load(servers, scripts.create, CONNECTIONS, SECONDS) };
    } finally {
      await stopServers(servers);
    }
  } finally {
    await setSlowCommit(pool, false);
  }
}

/** The `against` section: this build and the revision's in the same rounds, alternating which goes first. */
async function runAgainstBenchmark(pool: pg.Pool, databaseUrl: string, revision: string, print: Print): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  await withRevisionBuild(revision, { repository: ROOT, log }, async (built) => {
    // Both compiled and started as their `npm start` runs them, so the two differ in their code alone.
    await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
    const thisStart = startCommandOf(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')));
    const builds: Build[] = [{ name: 'this build', root: ROOT, start: thisStart }, { name: `${revision} (${built.commit.slice(0, 7)})`, root: built.root, start: built.start }];
    const scripts = await writeScripts();
    const results = new Map<string, BuildRound[]>();
    const memory: Pair[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        process.stderr.write(`against round ${round} of ${ROUNDS}\n`);
        memory.push(await measureHttp({ key: 'memory', env: {}, processes: 1, core: PINNED, connections: CONNECTIONS }, scripts));
        for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
          results.set(build.name, [...(results.get(build.name) ?? []), await measureBuild(pool, databaseUrl, build, scripts)]);
        }
      }
    } finally {
      await rm(scripts.directory, { recursive: true, force: true });
    }
    const [now, then] = builds.map((build) => results.get(build.name) ?? []) as [BuildRound[], BuildRound[]];
    print(`## This build against ${builds[1]?.name ?? revision}, same rounds, pinned layout, ${CONNECTIONS} connections`);
    print('');
    print(
      `Each round measures both builds (alternating which goes first), each compiled and started as its \`npm start\` runs it: creates, then lists, through 1 fresh server process; then creates through 2 server processes while an AFTER INSERT trigger sleeps ${COMMIT_LATENCY_MS} ms once in every insert statement's transaction, however many creates it carries, as a commit's latency is paid once per transaction (a global insert lock would allow ${(1000 / COMMIT_LATENCY_MS).toFixed(0)}/s). `
      + `${SECONDS} s of wrk after a 1 s warm-up; medians over ${ROUNDS} rounds; the ratio is the median of the ratios within each round.`,
    );
    print('');
    print(row(['measure', 'this build req/s', '(range)', 'against req/s', '(range)', '**this / against**', 'CPU µs/req this (server + PostgreSQL)', 'CPU µs/req against (server + PostgreSQL)', 'p99 ms this / against']));
    print(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
    const measures = [['create, 1 process', 'create'], ['list, 1 process', 'list'], [`create, 2 processes, ${COMMIT_LATENCY_MS} ms commits`, 'slowCreate']] as const;
    for (const [label, field] of measures) {
      const rates = (runs: readonly BuildRound[]): number[] => runs.map((result) => result[field].requestsPerSecond);
      const pickOf = (runs: readonly BuildRound[], name: keyof Measurement): number => median(runs.map((result) => result[field][name]));
      const range = (runs: readonly BuildRound[]): string => `${Math.min(...rates(runs)).toFixed(0)}–${Math.max(...rates(runs)).toFixed(0)}`;
      const cpu = (runs: readonly BuildRound[]): string => `${pickOf(runs, 'serverCpuMicroseconds').toFixed(0)} + ${pickOf(runs, 'databaseCpuMicroseconds').toFixed(0)}`;
      const ratio = median(now.map((result, round) => result[field].requestsPerSecond / (then[round]?.[field].requestsPerSecond ?? Number.NaN)));
      print(row([label, pickOf(now, 'requestsPerSecond').toFixed(0), range(now), pickOf(then, 'requestsPerSecond').toFixed(0), range(then), `**${ratio.toFixed(2)}×**`, cpu(now), cpu(then), `${pickOf(now, 'p99Ms').toFixed(1)} / ${pickOf(then, 'p99Ms').toFixed(1)}`]));
    }
    for (const operation of ['create', 'list'] as const) {
      const inMemory = median(memory.map((result) => result[operation].requestsPerSecond));
      const share = (runs: readonly BuildRound[]): string => median(runs.map((result, round) => result[operation].requestsPerSecond / (memory[round]?.[operation].requestsPerSecond ?? Number.NaN))).toFixed(2);
      print('');
      print(`${operation}s in memory, this build, same rounds: ${inMemory.toFixed(0)}/s (CPU ${median(memory.map((result) => result[operation].serverCpuMicroseconds)).toFixed(0)} µs/req); PostgreSQL against memory: this build ${share(now)}×, ${builds[1]?.name ?? revision} ${share(then)}×.`);
    }
    const errors = [...now, ...then].reduce((sum, result) => sum + result.create.errors + result.list.errors + result.slowCreate.errors, 0)
      + memory.reduce((sum, result) => sum + result.create.errors + result.list.errors, 0);
    print('');
    print(`Errors (non-2xx responses and socket errors) over all runs: ${errors}.`);
    print('');
  });
}

/** What the `scale` section measures of one run: creates over HTTP from fetch clients, and the CPU they cost. */
interface ScaleRun {
  createsPerSecond: number;
  /** CPU per create, in microseconds: the server processes' (their threads' schedstat), PostgreSQL's (all its processes) and the clients'. */
  serverCpuMicroseconds: number;
  /** Of the server's CPU, what its main thread (JavaScript, the sockets) spent; the rest is V8's helper threads (compiling, collecting garbage) and libuv's. */
  mainThreadCpuMicroseconds: number;
  databaseCpuMicroseconds: number;
  clientCpuMicroseconds: number;
  /** Creates per insert statement PostgreSQL ran (the statements as the trigger counts them). */
  rowsPerStatement: number;
  p99Ms: number;
  errors: number;
  /** Pets a reader paging with `after` during the run saw twice, skipped or out of order (0 when the cursor is exact). */
  cursorFaults: number;
  /** The first minute's load average when the run ended. */
  load: number;
}

/** Server CPU in microseconds: the sum over the processes' threads' schedstat run times, and of their main threads alone. */
async function serversCpu(servers: readonly Server[]): Promise<{ all: number; main: number }> {
  let [all, main] = [0, 0];
  for (const server of servers) {
    const pid = server.child.pid ?? 0;
    all += await processCpuMicroseconds(pid);
    main += (runNanosecondsOfSchedstat(await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')) ?? 0) / 1000;
  }
  return { all, main };
}

/** A statement-level trigger on `pets` that sleeps 0 to 2 × COMMIT_LATENCY_MS ms (uniform, mean COMMIT_LATENCY_MS) once per insert statement, and counts the statements. */
async function setRandomCommitLatency(pool: pg.Pool, isOn: boolean): Promise<void> {
  if (!isOn) {
    await pool.query('DROP TRIGGER IF EXISTS slow_commit ON pets');
    return;
  }
  await pool.query('CREATE SEQUENCE IF NOT EXISTS pets_insert_statements');
  await pool.query(`CREATE OR REPLACE FUNCTION pets_random_sleep() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('pets_insert_statements'); PERFORM pg_sleep(random() * ${(2 * COMMIT_LATENCY_MS) / 1000}); RETURN NULL; END $$`);
  await pool.query('CREATE TRIGGER slow_commit AFTER INSERT ON pets FOR EACH STATEMENT EXECUTE FUNCTION pets_random_sleep()');
}

/** Insert statements run so far on `pets`, as the trigger counts them. */
async function insertStatements(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ statements: string }>('SELECT last_value AS statements FROM pets_insert_statements');
  return Number(rows[0]?.statements ?? 0);
}

const PET_BODY = JSON.stringify({ name: 'bench pet', categoryId: 7, status: 'available' });

/**
 * CONNECTIONS fetch loops creating pets, spread over the servers in turn, for `seconds`, while one
 * reader pages through the new pets with `after` (limit 100, through the servers in turn); returns
 * the creates, their p99, the errors and what the reader saw.
 */
async function fetchCreates(servers: readonly Server[], seconds: number, startAfter: number): Promise<{ created: number[]; latencies: number[]; errors: number; seen: number[] }> {
  const deadline = performance.now() + seconds * 1000;
  const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
  const latencies: number[] = [];
  const created: number[] = [];
  const seen: number[] = [];
  let errors = 0;
  const loops = Array.from({ length: CONNECTIONS }, async (_, index) => {
    const origin = (servers[index % servers.length] as Server).origin;
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const response = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: PET_BODY });
        const body = (await response.json()) as { id?: unknown };
        if (response.status !== 201 || typeof body.id !== 'number') errors++;
        else {
          created.push(body.id);
          latencies.push(performance.now() - started);
        }
      } catch {
        errors++;
      }
    }
  });
  const reader = (async () => {
    let after = startAfter;
    let turn = 0;
    let isDone = false;
    for (;;) {
      const origin = (servers[turn++ % servers.length] as Server).origin;
      const response = await fetch(`${origin}/v1/pets?limit=100&after=${after}`, { headers });
      const page: unknown = await response.json();
      const ids = Array.isArray(page) ? page.map((pet: { id: number }) => pet.id) : [];
      if (!Array.isArray(page)) errors++;
      seen.push(...ids);
      after = ids.at(-1) ?? after;
      if (ids.length < 100) {
        if (isDone) return;
        if (performance.now() >= deadline) {
          // Every create has been answered once the loops end; one more pass reads what they left.
          await Promise.all(loops);
          isDone = true;
          continue;
        }
        await new Promise((done) => setTimeout(done, 20));
      }
    }
  })();
  await Promise.all([...loops, reader]);
  return { created, latencies, errors, seen };
}

/** One run of the `scale` section: `processes` fresh servers as `npm start` starts them, pinned with PostgreSQL to core 1, a warm-up, then the measured creates. */
async function measureScale(pool: pg.Pool, databaseUrl: string, launch: Launch, processes: number): Promise<ScaleRun> {
  const env = { PETSTORE_DATABASE_URL: databaseUrl };
  const servers: Server[] = [];
  for (let index = 0; index < processes; index++) servers.push(await startServer(env, PINNED, launch));
  try {
    const { rows } = await pool.query<{ id: string | null }>('SELECT max(id) AS id FROM pets');
    await fetchCreates(servers, WARM_UP_SECONDS, Number(rows[0]?.id ?? 0));
    const { rows: before } = await pool.query<{ id: string | null }>('SELECT max(id) AS id FROM pets');
    const startAfter = Number(before[0]?.id ?? 0);
    const databasePids = await clusterPids(databaseDirectory);
    const statementsBefore = await insertStatements(pool);
    const [serverBefore, databaseBefore, clientBefore] = [await serversCpu(servers), await totalTicks(databasePids), process.cpuUsage()];
    const started = performance.now();
    const { created, latencies, errors, seen } = await fetchCreates(servers, SECONDS, startAfter);
    const elapsed = (performance.now() - started) / 1000;
    const [serverAfter, databaseAfter, client] = [await serversCpu(servers), await totalTicks(databasePids), process.cpuUsage(clientBefore)];
    const statements = (await insertStatements(pool)) - statementsBefore;
    const count = Math.max(1, created.length);
    // The reader must have seen every pet created since it began, each once, in increasing order.
    const expected = new Set(created);
    let cursorFaults = 0;
    let previous = startAfter;
    const once = new Set<number>();
    for (const id of seen) {
      if (id <= previous || once.has(id)) cursorFaults++;
      once.add(id);
      previous = Math.max(previous, id);
    }
    for (const id of expected) if (!once.has(id)) cursorFaults++;
    const sorted = [...latencies].sort((left, right) => left - right);
    return {
      createsPerSecond: created.length / elapsed,
      serverCpuMicroseconds: (serverAfter.all - serverBefore.all) / count,
      mainThreadCpuMicroseconds: (serverAfter.main - serverBefore.main) / count,
      databaseCpuMicroseconds: ((databaseAfter - databaseBefore) * (1_000_000 / CLOCK_TICKS_PER_SECOND)) / count,
      clientCpuMicroseconds: (client.user + client.system) / count,
      rowsPerStatement: statements > 0 ? created.length / statements : Number.NaN,
      p99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN,
      errors,
      cursorFaults,
      load: loadavg()[0] ?? Number.NaN,
    };
  } finally {
    await stopServers(servers);
  }
}

/**
 * The `scale` section (issue 41): creates from CONNECTIONS fetch clients through 1 and 2 server
 * processes started as `npm start` starts them, on one database whose every insert statement
 * pays a random commit latency of 0 to twice COMMIT_LATENCY_MS; both counts in every round.
 */
async function runScaleBenchmark(pool: pg.Pool, databaseUrl: string, print: Print): Promise<void> {
  if (options['skip-build'] !== true) await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  const start = startCommandOf(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')));
  // For profiling, e.g. `--server-node-arguments "--cpu-prof --cpu-prof-dir=/tmp/profiles"` or `--perf-basic-prof` for perf.
  const extra = options['server-node-arguments'].split(' ').filter((argument) => argument !== '');
  const launch: Launch = { root: ROOT, start: { ...start, nodeArguments: [...start.nodeArguments, ...extra] } };
  const counts = [1, 2];
  const results = new Map<number, ScaleRun[]>();
  await setRandomCommitLatency(pool, true);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`scale round ${round} of ${ROUNDS}\n`);
      for (const processes of round % 2 === 1 ? counts : [...counts].reverse()) {
        const measured = await measureScale(pool, databaseUrl, launch, processes);
        process.stderr.write(`  ${processes} process(es): ${measured.createsPerSecond.toFixed(0)} creates/s, server ${measured.serverCpuMicroseconds.toFixed(0)} µs (main thread ${measured.mainThreadCpuMicroseconds.toFixed(0)}), PostgreSQL ${measured.databaseCpuMicroseconds.toFixed(0)} µs, ${measured.rowsPerStatement.toFixed(1)} rows/statement\n`);
        results.set(processes, [...(results.get(processes) ?? []), measured]);
      }
    }
  } finally {
    await setRandomCommitLatency(pool, false);
  }
  print(`## Creates through 1 and 2 servers, ${CONNECTIONS} fetch clients, ${COMMIT_LATENCY_MS} ms mean commit latency (issue 41)`);
  print('');
  print(
    `Each round starts fresh server processes as \`npm start\` does (\`${startCommandText(start)}\`, \`PETSTORE_DATABASE_URL\` only), pinned with PostgreSQL to core 1; ${CONNECTIONS} \`fetch\` loops in the benchmark's process on core 0 create pets over them in turn, `
    + `and one reader pages through the new pets with \`after\` (limit 100) meanwhile. A statement-level trigger sleeps a uniform 0–${2 * COMMIT_LATENCY_MS} ms (mean ${COMMIT_LATENCY_MS}) once in every insert statement's transaction, however many creates it carries. `
    + `${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up; medians over ${ROUNDS} rounds, 1 and 2 processes in every round (alternating which goes first). Server CPU is the sum of the server threads' schedstat run times.`,
  );
  print('');
  print(row(['servers', 'creates/s', '(range)', 'server CPU µs/create', '(main thread)', 'PostgreSQL CPU µs/create', 'client CPU µs/create', 'creates per statement', 'p99 ms', 'cursor faults', 'errors', 'load average']));
  print(row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const processes of counts) {
    const runs = results.get(processes) ?? [];
    const pickOf = (field: keyof ScaleRun): number => median(runs.map((result) => result[field]));
    const rates = runs.map((result) => result.createsPerSecond);
    const sum = (field: 'errors' | 'cursorFaults'): number => runs.reduce((total, result) => total + result[field], 0);
    print(row([processes, pickOf('createsPerSecond').toFixed(0), `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`, pickOf('serverCpuMicroseconds').toFixed(0), pickOf('mainThreadCpuMicroseconds').toFixed(0), pickOf('databaseCpuMicroseconds').toFixed(0), pickOf('clientCpuMicroseconds').toFixed(0), pickOf('rowsPerStatement').toFixed(1), pickOf('p99Ms').toFixed(1), sum('cursorFaults'), sum('errors'), runs.map((result) => result.load.toFixed(1)).join(', ')]));
  }
  print('');
}

async function main(): Promise<void> {
  const binaries = await findPostgresBinaries();
  if (binaries === undefined) throw new Error('PostgreSQL server binaries not found; apt-get install postgresql');
  const isHttp = SECTIONS.has('http');
  const needsWrk = isHttp || SECTIONS.has('against');
  if (SECTIONS.has('against') && options.against === undefined) throw new Error('--only against needs --against <git revision>');
  if (needsWrk) {
    await run('wrk', ['--version']).catch((error: unknown) => {
      // wrk prints its version and exits 1; only a missing binary is a problem.
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw new Error('wrk not found; apt-get install wrk');
    });
  }
  const cores = availableParallelism();
  // The load generator stays on core 0 throughout; children inherit that, so servers name their cores.
  await run('taskset', ['-cp', '0', String(process.pid)]);
  const cluster = await startPostgresCluster(binaries, { isDurable: true, cpus: '1' });
  databaseDirectory = cluster.dataDirectory;
  const print: Print = (line) => void process.stdout.write(`${line}\n`);
  const pool = new pg.Pool({ connectionString: cluster.url, max: 1 });
  try {
    const { stdout: pgVersion } = await run(join(binaries, 'postgres'), ['--version']);
    print(`Machine: ${cores} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${pgVersion.trim()}${needsWrk ? ', wrk 4.1' : ''}; the load generator pinned to core 0, PostgreSQL to core 1.`);
    print(`PostgreSQL: throwaway cluster, fsync=on, synchronous_commit=on (every acknowledged create is on disk), default pool of 10 connections per server process.`);
    print('');
    await prefill(pool, 'pets');
    if (isHttp) await runHttpBenchmark(pool, cluster.url, print);
    if (SECTIONS.has('scale')) await runScaleBenchmark(pool, cluster.url, print);
    if (SECTIONS.has('against') && options.against !== undefined) await runAgainstBenchmark(pool, cluster.url, options.against, print);
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/postgres: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
