import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureAnswers, requestAnswer } from './capture.js';
import { checkSameHeaders, createdCheck, errorCheck, missingHeaders, pageCheck, petCheck } from './checks.js';
import type { AnswerCheck } from './checks.js';
import type { CapturedAnswer } from './servers/ceiling.js';
import { BENCH_KEY, PREFILLED_PETS, prefillPets } from './servers/fixture.js';
import { processCpuMicroseconds, threadCores } from './gauge-figures.js';
import { hasCommand, median, pinnedTo, ROOT, run, startProcess, stopProcess } from './support.js';
import { TOOLS_REGISTER } from '../test/tools/paths.js';

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

/** The pet the create scenario sends. */
const BENCH_PET = { name: 'bench-pet', categoryId: 7, status: 'available' };

/** The scenarios of issue 6, each against servers pre-filled with 1,000 pets. */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20', isAuthenticated: true, expectedStatus: 200, check: pageCheck(20) },
  { name: 'GET /v1/pets?limit=100&status=available', method: 'GET', path: '/v1/pets?limit=100&status=available', isAuthenticated: true, expectedStatus: 200, check: pageCheck(100, 'available') },
  { name: 'GET /v1/pets/42', method: 'GET', path: '/v1/pets/42', isAuthenticated: true, expectedStatus: 200, check: petCheck(42) },
  { name: 'GET /v1/pets without a key (401)', method: 'GET', path: '/v1/pets', isAuthenticated: false, expectedStatus: 401, check: errorCheck(401) },
  { name: 'POST /v1/pets (201)', method: 'POST', path: '/v1/pets', isAuthenticated: true, expectedStatus: 201, body: JSON.stringify(BENCH_PET), check: createdCheck(BENCH_PET) },
  {
    name: 'POST /v1/pets with Idempotency-Key (201)',
    method: 'POST',
    path: '/v1/pets',
    isAuthenticated: true,
    expectedStatus: 201,
    body: JSON.stringify(BENCH_PET),
    hasIdempotencyKey: true,
    check: createdCheck(BENCH_PET),
  },
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

/** The project's server exactly as `npm start` runs it, from `dist/` built by `npm run build`. */
const PROJECT_SCRIPT = 'dist/extras/cli/main.js';

/** The comparison servers compiled by tsc (`bench/tsconfig.json`), so no server runs through a loader's transform. */
const COMPARISON_SCRIPT = 'dist-bench/bench/servers/run.js';

/**
 * The servers compared, in the order of the first round: the project's twice, without and with
 * metrics (`PETSTORE_METRICS=true`), so the cost of metrics is a ratio measured in the same run;
 * the hand-written node:http baseline; fastify doing the project's work; fastify as a user writes it
 * in an afternoon; and the two ceilings, node:http answering the project's captured bytes without
 * work, with only `Content-Type` and `Content-Length` or with exactly the project's headers.
 */
export const SERVERS = ['project', 'project-metrics', 'baseline', 'fastify', 'lean-fastify', 'ceiling-plain', 'ceiling-same-headers'] as const;
/** The project as built at the revision `--against` names, when the run has one. */
export const AGAINST = 'against';
/** One of the servers compared. */
export type ServerName = (typeof SERVERS)[number] | typeof AGAINST;

/** How the `against` server starts: `node <nodeArguments> <script> <args>` in its revision's root. */
export interface AgainstServer {
  root: string;
  nodeArguments: readonly string[];
  script: string;
  args: readonly string[];
}

/** What wrk measured for one scenario on one server in one round. */
export interface WrkResult {
  requestsPerSecond: number;
  p99Ms: number;
  requests: number;
  /** The server's CPU time per request answered, in µs (its threads' time from /proc over the measured run), where /proc has it. */
  cpuMicroseconds?: number;
}

/** Options of the HTTP benchmark. */
export interface HttpBenchOptions {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** The servers to run, in the order of the first round; default all of `SERVERS`. */
  servers?: readonly ServerName[];
  /** How to start the `against` server; needed when `servers` has it. */
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
  if (scenario.body !== undefined) {
    lines.push('wrk.headers["Content-Type"] = "application/json"');
    lines.push(`wrk.body = '${scenario.body}'`);
  }
  if (scenario.hasIdempotencyKey === true) lines.push(FRESH_KEY_LUA);
  return `${lines.join('\n')}\n`;
}

