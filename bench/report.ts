import { AGAINST, SCENARIOS, summarise } from './http.js';
import type { HttpBenchResults, ServerName } from './http.js';
import type { InProcessResult, RequestCoreResult } from './in-process.js';
import { format, median } from './support.js';

/** What bench/in-process.ts prints. */
export interface InProcessOutput {
  results: InProcessResult[];
  bytesPerPet: number;
  requestCore: RequestCoreResult[];
}

/** Everything the report is written from. */
export interface ReportInput {
  /** The command line that reproduces the run. */
  command: string;
  /** Date of the run, `YYYY-MM-DD`. */
  date: string;
  /** Cores, CPU, memory and the versions of Node, fastify and wrk, as one sentence. */
  machine: string;
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** The servers that ran, in the order of the first round. */
  servers: readonly ServerName[];
  http: HttpBenchResults;
  inProcess: InProcessOutput;
  startup: { compiledMs: number; tsxMs: number };
  /** Wall time of the whole run and of its HTTP part, ms. */
  elapsed: { totalMs: number; httpMs: number };
  /** The revision the `against` server was built from, when the run has one. */
  against?: AgainstInfo;
}

/** What the report says of the `against` server's revision. */
export interface AgainstInfo {
  /** The revision as given to `--against`. */
  revision: string;
  /** The full commit id it named. */
  commit: string;
  /** How its `npm start` ran its server, read from its package.json: `node dist/cli/main.js`. */
  start: string;
}

/** What each server is, for the report. */
const DESCRIPTIONS: Record<ServerName, string> = {
  'project': 'this project, started as `npm start` starts it (`node dist/extras/cli/main.js`), filled with the 1,000 pets over HTTP',
  'project-metrics': 'the same with `PETSTORE_METRICS=true` (`GET /metrics` checked to count the prefill before measuring)',
  'baseline': 'a hand-written `node:http` server (`bench/servers/baseline.ts`): `URL`, `JSON.stringify`, a constant-time key check',
  'fastify': 'fastify 5 doing the project\'s work (`bench/servers/fastify.ts`): schemas, an index by status, `WWW-Authenticate`, `Deprecation` and `Sunset`',
  'lean-fastify': 'fastify 5 as a user writes it in an afternoon (`bench/servers/lean-fastify.ts`): schemas for query, body, params and responses, a bearer `onRequest` hook, logger off, a plain loop for lists, fastify\'s default headers and `Location`, nothing else',
  'ceiling-plain': '`node:http` answering each scenario\'s captured status and body bytes without work, with `Content-Type` and `Content-Length` only (no `Date`, no `Connection`) (`bench/servers/ceiling.ts`)',
  'against': 'this project as built at the revision `--against` names, in a temporary git worktree with that revision\'s own `npm run build`, started as its own `npm start` starts it, filled with the 1,000 pets over HTTP',
  'ceiling-same-headers': 'the same, with exactly the headers the project sent for that scenario: names, case, order and values, a fresh `X-Request-Id` per answer of the project\'s shape, its counter going on from the captured ids so that it has the project\'s length at the same point of the run, and Node\'s own `Date`, `Connection` and `Keep-Alive` as the project gets them',
};

/** The servers other than the ceilings, whose fraction of each ceiling the report gives. */
const MEASURED: readonly ServerName[] = ['project', 'project-metrics', AGAINST, 'baseline', 'fastify', 'lean-fastify'];

/** The HTTP scenario whose project figure each in-process request is compared with. */
const SCENARIO_OF_REQUEST: Record<string, string> = {
  'GET /v1/pets/42': 'GET /v1/pets/42',
  'GET /v1/pets?limit=20': 'GET /v1/pets?limit=20',
  'POST /v1/pets': 'POST /v1/pets (201)',
};

/** Geometric mean of positive numbers (NaN when there are none). */
export function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}

function minutes(milliseconds: number): string {
  return `${(milliseconds / 60_000).toFixed(1)} min`;
}

