import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { startCommandText, withRevisionBuild } from './against.js';
import { AGAINST, runHttpBench, SCENARIOS, SERVERS } from './http.js';
import type { AgainstServer, HttpBenchResults, ServerName } from './http.js';
import { benchReport } from './report.js';
import type { AgainstInfo, InProcessOutput } from './report.js';
import { withRun } from './results-file.js';
import { BENCH_USAGE, benchCommand, readSettings } from './settings.js';
import type { BenchSettings } from './settings.js';
import { runStartupBench } from './startup.js';
import { format, hasCommand, ROOT, run } from './support.js';
import { toolFile, TOOLS_REGISTER } from '../test/tools/paths.js';

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
  const child = spawn(join(folder, 'node'), ['--import', 'tsx', '--import', TOOLS_REGISTER, resolve(ROOT, 'bench', 'run.ts'), ...process.argv.slice(2)], {
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

/** The version of a test tool (fastify), from its package.json where test/tools/ installs it. */
async function packageVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(toolFile(`${name}/package.json`), 'utf8')) as { version: string };
  return manifest.version;
}

async function main(): Promise<void> {
  const started = performance.now();
  const settings = readSettings(process.argv.slice(2), ROOT);
  if (settings.isHelp) {
    process.stdout.write(BENCH_USAGE);
    return;
  }
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

  const servers: ServerName[] = SERVERS.filter((server) => settings.isMetricsRun || server !== 'project-metrics');
  // Right after the project's, so the two builds are measured one after the other in the first round.
  if (settings.againstRevision !== undefined) servers.splice(1, 0, AGAINST);
  const httpStarted = performance.now();
  const measure = (against?: AgainstServer): Promise<HttpBenchResults> => {
    const wrkMinutes = (servers.length * settings.rounds * SCENARIOS.length * (settings.warmupSeconds + settings.durationSeconds)) / 60;
    log(`HTTP: ${settings.rounds} rounds × ${SCENARIOS.length} scenarios × ${servers.length} servers, ${settings.durationSeconds} s each after ${settings.warmupSeconds} s warm-up: ${wrkMinutes.toFixed(1)} min of wrk`);
    return runHttpBench({ ...settings, servers, log, ...(against === undefined ? {} : { against }) });
  };
  let againstInfo: AgainstInfo | undefined;
  const http = settings.againstRevision === undefined
    ? await measure()
    : await withRevisionBuild(settings.againstRevision, { repository: ROOT, log }, async (build) => {
      againstInfo = { revision: build.revision, commit: build.commit, start: startCommandText(build.start) };
      log(`Against: ${build.revision} starts as \`${againstInfo.start}\` (its ${build.start.source}); the worktree goes when the HTTP rounds end`);
      return measure({ root: build.root, nodeArguments: build.start.nodeArguments, script: build.start.script, args: build.start.args });
    });
  const httpMs = performance.now() - httpStarted;

  log('In-process: the request core, then the engine at 1k, 100k and 1M pets…');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(ROOT, 'bench', 'in-process.ts')], { cwd: ROOT, maxBuffer: 1 << 20 });
  const inProcess = JSON.parse(stdout) as InProcessOutput;

  log('Startup…');
  const startup = await runStartupBench(5);

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const report = benchReport({
    command: benchCommand(settings),
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
    ...(againstInfo === undefined ? {} : { against: againstInfo }),
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
