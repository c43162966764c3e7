import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runHttpBench, SCENARIOS, SERVERS } from './http.js';
import { benchReport } from './report.js';
import type { InProcessOutput } from './report.js';
import { withRun } from './results-file.js';
import { runStartupBench } from './startup.js';
import { format, hasCommand, ROOT, run } from './support.js';

/**
 * Settings of one benchmark run, from the command line: `npm run bench -- --rounds 5 --duration 5
 * --output /tmp/results.md`; `--no-metrics` leaves out the project's server with metrics on;
 * `--node 26` runs everything (the project's server, the comparison servers, the in-process and
 * startup figures) on the latest Node 26.
 */
interface BenchSettings {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Whether the project's server also runs with `PETSTORE_METRICS=true` (issue 13); default yes. */
  isMetricsRun: boolean;
  /** Where the report is written, in the section of this run's Node major; relative paths are read from the repository root. */
  outputPath: string;
  /** The Node major to run on, when not the one running this script. */
  nodeMajor: string | undefined;
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
      'no-metrics': { type: 'boolean', default: false },
      node: { type: 'string' },
    },
  });
  const nodeMajor = values.node;
  if (nodeMajor !== undefined && !/^\d+$/.test(nodeMajor)) throw new Error(`--node needs a Node major such as 26, not ${JSON.stringify(nodeMajor)}`);
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
    isMetricsRun: !values['no-metrics'],
    outputPath: resolve(ROOT, values.output),
    nodeMajor,
  };
}

/** Whether this process runs on the Node major `--node` asks for (or no other was asked for). */
function isOnRequestedNode(settings: BenchSettings): boolean {
  return settings.nodeMajor === undefined || settings.nodeMajor === process.versions.node.split('.')[0];
}

/**
 * Runs this script again on the latest release of the requested major, fetched by the installer of
 * the test matrix (scripts/test-node.sh) and first on PATH, so every process the benchmark starts,
 * and `npm run build` too, runs on that Node. Resolves with its exit code.
 */
async function runOnRequestedNode(major: string): Promise<number> {
  const { stdout } = await run('bash', [resolve(ROOT, 'scripts', 'test-node.sh'), major, '--install'], { cwd: ROOT });
  const folder = stdout.trim().split('\n').at(-1) ?? '';
  const child = spawn(join(folder, 'node'), ['--import', 'tsx', resolve(ROOT, 'bench', 'run.ts'), ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${folder}${delimiter}${process.env['PATH'] ?? ''}` },
  });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
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

async function main(): Promise<void> {
  const started = performance.now();
  const settings = readSettings(process.argv.slice(2));
  if (settings.nodeMajor !== undefined && !isOnRequestedNode(settings)) {
    process.exitCode = await runOnRequestedNode(settings.nodeMajor);
    return;
  }
  if (!(await hasCommand('wrk'))) {
    throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian) installs it; the HTTP benchmark needs it');
  }
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  log('Compiling: dist/ for the project server and the startup benchmark, dist-bench/ for the comparison and ceiling servers…');
  await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  await run(resolve(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', resolve(ROOT, 'bench', 'tsconfig.json')], { cwd: ROOT });

  const servers = SERVERS.filter((server) => settings.isMetricsRun || server !== 'project-metrics');
  const wrkMinutes = (servers.length * settings.rounds * SCENARIOS.length * (settings.warmupSeconds + settings.durationSeconds)) / 60;
  log(`HTTP: ${settings.rounds} rounds × ${SCENARIOS.length} scenarios × ${servers.length} servers, ${settings.durationSeconds} s each after ${settings.warmupSeconds} s warm-up: ${wrkMinutes.toFixed(1)} min of wrk`);
  const httpStarted = performance.now();
  const http = await runHttpBench({ ...settings, servers, log });
  const httpMs = performance.now() - httpStarted;

  log('In-process: the request core, then the engine at 1k, 100k and 1M pets…');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(ROOT, 'bench', 'in-process.ts')], { cwd: ROOT, maxBuffer: 1 << 20 });
  const inProcess = JSON.parse(stdout) as InProcessOutput;

  log('Startup…');
  const startup = await runStartupBench(5);

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const report = benchReport({
    command: `npm run bench -- --rounds ${settings.rounds} --duration ${settings.durationSeconds} --warmup ${settings.warmupSeconds} --connections ${settings.connections}${settings.isMetricsRun ? '' : ' --no-metrics'}${settings.nodeMajor === undefined ? '' : ` --node ${settings.nodeMajor}`}`,
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus().length} cores (${cpu}), ${format(totalmem() / 2 ** 30, 1)} GiB; Node ${process.version}; fastify ${await packageVersion('fastify')}; ${await versionOf('wrk', ['-v'])}.`,
    rounds: settings.rounds,
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
    connections: settings.connections,
    servers,
    http,
    inProcess,
    startup,
    elapsed: { totalMs: performance.now() - started, httpMs },
  });
  const previous = await readFile(settings.outputPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  await writeFile(settings.outputPath, withRun(previous, report, process.version));
  log('');
  log(report);
  log('');
  log(`Written to ${settings.outputPath}, in the section for Node ${process.versions.node.split('.')[0]}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
