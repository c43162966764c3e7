import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startCommandText, withRevisionBuild } from './against.js';
import { AGAINST, runHttpBench, SCENARIOS, SERVERS } from './http.js';
import type { AgainstServer, HttpBenchResults, ServerName } from './http.js';
import { benchReport } from './report.js';
import type { AgainstInfo } from './report.js';
import type { InProcessOutput } from './in-process.js';
import { withRun } from './results-file.js';
import { BENCH_USAGE, benchCommand, readSettings } from './settings.js';
import { format, hasCommand, median, ROOT, run, runOnNode, startProcess, stopProcess } from './support.js';
import { toolFile, TOOLS_REGISTER } from '../test/tools/paths.js';

/** Milliseconds from spawning the server with `args` to the answer of its first authenticated request. */
async function startupOnce(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const env = { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: 'startup-key-0123456' };
  const { child, match } = await startProcess(args, { ready: /listening on (\S+)\n/, env, timeoutMs: 60_000 });
  try {
    const response = await fetch(`${match[1] as string}/pets`, { headers: { authorization: 'Bearer startup-key-0123456' } });
    if (response.status !== 200) throw new Error(`first request answered ${response.status}`);
    await response.text();
    return performance.now() - started;
  } finally {
    await stopProcess(child);
  }
}

/** Median startup time over `runs` runs, compiled (`node dist/extras/cli/main.js`) and through tsx. */
async function runStartupBench(runs: number): Promise<{ compiledMs: number; tsxMs: number }> {
  const compiled: number[] = [];
  const throughTsx: number[] = [];
  for (let round = 0; round < runs; round++) {
    compiled.push(await startupOnce([resolve(ROOT, 'dist', 'extras', 'cli', 'main.js')]));
    throughTsx.push(await startupOnce(['--import', 'tsx', resolve(ROOT, 'extras', 'cli', 'main.ts')]));
  }
  return { compiledMs: median(compiled), tsxMs: median(throughTsx) };
}

async function main(): Promise<void> {
  const started = performance.now();
  const settings = readSettings(process.argv.slice(2), ROOT);
  if (settings.isHelp) return void process.stdout.write(BENCH_USAGE);
  if (settings.nodeMajor !== undefined && settings.nodeMajor !== process.versions.node.split('.')[0]) {
    process.exitCode = await runOnNode(settings.nodeMajor, ['--import', 'tsx', '--import', TOOLS_REGISTER, resolve(ROOT, 'bench', 'run.ts'), ...process.argv.slice(2)]);
    return;
  }
  if (!(await hasCommand('wrk'))) throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian) installs it; the HTTP benchmark needs it');
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
      log(`Against: ${build.revision} starts as \`${againstInfo.start}\` (its start script); the worktree goes when the HTTP rounds end`);
      return measure(build);
    });
  const httpMs = performance.now() - httpStarted;

  log('In-process: the request core, then the engine at 1k, 100k and 1M pets…');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(ROOT, 'bench', 'in-process.ts')], { cwd: ROOT, maxBuffer: 1 << 20 });
  const inProcess = JSON.parse(stdout) as InProcessOutput;
  log('Startup…');
  const startup = await runStartupBench(5);

  const fastify = JSON.parse(await readFile(toolFile('fastify/package.json'), 'utf8')) as { version: string };
  // wrk -v prints its version and exits 1.
  const wrk = spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0]?.trim() ?? 'unknown';
  const report = benchReport({
    command: benchCommand(settings),
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${format(totalmem() / 2 ** 30, 1)} GiB; Node ${process.version}; fastify ${fastify.version}; ${wrk}.`,
    ...settings,
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
  log(`\n${report}\n\nWritten to ${settings.outputPath}, in the section for Node ${process.versions.node.split('.')[0]}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