function parseDuration(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (match === null) throw new Error(`cannot read wrk latency ${text}`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000;
}

/** Reads wrk's report, refusing any run with socket errors or an unexpected status class. */
export function parseWrk(output: string, scenario: Scenario): WrkResult {
  const requestsPerSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1]);
  const p99 = /\s99%\s+(\S+)/.exec(output)?.[1];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  if (!(requestsPerSecond > 0) || p99 === undefined) throw new Error(`cannot read wrk output:\n${output}`);
  if (/Socket errors/.test(output)) throw new Error(`wrk saw socket errors for ${scenario.name}:\n${output}`);
  // Every response is checked by class: a 2xx scenario must have no other answer, the 401 one only others.
  const isSuccess = scenario.expectedStatus < 300;
  if (isSuccess ? non2xx !== 0 : non2xx !== requests) throw new Error(`${scenario.name}: ${non2xx} of ${requests} responses were not ${isSuccess ? '2xx' : 'errors'}`);
  return { requestsPerSecond, p99Ms: parseDuration(p99), requests };
}

/**
 * Checks one answer of the scenario before measuring: status, body and required headers on every
 * server, and the same-headers ceiling's headers against the project's. Gives the optional headers
 * the answer lacked.
 */
async function preflight(origin: string, scenario: Scenario, server: ServerName, captured: CapturedAnswer | undefined): Promise<string[]> {
  const answer = await requestAnswer(origin, scenario);
  try {
    scenario.check.verify(answer);
    // The plain ceiling sends `Content-Type` and `Content-Length` only, by definition: its body is checked, not its headers.
    if (server !== 'ceiling-plain') scenario.check.verifyHeaders(answer);
    if (server === 'ceiling-same-headers') {
      if (captured === undefined) throw new Error('no captured answer of the project to compare with');
      checkSameHeaders(captured, answer);
    }
  } catch (error) {
    throw new Error(`${server}, ${scenario.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return missingHeaders(scenario.check, answer);
}

/** This process's environment without the project server's configuration, which the benchmark sets itself. */
export function environmentWithoutServerSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'PORT' && name !== 'HOST' && !name.startsWith('PETSTORE_')));
}

/** Id of a created pet in a 201 body, or undefined when the body is not a pet. */
function createdId(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || !('id' in body)) return undefined;
  return typeof body.id === 'number' ? body.id : undefined;
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
    const id = createdId(JSON.parse(text));
    if (id !== index + 1) throw new Error(`prefill: pet ${index + 1} of ${PREFILLED_PETS} came back with id ${String(id)}: ${text}`);
  }
}

/**
 * Checks that the server started with `PETSTORE_METRICS=true` really counts: a server that ignored
 * the setting would make the cost of metrics look like nothing.
 */
async function checkMetricsOn(origin: string): Promise<void> {
  const response = await fetch(`${origin}/metrics`);
  const text = await response.text();
  if (response.status !== 200 || !/^petstore_http_requests_total\{operation="createPet",status="201"\} 1000$/m.test(text)) {
    throw new Error(`project-metrics: GET /metrics should count the 1,000 creates of the prefill, but answered ${response.status} ${text.slice(0, 300)}`);
  }
}

/**
 * Starts one server on a free port, pinned to core 0 and filled with the 1,000 pets (the ceilings
 * with the file of the project's captured answers instead), and gives its origin. The `against`
 * server is the project of another revision, started in its worktree as its package.json says.
 */
export async function startBenchServer(server: ServerName, capturePath: string, nodeArguments: readonly string[] = [], against?: AgainstServer): Promise<{ child: ChildProcess; origin: string }> {
  if (server === 'project' || server === 'project-metrics' || server === AGAINST) {
    // Only what a user's `npm start` is given: none of this process's environment (npm's variables, NODE_OPTIONS) reaches the server.
    const env: NodeJS.ProcessEnv = { PORT: '0', HOST: '127.0.0.1', PETSTORE_API_KEYS: BENCH_KEY };
    if (server === 'project-metrics') env['PETSTORE_METRICS'] = 'true';
    if (server === AGAINST && against === undefined) throw new Error('the against server needs its revision\'s worktree and start command');
    const command = server === AGAINST && against !== undefined
      ? { args: [...nodeArguments, ...against.nodeArguments, against.script, ...against.args], cwd: against.root }
      : { args: [...nodeArguments, PROJECT_SCRIPT], cwd: ROOT };
    const { child, match } = await startProcess(command.args, { core: 0, ready: /Petstore listening on (\S+)\n/, env, cwd: command.cwd, timeoutMs: 60_000 });
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
  const { child, match } = await startProcess([...nodeArguments, '--import', TOOLS_REGISTER, COMPARISON_SCRIPT, server, '0', capturePath], { core: 0, ready: /ready (\d+)\n/ });
  return { child, origin: `http://127.0.0.1:${match[1]}` };
}

/** Checks that every thread of a server may run on core 0 only, as `taskset -c 0` started it; a no-op where /proc or taskset is missing. */
async function checkPinned(child: ChildProcess, server: ServerName): Promise<void> {
  if (child.pid === undefined || !(await hasCommand('taskset'))) return;
  const cores = await threadCores(child.pid).catch(() => new Map<number, string>());
  for (const [thread, allowed] of cores) {
    if (allowed !== '0') throw new Error(`${server}: thread ${thread} of the server may run on cores ${allowed}, not only core 0`);
  }
}

/** The CPU time a process has used so far in µs, or undefined where /proc does not say. */
async function cpuOf(child: ChildProcess): Promise<number | undefined> {
  return child.pid === undefined ? undefined : processCpuMicroseconds(child.pid).catch(() => undefined);
}

/** Runs wrk on core 1 against one scenario and gives its report. */
export async function wrk(origin: string, scenario: Scenario, script: string, seconds: number, connections: number): Promise<string> {
  const command = [...(await pinnedTo(1)), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `${origin}${scenario.path}`];
  const { stdout } = await run(command[0] as string, command.slice(1), { maxBuffer: 1 << 20 });
  return stdout;
}

/**
 * Captures the project server's answer to each scenario once, from a process of its own started as
 * `npm start` starts it and filled with the 1,000 pets, into `capturePath` for the ceilings to answer.
 */
async function captureProjectAnswers(capturePath: string): Promise<CapturedAnswer[]> {
  const { child, origin } = await startBenchServer('project', capturePath);
  try {
    const captured = await captureAnswers(origin, SCENARIOS);
    await writeFile(capturePath, JSON.stringify(captured));
    return captured;
  } finally {
    await stopProcess(child);
  }
}

/**
 * Runs every scenario against every server, each scenario on every server in turn, alternating the server order round by round, after
 * capturing the project's answers for the ceilings.
 */
export async function runHttpBench(options: HttpBenchOptions): Promise<HttpBenchResults> {
  const servers = options.servers ?? SERVERS;
  const samples = new Map<string, Map<ServerName, WrkResult[]>>(SCENARIOS.map((scenario) => [scenario.name, new Map(servers.map((server) => [server, []]))]));
  const missing = new Map<ServerName, Map<string, readonly string[]>>(servers.map((server) => [server, new Map()]));
  const scripts = await mkdtemp(join(tmpdir(), 'petstore-wrk-'));
  try {
    const scriptOf = new Map<string, string>();
    for (const [index, scenario] of SCENARIOS.entries()) {
      const file = join(scripts, `scenario-${index}.lua`);
      await writeFile(file, luaScript(scenario));
      scriptOf.set(scenario.name, file);
    }
    const capturePath = join(scripts, 'captured-answers.json');
    options.log('Capturing the project\'s answers for the ceilings…');
    const captured = await captureProjectAnswers(capturePath);
    for (let round = 0; round < options.rounds; round++) {
      const order = alternatingOrder(servers, round);
      // A fresh process per server and round, so creates of earlier rounds never weigh on lists. All
      // of a round's servers are started first (an idle one costs nothing) and each scenario is then
      // measured on every server in turn, so the figures a ratio compares are a minute apart, not
      // several: this shared machine's speed drifts by more than the differences measured.
      const started: { server: ServerName; child: ChildProcess; origin: string }[] = [];
      // A server measured right after another shares core 0 with what that one does once its load ends
      // (its collector, closing 50 connections), so the two builds take the second place in turn.
      try {
        for (const server of order) started.push({ server, ...(await startBenchServer(server, capturePath, [], options.against)) });
        for (const [index, scenario] of SCENARIOS.entries()) {
          const script = scriptOf.get(scenario.name) as string;
          for (const { server, origin, child } of started) {
            missing.get(server)?.set(scenario.name, await preflight(origin, scenario, server, captured[index]));
            await wrk(origin, scenario, script, options.warmupSeconds, options.connections);
            const cpuBefore = await cpuOf(child);
            const result: WrkResult = parseWrk(await wrk(origin, scenario, script, options.durationSeconds, options.connections), scenario);
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
 * The order of a round's servers: the first round's order rotated by the round, and the project and
 * the `against` build swapped where needed so that each goes first of the two in every other round.
 */
export function alternatingOrder(servers: readonly ServerName[], round: number): ServerName[] {
  const order = servers.map((_, index) => servers[(index + round) % servers.length] as ServerName);
  const project = order.indexOf('project');
  const against = order.indexOf(AGAINST);
  if (project !== -1 && against !== -1 && (project < against) !== (round % 2 === 0)) {
    order[project] = AGAINST;
    order[against] = 'project';
  }
  return order;
}

/** Median requests per second and p99 of one scenario on one server. */
export function summarise(samples: readonly WrkResult[]): { requestsPerSecond: number; p99Ms: number } {
  return { requestsPerSecond: median(samples.map((sample) => sample.requestsPerSecond)), p99Ms: median(samples.map((sample) => sample.p99Ms)) };
}
