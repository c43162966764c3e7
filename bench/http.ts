import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureAnswers, checkedAnswer, checkSameHeaders, createdCheck, errorCheck, missingHeaders, pageCheck, petCheck } from './checks.js';
import type { AnswerCheck } from './checks.js';
import { BENCH_KEY, PREFILLED_PETS, prefillPets } from './servers/fixture.js';
import { processCpuMicroseconds, threadCores } from './gauge-figures.js';
import { hasCommand, median, pinnedTo, readWrk, ROOT, run, startProcess, stopProcess } from './support.js';
import { TOOLS_REGISTER } from '../test/tools/paths.js';
import type { RevisionBuild } from './against.js';
import type { BenchSettings } from './settings.js';

/** One measured HTTP scenario. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  isAuthenticated: boolean;
  expectedStatus: number;
  body?: string;
  /** Whether each request carries a fresh `Idempotency-Key` (issue 20); only the project's servers act on it, the others ignore the header. */
  hasIdempotencyKey?: boolean;
  /** What every server's answer must be before it is measured. */
  check: AnswerCheck;
}

/** The pet the create scenarios send. */
const BENCH_PET = { name: 'bench-pet', categoryId: 7, status: 'available' };
const CREATE = { method: 'POST', path: '/v1/pets', isAuthenticated: true, expectedStatus: 201, body: JSON.stringify(BENCH_PET), check: createdCheck(BENCH_PET) } as const;

/** The scenarios of issue 6, each against servers pre-filled with 1,000 pets. */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20', isAuthenticated: true, expectedStatus: 200, check: pageCheck(20) },
  { name: 'GET /v1/pets?limit=100&status=available', method: 'GET', path: '/v1/pets?limit=100&status=available', isAuthenticated: true, expectedStatus: 200, check: pageCheck(100, 'available') },
  { name: 'GET /v1/pets/42', method: 'GET', path: '/v1/pets/42', isAuthenticated: true, expectedStatus: 200, check: petCheck(42) },
  { name: 'GET /v1/pets without a key (401)', method: 'GET', path: '/v1/pets', isAuthenticated: false, expectedStatus: 401, check: errorCheck(401) },
  { name: 'POST /v1/pets (201)', ...CREATE },
  { name: 'POST /v1/pets with Idempotency-Key (201)', ...CREATE, hasIdempotencyKey: true },
];

/**
 * The Lua that gives each request a fresh `Idempotency-Key`, as the typed client does for each
 * create: a prefix from the clock (a warm-up and the measured run start at least a second apart, so
 * their keys never meet) and a counter, so every request creates a pet and none is a replay.
 */
const FRESH_KEY_LUA = `math.randomseed(os.time())
local prefix = string.format("%x-%x", os.time(), math.random(0, 16777215))
local counter = 0
request = function()
  counter = counter + 1
  wrk.headers["Idempotency-Key"] = '"' .. prefix .. "-" .. counter .. '"'
  return wrk.format()
end`;

/** The servers compared, in the order of the first round; docs/performance.md says what each is and which question it answers. */
export const SERVERS = ['project', 'project-metrics', 'baseline', 'fastify', 'lean-fastify', 'ceiling-plain', 'ceiling-same-headers'] as const;
/** The project as built at the revision `--against` names, when the run has one. */
export const AGAINST = 'against';
/** One of the servers compared. */
export type ServerName = (typeof SERVERS)[number] | typeof AGAINST;

/** How the `against` server starts: its start command in its revision's root. */
export type AgainstServer = Pick<RevisionBuild, 'root' | 'start'>;

/** What wrk measured for one scenario on one server in one round. */
export interface WrkResult {
  requestsPerSecond: number;
  p99Ms: number;
  requests: number;
  /** The server's CPU time per request answered, in µs (its threads' time from /proc over the measured run), where /proc has it. */
  cpuMicroseconds?: number;
}

/** Options of the HTTP benchmark: the servers in the order of the first round, and how to start `against` when they have it. */
export interface HttpBenchOptions extends Pick<BenchSettings, 'rounds' | 'durationSeconds' | 'warmupSeconds'> {
  servers: readonly ServerName[];
  against?: AgainstServer;
  log: (line: string) => void;
}

/** What the HTTP benchmark measured and found. */
export interface HttpBenchResults {
  /** wrk's figures by scenario name, then server, one per round. */
  samples: Map<string, Map<ServerName, WrkResult[]>>;
  /** The optional headers of each scenario's check that a server's answer lacked, by server, then scenario name. */
  missingHeaders: Map<ServerName, Map<string, readonly string[]>>;
}

/** The wrk script of a scenario: its method, key and body. */
export function luaScript(scenario: Scenario): string {
  const lines = [`wrk.method = "${scenario.method}"`];
  if (scenario.isAuthenticated) lines.push(`wrk.headers["Authorization"] = "Bearer ${BENCH_KEY}"`);
  if (scenario.body !== undefined) lines.push('wrk.headers["Content-Type"] = "application/json"', `wrk.body = '${scenario.body}'`);
  if (scenario.hasIdempotencyKey === true) lines.push(FRESH_KEY_LUA);
  return `${lines.join('\n')}\n`;
}