function percent(fraction: number): string {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(0)} %` : '–';
}

function ratio(value: number, decimals = 2): string {
  return Number.isFinite(value) ? `${value.toFixed(decimals)}×` : '–';
}

/** Median req/s of a server in a scenario (NaN when it did not run). */
function requestsPerSecond(input: ReportInput, scenario: string, server: ServerName): number {
  const samples = input.http.samples.get(scenario)?.get(server) ?? [];
  return samples.length === 0 ? Number.NaN : summarise(samples).requestsPerSecond;
}

function p99(input: ReportInput, scenario: string, server: ServerName): string {
  const samples = input.http.samples.get(scenario)?.get(server) ?? [];
  return samples.length === 0 ? '–' : `${summarise(samples).p99Ms.toFixed(2)} ms`;
}

/**
 * The wall time of `--rounds 5 --duration 5 --warmup 2` with `servers` servers, from this run's
 * overheads: its time per server start (the project's prefill of 1,000 creates weighs most) and
 * its time outside the HTTP benchmark (build, in-process, startup).
 */
function standardRunMs(input: ReportInput, servers: number): number {
  const starts = input.servers.length * input.rounds;
  const wrkMs = starts * SCENARIOS.length * (input.warmupSeconds + input.durationSeconds) * 1000;
  const perStartMs = Math.max(0, input.elapsed.httpMs - wrkMs) / starts;
  return servers * 5 * (SCENARIOS.length * 7_000 + perStartMs) + (input.elapsed.totalMs - input.elapsed.httpMs);
}

/** The short commit id of the `against` revision, as the tables name it. */
function shortCommit(against: AgainstInfo): string {
  return against.commit.slice(0, 12);
}

function descriptionOf(input: ReportInput, server: ServerName): string {
  const { against } = input;
  if (server !== AGAINST || against === undefined) return DESCRIPTIONS[server];
  return `this project as built at \`${against.revision}\` (commit ${shortCommit(against)}), in a temporary git worktree with that revision's own \`npm run build\`, started as its own \`npm start\` starts it (\`${against.start}\`, read from its package.json), filled with the 1,000 pets over HTTP`;
}

function headerLines(input: ReportInput): string[] {
  const scenarioSeconds = input.warmupSeconds + input.durationSeconds;
  return [
    '# Benchmark results', '',
    `Written by \`${input.command}\` on ${input.date}. The run took ${minutes(input.elapsed.totalMs)}, of which HTTP ${minutes(input.elapsed.httpMs)} (${input.servers.length} servers × ${input.rounds} rounds × ${SCENARIOS.length} scenarios × ${scenarioSeconds} s of wrk, plus server starts and the project's prefills of 1,000 creates). With this run's overheads, \`npm run bench -- --rounds 5 --duration 5 --warmup 2\` takes about ${minutes(standardRunMs(input, 7))} with all seven servers, ${minutes(standardRunMs(input, 6))} with \`--no-metrics\`.`, '',
    `Machine: ${input.machine}`, '',
    'Servers:', '',
    '| server | what it is |', '|---|---|',
    ...input.servers.map((server) => `| \`${server}\` | ${descriptionOf(input, server)} |`), '',
    `Method: before the rounds, one project server is started and filled, and its answer to each scenario is captured on the wire (status, headers as sent, body) for the ceilings. The comparison servers are compiled by tsc from \`bench/servers/\` and run by plain node; all but the ceilings start with the same 1,000 pets in memory. Each server runs in its own process pinned to core 0 (\`taskset -c 0\`), wrk pinned to core 1 with 1 thread and ${input.connections} keep-alive connections; a fresh server process per server and round, all of a round's servers started first and each scenario then measured on every server in turn (so the figures a ratio compares are about a minute apart, where this shared machine's speed drifts by more than that over the run), servers alternating their order round by round${input.servers.includes(AGAINST) ? ' (the project and the `against` build each measured first of the two in every other round)' : ''}, each of the project's servers given only \`PORT\`, \`HOST\` and \`PETSTORE_API_KEYS\` in its environment as a user's \`npm start\` is; ${input.warmupSeconds} s warm-up then ${input.durationSeconds} s measured per scenario. Figures are medians over the ${input.rounds} rounds. The machine is shared, so absolute figures move between runs; the ratios are measured in the same run.`, '',
    'Every response is checked. Before measuring, one answer per scenario and server must have the exact status, a JSON `Content-Type` and the right body: the list pages exactly the first 20 pets, or the first 100 available ones, of the prefill, field for field; `GET /v1/pets/42` that pet; the 401 an Error body `{code, message, status: 401}`; the create the pet sent with a new id, and `Location: /v1/pets/<id>` (asked of every server but `ceiling-plain`, which sends two headers by definition). The same-headers ceiling\'s headers must equal the project\'s captured ones (names, case, order, values; `X-Request-Id` of the project\'s shape, `Date` an HTTP date). While measuring, wrk\'s count of non-2xx answers must be 0 (or all of them, for the 401 scenario), with no socket errors. The project\'s headers that a client may read but the checks do not require (`Link`, `WWW-Authenticate`, `Deprecation`, `Sunset`, `Cache-Control`, `X-Content-Type-Options`, `X-Request-Id`) are recorded per server under "Differences".', '',
  ];
}

