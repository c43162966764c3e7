import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runHttpBench, SCENARIOS, SERVERS, summarise } from './http.js';
import type { InProcessResult } from './in-process.js';
import { runStartupBench } from './startup.js';
import { format, hasCommand, ROOT, run } from './support.js';

/** Settings of one benchmark run, from the command line: `npm run bench -- --rounds 5 --duration 5 --output /tmp/results.md`. */
interface BenchSettings {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Where the report is written; relative paths are read from the repository root. */
  outputPath: string;
}

/** The report the real run writes, and the documentation links to. */
const DEFAULT_OUTPUT = 'bench/RESULTS.md';

function readSettings(argv: readonly string[]): BenchSettings {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      output: { type: 'string', default: DEFAULT_OUTPUT },
    },
  });
  const positive = (name: 'rounds' | 'duration' | 'warmup' | 'connections'): number => {
    const parsed = Number(values[name]);
    if (!(parsed > 0)) throw new Error(`--${name} needs a positive number, not ${JSON.stringify(values[name])}`);
    return parsed;
  };
  return {
    rounds: positive('rounds'),
    durationSeconds: positive('duration'),
    warmupSeconds: positive('warmup'),
    connections: positive('connections'),
    outputPath: resolve(ROOT, values.output),
  };
}

function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}

async function versionOf(command: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args);
    return (stdout || stderr).split('\n')[0]?.trim() ?? '';
  } catch (error) {
    // wrk -v exits 1 after printing its version.
    const output = error as { stdout?: string };
    return output.stdout?.split('\n')[0]?.trim() ?? 'unknown';
  }
}