/** wrk's keep-alive connections, on its one thread. */
export const CONNECTIONS = 50;

/** Reads wrk's report, refusing any run with socket errors or an unexpected status class. */
export function parseWrk(output: string, scenario: Scenario): WrkResult {
  const { requestsPerSecond, p99Ms, requests, non2xx, socketErrors } = readWrk(output);
  if (Number.isNaN(p99Ms)) throw new Error(`cannot read wrk output:\n${output}`);
  if (socketErrors > 0) throw new Error(`wrk saw socket errors for ${scenario.name}:\n${output}`);
  // Every response is checked by class: a 2xx scenario must have no other answer, the 401 one only others.
  const isSuccess = scenario.expectedStatus < 300;
  if (isSuccess ? non2xx !== 0 : non2xx !== requests) throw new Error(`${scenario.name}: ${non2xx} of ${requests} responses were not ${isSuccess ? '2xx' : 'errors'}`);
  return { requestsPerSecond, p99Ms, requests };
}

/** This process's environment without the project server's configuration, which the benchmark sets itself. */
export function environmentWithoutServerSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'PORT' && name !== 'HOST' && !name.startsWith('PETSTORE_')));
}

/**
 * Fills the project's server with the pets the comparison servers start with, over HTTP, one after
 * the other: the scenarios read `/v1/pets/42`, so the ids must come back 1 to 1,000 in order.
 */
export async function prefillOverHttp(origin: string): Promise<void> {
  const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
  for (const [index, pet] of prefillPets().entries()) {
    const response = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify(pet) });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`prefill: POST /v1/pets answered ${response.status} ${text}`);
    const id: unknown = (JSON.parse(text) as { id?: unknown }).id;
    if (id !== index + 1) throw new Error(`prefill: pet ${index + 1} of ${PREFILLED_PETS} came back with id ${String(id)}: ${text}`);
  }
}

/** Checks that every thread of a server may run on core 0 only, as `taskset -c 0` started it; a no-op where /proc or taskset is missing. */
async function checkPinned(child: ChildProcess, server: ServerName): Promise<void> {
  if (child.pid === undefined || !(await hasCommand('taskset'))) return;
  for (const [thread, allowed] of await threadCores(child.pid).catch(() => new Map<number, string>())) {
    if (allowed !== '0') throw new Error(`${server}: thread ${thread} of the server may run on cores ${allowed}, not only core 0`);
  }
}

/** Checks that the server started with `PETSTORE_METRICS=true` really counts: a server that ignored the setting would make metrics look free. */
async function checkMetricsOn(origin: string): Promise<void> {
  const response = await fetch(`${origin}/metrics`);
  const text = await response.text();
  if (response.status !== 200 || !/^petstore_http_requests_total\{operation="createPet",status="201"\} 1000$/m.test(text)) {
    throw new Error(`project-metrics: GET /metrics should count the 1,000 creates of the prefill, but answered ${response.status} ${text.slice(0, 300)}`);
  }
}

/**
 * Starts one server on a free port, pinned to core 0 and filled with the 1,000 pets (the ceilings
 * with the file of the project's captured answers instead), and gives its origin: the project's as
 * `npm start` runs them (`against` in its revision's worktree), the others as tsc compiled them.
 */