function httpLines(input: ReportInput): string[] {
  const shown = input.servers.filter((server) => server !== 'project-metrics');
  const hasAgainst = input.servers.includes(AGAINST);
  const lines = ['## HTTP', '', 'Requests per second, medians:', ''];
  lines.push(`| scenario | ${shown.map((server) => `\`${server}\``).join(' | ')} | project / fastify | project / lean-fastify | project / baseline |${hasAgainst ? ' project / against |' : ''}`);
  lines.push(`|---|${shown.map(() => '---:').join('|')}|---:|---:|---:|${hasAgainst ? '---:|' : ''}`);
  const versus = { fastify: [] as number[], lean: [] as number[], baseline: [] as number[], against: [] as number[] };
  for (const { name, hasIdempotencyKey } of SCENARIOS) {
    const project = requestsPerSecond(input, name, 'project');
    const fastify = project / requestsPerSecond(input, name, 'fastify');
    const lean = project / requestsPerSecond(input, name, 'lean-fastify');
    const baseline = project / requestsPerSecond(input, name, 'baseline');
    const against = project / requestsPerSecond(input, name, AGAINST);
    // Both builds are this project's, so the keyed create is equal work between them and counts in their mean.
    versus.against.push(against);
    // The other servers ignore the key, so that row is no comparison of equal work; it stays out of the means.
    if (hasIdempotencyKey !== true) {
      versus.fastify.push(fastify);
      versus.lean.push(lean);
      versus.baseline.push(baseline);
    }
    lines.push(`| \`${name}\` | ${shown.map((server) => format(requestsPerSecond(input, name, server))).join(' | ')} | ${ratio(fastify)} | ${ratio(lean)} | ${ratio(baseline)} |${hasAgainst ? ` ${ratio(against)} |` : ''}`);
  }
  lines.push(`| **geometric mean** | ${shown.map(() => '').join(' | ')} | **${ratio(geometricMean(versus.fastify))}** | **${ratio(geometricMean(versus.lean))}** | **${ratio(geometricMean(versus.baseline))}** |${hasAgainst ? ` **${ratio(geometricMean(versus.against))}** |` : ''}`, '');
  if (hasAgainst) lines.push(`\`project / against\` is this build against the build of ${againstName(input)}: above 1.00× this build is faster. Its geometric mean takes all ${SCENARIOS.length} scenarios, the keyed create too, as both builds act on the key.`, '');
  const keyed = requestsPerSecond(input, 'POST /v1/pets with Idempotency-Key (201)', 'project') / requestsPerSecond(input, 'POST /v1/pets (201)', 'project');
  lines.push(`A create with a fresh \`Idempotency-Key\` per request runs at ${percent(keyed)} of the rate of one without (the project's server; the other servers ignore the header, so the geometric means leave that row out).`, '');
  lines.push('p99 latency, medians:', '');
  lines.push(`| scenario | ${input.servers.map((server) => `\`${server}\``).join(' | ')} |`, `|---|${input.servers.map(() => '---:').join('|')}|`);
  for (const { name } of SCENARIOS) lines.push(`| \`${name}\` | ${input.servers.map((server) => p99(input, name, server)).join(' | ')} |`);
  lines.push('', 'Targets (issue 6: project / fastify; issue 14: against both fastify servers):', '', '| target | wanted | measured | |', '|---|---:|---:|---|');
  const target = (name: string, wanted: number, measured: number): void => {
    const verdict = measured >= wanted ? 'met' : `missed by ${((1 - measured / wanted) * 100).toFixed(0)} %`;
    lines.push(`| ${name} | ≥ ${wanted.toFixed(2)}× | ${ratio(measured)} | ${Number.isFinite(measured) ? verdict : 'not measured'} |`);
  };
  const lowest = (ratios: readonly number[]): string => `every scenario (the lowest: \`${SCENARIOS[ratios.indexOf(Math.min(...ratios))]?.name ?? ''}\`)`;
  target('geometric mean of the five scenarios, against fastify', 1.3, geometricMean(versus.fastify));
  target('geometric mean of the five scenarios, against lean fastify', 1.3, geometricMean(versus.lean));
  target(`${lowest(versus.fastify)}, against fastify`, 1.0, Math.min(...versus.fastify));
  target(`${lowest(versus.lean)}, against lean fastify`, 1.0, Math.min(...versus.lean));
  target('`GET /v1/pets?limit=20`, against fastify', 1.35, versus.fastify[0] ?? Number.NaN);
  target('`GET /v1/pets?limit=100&status=available`, against fastify', 1.8, versus.fastify[1] ?? Number.NaN);
  lines.push('', ...reachLines(input), 'Why the misses are where they are, and what was tried: [docs/performance.md](../docs/performance.md).', '');
  return lines;
}