async function packageVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(resolve(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * The cost of metrics: the project's server with `PETSTORE_METRICS=true` against the same server
 * without, per scenario, from the same rounds (issue 13: within 5 % of off).
 */
function metricsCostLines(http: Awaited<ReturnType<typeof runHttpBench>>): string[] {
  const lines = ['## Cost of metrics', ''];
  lines.push('The project\'s server with `PETSTORE_METRICS=true` (`GET /metrics` checked to count the prefill before measuring) against the same server without; medians of the same rounds.', '');
  lines.push('| scenario | off req/s | on req/s | on / off | p99 off | p99 on |', '|---|---:|---:|---:|---:|---:|');
  const ratios: number[] = [];
  for (const scenario of SCENARIOS) {
    const byServer = http.get(scenario.name);
    const off = summarise(byServer?.get('project') ?? []);
    const on = summarise(byServer?.get('project-metrics') ?? []);
    const ratio = on.requestsPerSecond / off.requestsPerSecond;
    ratios.push(ratio);
    lines.push(`| \`${scenario.name}\` | ${format(off.requestsPerSecond)} | ${format(on.requestsPerSecond)} | ${ratio.toFixed(3)}× | ${off.p99Ms.toFixed(2)} ms | ${on.p99Ms.toFixed(2)} ms |`);
  }
  const lowest = Math.min(...ratios);
  lines.push(`| **geometric mean** | | | **${geometricMean(ratios).toFixed(3)}×** | | |`, '');
  lines.push(`Target: metrics on within 5 % of off in every scenario (≥ 0.95×); the lowest is ${lowest.toFixed(3)}×, ${lowest >= 0.95 ? 'met' : `missed by ${((0.95 - lowest) * 100).toFixed(1)} points`}.`, '');
  return lines;
}

async function main(): Promise<void> {
  const settings = readSettings(process.argv.slice(2));
  if (!(await hasCommand('wrk'))) {
    throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian) installs it; the HTTP benchmark needs it');
  }
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  log('Compiling: dist/ for the project server and the startup benchmark, dist-bench/ for the baseline and fastify servers…');
  await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  await run(resolve(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', resolve(ROOT, 'bench', 'tsconfig.json')], { cwd: ROOT });

  log(`HTTP: ${settings.rounds} rounds × ${SCENARIOS.length} scenarios × ${SERVERS.length} servers, ${settings.durationSeconds} s each after ${settings.warmupSeconds} s warm-up`);
  const http = await runHttpBench({ ...settings, log });

  log('In-process: 1k, 100k and 1M pets…');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(ROOT, 'bench', 'in-process.ts')], { cwd: ROOT, maxBuffer: 1 << 20 });
  const inProcess = JSON.parse(stdout) as { results: InProcessResult[]; bytesPerPet: number };

  log('Startup…');
  const startup = await runStartupBench(5);

  const lines: string[] = [];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  lines.push('# Benchmark results', '');
  lines.push(`Written by \`npm run bench -- --rounds ${settings.rounds} --duration ${settings.durationSeconds} --warmup ${settings.warmupSeconds} --connections ${settings.connections}\` on ${new Date().toISOString().slice(0, 10)}.`, '');
  lines.push(`Machine: ${cpus().length} cores (${cpu}), ${format(totalmem() / 2 ** 30, 1)} GiB; Node ${process.version}; fastify ${await packageVersion('fastify')}; ${await versionOf('wrk', ['-v'])}.`, '');
  lines.push(`Method: the project's server is started exactly as \`npm start\` starts it, \`node dist/cli/main.js\` (built by \`npm run build\`) with \`PORT=0 HOST=127.0.0.1 PETSTORE_API_KEYS=<bench key>\`, and filled with 1,000 pets over HTTP (\`POST /v1/pets\` one after the other, every answer checked to be 201 with ids 1 to 1,000 in order); the baseline and fastify servers are compiled by tsc from \`bench/servers/\`, run by plain node and start with the same 1,000 pets in memory. Each server runs in its own process pinned to core 0 (\`taskset -c 0\`), wrk pinned to core 1 with 1 thread and ${settings.connections} keep-alive connections; a fresh server process per server and round, servers alternating their order round by round; the project's server runs twice per round, without and with \`PETSTORE_METRICS=true\`; ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s measured per scenario. Every response is checked: each scenario's exact status once before measuring, and wrk's count of non-2xx answers must be 0 (or all of them, for the 401 scenario). Figures are medians over the ${settings.rounds} rounds. The machine is shared, so absolute figures move between runs; the ratios are measured in the same run.`, '');
  lines.push('## HTTP', '');
  lines.push('| scenario | project req/s | baseline req/s | fastify req/s | project / fastify | project / baseline | p99 project | p99 baseline | p99 fastify |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const versusFastify: number[] = [];
  const versusBaseline: number[] = [];
  for (const scenario of SCENARIOS) {
    const byServer = http.get(scenario.name);
    const [project, baseline, fastify] = (['project', 'baseline', 'fastify'] as const).map((server) => summarise(byServer?.get(server) ?? []));
    if (project === undefined || baseline === undefined || fastify === undefined) continue;
    const ratioFastify = project.requestsPerSecond / fastify.requestsPerSecond;
    const ratioBaseline = project.requestsPerSecond / baseline.requestsPerSecond;
    versusFastify.push(ratioFastify);
    versusBaseline.push(ratioBaseline);
    lines.push(`| \`${scenario.name}\` | ${format(project.requestsPerSecond)} | ${format(baseline.requestsPerSecond)} | ${format(fastify.requestsPerSecond)} | ${ratioFastify.toFixed(2)}× | ${ratioBaseline.toFixed(2)}× | ${project.p99Ms.toFixed(2)} ms | ${baseline.p99Ms.toFixed(2)} ms | ${fastify.p99Ms.toFixed(2)} ms |`);
  }
  lines.push(`| **geometric mean** | | | | **${geometricMean(versusFastify).toFixed(2)}×** | **${geometricMean(versusBaseline).toFixed(2)}×** | | | |`, '');
  lines.push('Targets (project / fastify):', '', '| target | wanted | measured | |', '|---|---:|---:|---|');
  const target = (name: string, wanted: number, measured: number): void => {
    const verdict = measured >= wanted ? 'met' : `missed by ${((1 - measured / wanted) * 100).toFixed(0)} %`;
    lines.push(`| ${name} | ≥ ${wanted.toFixed(2)}× | ${measured.toFixed(2)}× | ${verdict} |`);
  };
  target('geometric mean of the five scenarios', 1.3, geometricMean(versusFastify));
  target('every scenario (the lowest)', 1.0, Math.min(...versusFastify));
  target('`GET /v1/pets?limit=20`', 1.35, versusFastify[0] ?? 0);
  target('`GET /v1/pets?limit=100&status=available`', 1.8, versusFastify[1] ?? 0);
  lines.push('', 'Why the misses are where they are, and what was tried: [docs/performance.md](../docs/performance.md).', '');
  lines.push(...metricsCostLines(http));
  lines.push('All rounds (req/s):', '', '| scenario | server | rounds |', '|---|---|---|');
  for (const scenario of SCENARIOS) {
    for (const server of SERVERS) {
      const samples = http.get(scenario.name)?.get(server) ?? [];
      lines.push(`| \`${scenario.name}\` | ${server} | ${samples.map((sample) => format(sample.requestsPerSecond)).join(', ')} |`);
    }
  }
  lines.push('', '## In-process engine', '');
  lines.push('| operation | pets | ns/op | ops/s |', '|---|---:|---:|---:|');
  for (const result of inProcess.results) lines.push(`| \`${result.operation}\` | ${format(result.pets)} | ${format(result.nsPerOp)} | ${format(result.opsPerSecond)} |`);
  const statusCost = (pets: number): number => inProcess.results.find((result) => result.operation === 'listPets({ limit: 100, status })' && result.pets === pets)?.nsPerOp ?? Number.NaN;
  lines.push('', `\`listPets({ limit: 100, status })\` at 1M pets costs ${(statusCost(1_000_000) / statusCost(1_000)).toFixed(2)}× its cost at 1k (target ≤ 1.5×).`);
  lines.push(`Heap per pet at 1M pets (10-character names, after full GC): **${inProcess.bytesPerPet.toFixed(1)} bytes** (target ≤ 200).`, '');
  lines.push('## Startup', '');
  lines.push('Process start to the answer of the first authenticated `GET /v1/pets`, median of 5:', '');
  lines.push('| command | ms |', '|---|---:|');
  lines.push(`| \`node dist/cli/main.js\` | ${startup.compiledMs.toFixed(0)} |`, `| \`node --import tsx cli/main.ts\` | ${startup.tsxMs.toFixed(0)} |`, '');
  const report = lines.join('\n');
  await writeFile(settings.outputPath, report);
  log('');
  log(report);
  log('');
  log(`Written to ${settings.outputPath}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