export async function startBenchServer(server: ServerName, capturePath: string, nodeArguments: readonly string[] = [], against?: AgainstServer): Promise<{ child: ChildProcess; origin: string }> {
  if (server !== 'project' && server !== 'project-metrics' && server !== AGAINST) {
    const { child, match } = await startProcess([...nodeArguments, '--import', TOOLS_REGISTER, 'dist-bench/bench/servers/run.js', server, '0', capturePath], { core: 0, ready: /ready (\d+)\n/ });
    return { child, origin: `http://127.0.0.1:${match[1]}` };
  }
  // Only what a user's `npm start` is given: none of this process's environment (npm's variables, NODE_OPTIONS) reaches the server.
  const env: NodeJS.ProcessEnv = { PORT: '0', HOST: '127.0.0.1', PETSTORE_API_KEYS: BENCH_KEY, ...(server === 'project-metrics' ? { PETSTORE_METRICS: 'true' } : {}) };
  const { root, start } = server === AGAINST ? against ?? { root: '', start: undefined } : { root: ROOT, start: { nodeArguments: [], script: 'dist/extras/cli/main.js', args: [] } };
  if (start === undefined) throw new Error('the against server needs its revision\'s worktree and start command');
  const args = [...nodeArguments, ...start.nodeArguments, start.script, ...start.args];
  const { child, match } = await startProcess(args, { core: 0, ready: /Petstore listening on (\S+)\n/, env, cwd: root, timeoutMs: 60_000 });
  try {
    await checkPinned(child, server);
    const origin = new URL(match[1] as string).origin;
    await prefillOverHttp(origin);
    if (server === 'project-metrics') await checkMetricsOn(origin);
    return { child, origin };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** Runs wrk on core 1 against one scenario and gives its report. */
export async function wrk(origin: string, scenario: Scenario, script: string, seconds: number, connections: number): Promise<string> {
  const command = [...(await pinnedTo(1)), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `${origin}${scenario.path}`];
  const { stdout } = await run(command[0] as string, command.slice(1), { maxBuffer: 1 << 20 });
  return stdout;
}

/** The CPU time a process has used so far in µs, or undefined where /proc does not say. */
async function cpuOf(child: ChildProcess): Promise<number | undefined> {
  return child.pid === undefined ? undefined : processCpuMicroseconds(child.pid).catch(() => undefined);
}

/**
 * Runs every scenario against every server after capturing the project's answers for the ceilings,
 * as docs/performance.md ("How it is measured") says: a fresh process per server and round, all
 * started first, each scenario then measured on every server in turn after one answer is checked.
 */
export async function runHttpBench(options: HttpBenchOptions): Promise<HttpBenchResults> {
  const { servers } = options;
  const samples = new Map(SCENARIOS.map((scenario) => [scenario.name, new Map(servers.map((server) => [server, [] as WrkResult[]]))]));
  const missing = new Map(servers.map((server) => [server, new Map<string, readonly string[]>()]));
  const scripts = await mkdtemp(join(tmpdir(), 'petstore-wrk-'));
  try {
    const scriptOf = (index: number): string => join(scripts, `scenario-${index}.lua`);
    for (const [index, scenario] of SCENARIOS.entries()) await writeFile(scriptOf(index), luaScript(scenario));
    const capturePath = join(scripts, 'captured-answers.json');
    options.log('Capturing the project\'s answers for the ceilings…');
    const project = await startBenchServer('project', capturePath);
    const captured = await captureAnswers(project.origin, SCENARIOS).finally(() => stopProcess(project.child));
    await writeFile(capturePath, JSON.stringify(captured));
    for (let round = 0; round < options.rounds; round++) {
      const started: { server: ServerName; child: ChildProcess; origin: string }[] = [];
      try {
        for (const server of alternatingOrder(servers, round)) started.push({ server, ...(await startBenchServer(server, capturePath, [], options.against)) });
        for (const [index, scenario] of SCENARIOS.entries()) {
          for (const { server, origin, child } of started) {
            // The plain ceiling sends `Content-Type` and `Content-Length` only, by definition: its body is checked, not its headers.
            const answer = await checkedAnswer(origin, scenario, server, server !== 'ceiling-plain');
            if (server === 'ceiling-same-headers') checkSameHeaders(captured[index] as (typeof captured)[number], answer);
            missing.get(server)?.set(scenario.name, missingHeaders(scenario.check, answer));
            await wrk(origin, scenario, scriptOf(index), options.warmupSeconds, CONNECTIONS);
            const cpuBefore = await cpuOf(child);
            const result = parseWrk(await wrk(origin, scenario, scriptOf(index), options.durationSeconds, CONNECTIONS), scenario);
            const cpuAfter = await cpuOf(child);
            if (cpuBefore !== undefined && cpuAfter !== undefined) result.cpuMicroseconds = (cpuAfter - cpuBefore) / result.requests;
            samples.get(scenario.name)?.get(server)?.push(result);
            options.log(`round ${round + 1} ${server.padEnd(20)} ${scenario.name.padEnd(42)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  p99 ${result.p99Ms.toFixed(2)} ms`);
          }
        }
      } finally {
        await Promise.all(started.map(({ child }) => stopProcess(child)));
      }
    }
  } finally {
    await rm(scripts, { recursive: true, force: true });
  }
  return { samples, missingHeaders: missing };
}

/**
 * The order of a round's servers: the first round's rotated by the round, `against` right after the
 * project in even rounds and right before it in odd ones. Back to back, both builds have idled alike:
 * on Node 20 a server that idled a few seconds spends a quarter more CPU per request after (V8's memory
 * reducer, docs/performance.md), and two builds 30 s apart read 0.82× where back to back 0.96-1.00×.
 */
export function alternatingOrder(servers: readonly ServerName[], round: number): ServerName[] {
  const others = servers.filter((server) => server !== AGAINST);
  const order = others.map((_, index) => others[(index + round) % others.length] as ServerName);
  if (others.length === servers.length) return order;
  const project = order.indexOf('project');
  order.splice(round % 2 === 0 ? project + 1 : project, 0, AGAINST);
  return order;
}

/** Median requests per second and p99 of one scenario on one server. */
export function summarise(samples: readonly WrkResult[]): { requestsPerSecond: number; p99Ms: number } {
  return { requestsPerSecond: median(samples.map((sample) => sample.requestsPerSecond)), p99Ms: median(samples.map((sample) => sample.p99Ms)) };
}