/**
 * Where 1.0× both fastify servers sits against what `node:http` allows with the project's headers:
 * a scenario whose target lies above its same-headers ceiling cannot be met by any server that
 * sends those headers on this machine (issue 14 asks for it to be shown, not chased).
 */
function reachLines(input: ReportInput): string[] {
  const lines = ['What 1.0× both fastify servers asks in each scenario, beside the same-headers ceiling of the same run:', ''];
  lines.push('| scenario | needed (the faster fastify) | `project` | `ceiling-same-headers` | needed / ceiling | project / ceiling |', '|---|---:|---:|---:|---:|---:|');
  for (const { name } of SCENARIOS) {
    const needed = Math.max(requestsPerSecond(input, name, 'fastify'), requestsPerSecond(input, name, 'lean-fastify'));
    const ceiling = requestsPerSecond(input, name, 'ceiling-same-headers');
    const project = requestsPerSecond(input, name, 'project');
    lines.push(`| \`${name}\` | ${format(needed)} | ${format(project)} | ${format(ceiling)} | ${percent(needed / ceiling)} | ${percent(project / ceiling)} |`);
  }
  lines.push('');
  return lines;
}

/** How the text names the `against` revision: `` `v3.0.0` (commit 762c6c9…) ``. */
function againstName(input: ReportInput): string {
  return input.against === undefined ? 'the `against` revision' : `\`${input.against.revision}\` (commit ${shortCommit(input.against)})`;
}

/**
 * This build against the `against` one: the medians of both, their ratio, and the ratio of each
 * round's two figures, measured a minute apart, so the spread of the ratio shows beside it.
 */
function againstLines(input: ReportInput): string[] {
  if (!input.servers.includes(AGAINST)) return [];
  const lines = [`## This build against ${againstName(input)}`, ''];
  lines.push(`This checkout's build (\`project\`) against ${againstName(input)}${input.against === undefined ? '' : `, started as \`${input.against.start}\``}, in the same rounds, each scenario measured on both about a minute apart; medians over ${input.rounds === 1 ? 'its one round' : `the ${input.rounds} rounds`}. Above 1.00× this build is faster.`, '');
  lines.push('| scenario | this req/s | that req/s | this / that | each round | p99 this | p99 that |', '|---|---:|---:|---:|---|---:|---:|');
  const ratios: number[] = [];
  for (const { name } of SCENARIOS) {
    const current = requestsPerSecond(input, name, 'project');
    const previous = requestsPerSecond(input, name, AGAINST);
    ratios.push(current / previous);
    const currentRounds = input.http.samples.get(name)?.get('project') ?? [];
    const previousRounds = input.http.samples.get(name)?.get(AGAINST) ?? [];
    const rounds = currentRounds.map((sample, round) => ratio(sample.requestsPerSecond / (previousRounds[round]?.requestsPerSecond ?? Number.NaN))).join(', ');
    lines.push(`| \`${name}\` | ${format(current)} | ${format(previous)} | ${ratio(current / previous)} | ${rounds} | ${p99(input, name, 'project')} | ${p99(input, name, AGAINST)} |`);
  }
  lines.push(`| **geometric mean** | | | **${ratio(geometricMean(ratios))}** | | | |`, '');
  return [...lines, ...againstCpuLines(input)];
}

/** The median of a server's CPU µs per request in a scenario, over the rounds that have it. */
function cpuPerRequest(input: ReportInput, name: string, server: ServerName): number[] {
  return (input.http.samples.get(name)?.get(server) ?? []).map((sample) => sample.cpuMicroseconds ?? Number.NaN);
}

/**
 * The same comparison by the servers' CPU time per request (their threads' time from /proc over the
 * measured run, divided by the requests answered): what each answer costs, which a neighbour on the
 * shared core or a slow round moves far less than it moves throughput.
 */
function againstCpuLines(input: ReportInput): string[] {
  const hasCpu = SCENARIOS.every(({ name }) => [...cpuPerRequest(input, name, 'project'), ...cpuPerRequest(input, name, AGAINST)].every(Number.isFinite));
  if (!hasCpu) return [];
  const lines = ['By server CPU per request (its threads\' time from `/proc` over the measured run, divided by the requests answered); `that / this` above 1.00× means this build spends less per request.', ''];
  lines.push('| scenario | this µs | that µs | that / this | each round |', '|---|---:|---:|---:|---|');
  const ratios: number[] = [];
  for (const { name } of SCENARIOS) {
    const current = cpuPerRequest(input, name, 'project');
    const previous = cpuPerRequest(input, name, AGAINST);
    const perRound = current.map((value, round) => (previous[round] ?? Number.NaN) / value);
    ratios.push(median(perRound));
    lines.push(`| \`${name}\` | ${format(median(current), 1)} | ${format(median(previous), 1)} | ${ratio(median(perRound))} | ${perRound.map((value) => ratio(value)).join(', ')} |`);
  }
  lines.push(`| **geometric mean** | | | **${ratio(geometricMean(ratios))}** | |`, '');
  return lines;
}

function ceilingLines(input: ReportInput): string[] {
  const servers = MEASURED.filter((server) => input.servers.includes(server));
  const lines = ['## Fraction of the ceilings', ''];
  lines.push('Each server\'s median req/s as a fraction of the ceilings\' in the same scenario: `plain` is what `node:http` reaches sending the same bytes with two headers, `same` with exactly the project\'s headers. The gap between the two ceilings is what the project\'s headers cost `node:http` alone.', '');
  lines.push(`| scenario | ${servers.map((server) => `\`${server}\` plain / same`).join(' | ')} | same-headers ceiling / plain |`);
  lines.push(`|---|${servers.map(() => '---:').join('|')}|---:|`);
  const fractions = new Map<string, { plain: number[]; same: number[] }>(servers.map((server) => [server, { plain: [], same: [] }]));
  const ceilingCost: number[] = [];
  for (const { name } of SCENARIOS) {
    const plain = requestsPerSecond(input, name, 'ceiling-plain');
    const same = requestsPerSecond(input, name, 'ceiling-same-headers');
    const cells = servers.map((server) => {
      const value = requestsPerSecond(input, name, server);
      fractions.get(server)?.plain.push(value / plain);
      fractions.get(server)?.same.push(value / same);
      return `${percent(value / plain)} / ${percent(value / same)}`;
    });
    ceilingCost.push(same / plain);
    lines.push(`| \`${name}\` | ${cells.join(' | ')} | ${percent(same / plain)} |`);
  }
  const means = servers.map((server) => {
    const { plain, same } = fractions.get(server) ?? { plain: [], same: [] };
    return `**${percent(geometricMean(plain))} / ${percent(geometricMean(same))}**`;
  });
  lines.push(`| **geometric mean** | ${means.join(' | ')} | **${percent(geometricMean(ceilingCost))}** |`, '');
  return lines;
}

function differenceLines(input: ReportInput): string[] {
  const servers = input.servers.filter((server) => server !== 'project' && server !== 'project-metrics');
  const lines = ['## Differences', ''];
  lines.push('Headers the project sends that each other server left out (every server passed the checks above; `Location` on the create is checked, not listed). The ceiling-plain server leaves them all out by design.', '');
  lines.push(`| server | ${SCENARIOS.map(({ name }) => `\`${name}\``).join(' | ')} |`, `|---|${SCENARIOS.map(() => '---').join('|')}|`);
  for (const server of servers) {
    const byScenario = input.http.missingHeaders.get(server);
    const cells = SCENARIOS.map(({ name }) => {
      const missing = byScenario?.get(name);
      return missing === undefined ? '–' : missing.length === 0 ? 'none missing' : missing.map((header) => `\`${header}\``).join(', ');
    });
    lines.push(`| \`${server}\` | ${cells.join(' | ')} |`);
  }
  const project = input.http.missingHeaders.get('project');
  const projectMissing = SCENARIOS.flatMap(({ name }) => project?.get(name) ?? []);
  lines.push('', projectMissing.length === 0 ? 'The project sent every one of them.' : `The project itself left out: ${projectMissing.join(', ')}.`, '');
  lines.push('Beyond headers, the other servers differ from the project in what the checks do not reach: see the conformance kit\'s table in [docs/conformance-kit.md](../docs/conformance-kit.md). `lean-fastify` has no paging beyond `limit` (no `Link`, no `after`), which the interface does not show either [spec 4.4].', '');
  return lines;
}

function metricsCostLines(input: ReportInput): string[] {
  if (!input.servers.includes('project-metrics')) return ['## Cost of metrics', '', 'Not measured in this run (`--no-metrics`).', ''];
  const lines = ['## Cost of metrics', ''];
  lines.push('The project\'s server with `PETSTORE_METRICS=true` against the same server without; medians of the same rounds.', '');
  lines.push('| scenario | off req/s | on req/s | on / off | p99 off | p99 on |', '|---|---:|---:|---:|---:|---:|');
  const ratios: number[] = [];
  for (const { name } of SCENARIOS) {
    const off = requestsPerSecond(input, name, 'project');
    const on = requestsPerSecond(input, name, 'project-metrics');
    ratios.push(on / off);
    lines.push(`| \`${name}\` | ${format(off)} | ${format(on)} | ${ratio(on / off, 3)} | ${p99(input, name, 'project')} | ${p99(input, name, 'project-metrics')} |`);
  }
  const lowest = Math.min(...ratios);
  lines.push(`| **geometric mean** | | | **${ratio(geometricMean(ratios), 3)}** | | |`, '');
  lines.push(`Target: metrics on within 5 % of off in every scenario (≥ 0.95×); the lowest is ${ratio(lowest, 3)}, ${lowest >= 0.95 ? 'met' : `missed by ${((0.95 - lowest) * 100).toFixed(1)} points`}.`, '');
  return lines;
}

function roundLines(input: ReportInput): string[] {
  const lines = ['All rounds (req/s):', '', '| scenario | server | rounds |', '|---|---|---|'];
  for (const { name } of SCENARIOS) {
    for (const server of input.servers) {
      const samples = input.http.samples.get(name)?.get(server) ?? [];
      lines.push(`| \`${name}\` | ${server} | ${samples.map((sample) => format(sample.requestsPerSecond)).join(', ')} |`);
    }
  }
  return [...lines, ''];
}

function inProcessLines(input: ReportInput): string[] {
  const { results, bytesPerPet, requestCore } = input.inProcess;
  const lines = ['## In-process engine', ''];
  lines.push('| operation | pets | ns/op | ops/s |', '|---|---:|---:|---:|');
  for (const result of results) lines.push(`| \`${result.operation}\` | ${format(result.pets)} | ${format(result.nsPerOp)} | ${format(result.opsPerSecond)} |`);
  const statusCost = (pets: number): number => results.find((result) => result.operation === 'listPets({ limit: 100, status })' && result.pets === pets)?.nsPerOp ?? Number.NaN;
  lines.push('', `\`listPets({ limit: 100, status })\` at 1M pets costs ${ratio(statusCost(1_000_000) / statusCost(1_000))} its cost at 1k (target ≤ 1.5×).`);
  lines.push(`Heap per pet at 1M pets (10-character names, after full GC): **${bytesPerPet.toFixed(1)} bytes** (target ≤ 200).`, '');
  lines.push('## Request core in-process', '');
  lines.push('The HTTP layer without a socket, on a store of 1,000 pets, medians of five batches: through `inject` (testing/, which copies headers in and out and decodes the body) and through `core.handle` as the `node:http` adapter calls it. "HTTP" is the project server\'s time per request in the matching scenario, 10⁹ / its median req/s on its one core, so the last column is the share of a request\'s time that the core takes; the rest is Node\'s HTTP parsing, `ServerResponse`, the socket and the kernel.', '');
  lines.push('| request | inject ns/op | core.handle ns/op | HTTP ns/request | core.handle / HTTP |', '|---|---:|---:|---:|---:|');
  for (const result of requestCore) {
    const scenario = SCENARIO_OF_REQUEST[result.request];
    const httpNs = scenario === undefined ? Number.NaN : 1e9 / requestsPerSecond(input, scenario, 'project');
    lines.push(`| \`${result.request}\` | ${format(result.injectNsPerOp)} | ${format(result.handleNsPerOp)} | ${Number.isFinite(httpNs) ? format(httpNs) : '–'} | ${percent(result.handleNsPerOp / httpNs)} |`);
  }
  return [...lines, ''];
}

function startupLines(input: ReportInput): string[] {
  return [
    '## Startup', '',
    'Process start to the answer of the first authenticated `GET /v1/pets`, median of 5:', '',
    '| command | ms |', '|---|---:|',
    `| \`node dist/extras/cli/main.js\` | ${input.startup.compiledMs.toFixed(0)} |`, `| \`node --import tsx extras/cli/main.ts\` | ${input.startup.tsxMs.toFixed(0)} |`, '',
  ];
}

/** The Markdown report of one run of `npm run bench`. */
export function benchReport(input: ReportInput): string {
  return [
    ...headerLines(input), ...httpLines(input), ...againstLines(input), ...ceilingLines(input), ...differenceLines(input),
    ...metricsCostLines(input), ...roundLines(input), ...inProcessLines(input), ...startupLines(input),
  ].join('\n');
}
