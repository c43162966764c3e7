import type { ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { commitOf, startCommandOf, startCommandText } from './against.js';
import type { NamedBuild, StartCommand } from './against.js';
import { gaugeTable, processCpuMicroseconds, summariseRoute } from './gauge-figures.js';
import type { RouteSamples } from './gauge-figures.js';
import { errorCheck } from './checks.js';
import { AGAINST, luaScript, parseWrk, SCENARIOS, startBenchServer, wrk } from './http.js';
import { BENCH_KEY } from './servers/fixture.js';
import { hasCommand, ROOT, run, runOnNode, stopProcess } from './support.js';

/** What `npm run bench:gauge -- --help` prints. */
const USAGE = `Usage: npm run bench:gauge -- [options]

The short gauge: the server's CPU time per request, route by route, for this build against another
revision (the last release by default), both built and started as \`npm start\` starts them, filled
with 1,000 pets over HTTP, in the same rounds. Every change to lib/ or server/ is checked with it,
and its table goes in the change's description.

Options:
  --against <rev>   the revision to compare with (default: v3.0.0 when that tag exists, else 762c6c9,
                    the commit 3.0.0 was released from), or \`lean-fastify\`: fastify 5 as a user
                    writes it (bench/servers/fastify.ts's lean server, started as \`npm run bench\` starts it)
  --node <major>    run both servers (and the build) on the latest release of that Node major, as
                    \`npm run bench -- --node <major>\` does
  --rounds <n>      rounds, each with a fresh process of each build (default 4)
  --duration <s>    whole seconds of wrk measured per route, build and round (default 1)
  --warmup <s>      whole seconds of wrk before each measurement, not counted (default 1)
  --idle <s>        seconds both servers idle after their start and fill, before the warm-up
                    (default 0): 15 shows a fall that comes after an idle spell, as Node 20's did
  --route <text>    measure only the routes whose name contains the text, e.g. 'POST /v1/pets (201)'
                    (the reads still warm up together first, as in a whole run)
  --help            print this and exit
`;

/** The commit 3.0.0, the last release, was made from; it has no tag in this repository. */
const LAST_RELEASE_COMMIT = '762c6c9';

/** Where built revisions are kept between runs, one folder per commit. */
const CACHE = resolve(ROOT, '.cache', 'gauge');

/** The comparison server `--against` may name instead of a revision. */
const LEAN_FASTIFY = 'lean-fastify';

/** What the gauge compares this build with: another revision of the project, or lean fastify. */
type AgainstBuild = NamedBuild | typeof LEAN_FASTIFY;

/** The bench's routes and two refusals, which a client or an attacker chooses as freely: a missing pet and a malformed query. */
const ROUTES = [...SCENARIOS, ...([['/v1/pets/999999', 404], ['/v1/pets?limit=abc', 400]] as const).map(([path, status]) => (
  { name: `GET ${path} (${status})`, method: 'GET', path, isAuthenticated: true, expectedStatus: status, check: errorCheck(status) } as const))];

/** The requests the reads' warm-up sends; wrk needs a scenario for its URL, the script chooses the requests. */
const READS_WARM_UP = SCENARIOS.find((scenario) => scenario.name === 'GET /v1/pets/42') as (typeof SCENARIOS)[number];

/** A wrk script that sends the read routes in turn, so one warm-up readies them all. */
function readsWarmUpScript(): string {
  const requests = ROUTES.filter((scenario) => scenario.method === 'GET').map((scenario) => {
    const headers = scenario.isAuthenticated ? `{ ["Authorization"] = "Bearer ${BENCH_KEY}" }` : '{}';
    return `    wrk.format("GET", "${scenario.path}", ${headers}),`;
  });
  return ['local requests', 'local counter = 0', 'init = function(args)', '  requests = {', ...requests, '  }', 'end',
    'request = function()', '  counter = counter + 1', '  return requests[(counter % #requests) + 1]', 'end', ''].join('\n');
}

/** The settings of one run. */
interface GaugeSettings {
  against: string | undefined;
  nodeMajor: string | undefined;
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  idleSeconds: number;
  route: string | undefined;
  isHelp: boolean;
}

function readGaugeSettings(argv: readonly string[]): GaugeSettings {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      against: { type: 'string' },
      node: { type: 'string' },
      rounds: { type: 'string', default: '4' },
      duration: { type: 'string', default: '1' },
      warmup: { type: 'string', default: '1' },
      idle: { type: 'string', default: '0' },
      route: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  // wrk takes whole seconds.
  const whole = (name: 'rounds' | 'duration' | 'warmup' | 'idle', least = 1): number => {
    const value = Number(values[name]);
    if (!(Number.isSafeInteger(value) && value >= least)) throw new Error(`--${name} needs a whole number of at least ${least}, not ${JSON.stringify(values[name])}`);
    return value;
  };
  if (values.against !== undefined && !/^[^\s-][^\s\x00-\x1f\x7f]*$/.test(values.against)) {
    throw new Error(`--against needs a git revision such as 762c6c9, not ${JSON.stringify(values.against)}`);
  }
  if (values.node !== undefined && !/^\d+$/.test(values.node)) throw new Error(`--node needs a Node major such as 26, not ${JSON.stringify(values.node)}`);
  const { against, node: nodeMajor, route, help: isHelp } = values;
  return { against, nodeMajor, rounds: whole('rounds'), durationSeconds: whole('duration'), warmupSeconds: whole('warmup'), idleSeconds: whole('idle', 0), route, isHelp };
}

/** The last release: its tag when it has one, else the commit it was made from. */
async function lastRelease(): Promise<string> {
  const { stdout } = await run('git', ['tag', '--list', 'v3.0.0'], { cwd: ROOT });
  return stdout.trim() === 'v3.0.0' ? 'v3.0.0' : LAST_RELEASE_COMMIT;
}

/** The version of a package a package-lock.json pins, or undefined. */
function lockedVersion(lock: string, name: string): string | undefined {
  const entry = (JSON.parse(lock) as { packages?: Record<string, { version?: unknown } | null> } | null)?.packages?.[`node_modules/${name}`];
  return typeof entry?.version === 'string' ? entry.version : undefined;
}

/**
 * The revision's files (`git archive`, no worktree to register) built with its own `npm run build`
 * and kept in .cache/gauge/<commit>/, so a second run starts at once. The build needs only the
 * compiler: when the revision's package-lock.json pins the TypeScript this checkout has, this
 * checkout's node_modules is linked; otherwise the revision gets its own `npm ci`. The server
 * itself has no dependencies. tsc writes the same JavaScript whether or not it finds the types of an
 * optional peer (`pg`), so a build whose only errors are missing modules is used, and says so.
 */
async function revisionBuild(revision: string, log: (line: string) => void): Promise<NamedBuild> {
  const commit = await commitOf(ROOT, revision);
  const folder = join(CACHE, commit);
  const marker = join(folder, 'built.json');
  const cached = await readFile(marker, 'utf8').then((text) => JSON.parse(text) as StartCommand, () => undefined);
  if (cached !== undefined) return { name: revision, root: folder, start: cached };
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  log(`Building ${revision} (${commit.slice(0, 12)}) in ${folder}, kept for the next run…`);
  await run('sh', ['-c', `git archive ${commit} | tar -x -C "${folder}"`], { cwd: ROOT, maxBuffer: 1 << 24 });
  const start = startCommandOf(JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')));
  const ownLock = await readFile(join(ROOT, 'package-lock.json'), 'utf8');
  const theirLock = await readFile(join(folder, 'package-lock.json'), 'utf8').catch(() => '{}');
  const compiler = lockedVersion(ownLock, 'typescript');
  if (compiler !== undefined && compiler === lockedVersion(theirLock, 'typescript')) {
    await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
  } else {
    log(`${revision} pins another TypeScript: npm ci…`);
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: folder, maxBuffer: 1 << 26 });
  }
  try {
    await run('npm', ['run', 'build', '--silent'], { cwd: folder, maxBuffer: 1 << 24 });
  } catch (error) {
    const output = typeof error === 'object' && error !== null && 'stdout' in error ? String(error.stdout) : String(error);
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    if (errors.length === 0 || !errors.every((line) => /error TS2307: Cannot find module/.test(line))) throw new Error(`npm run build of ${revision} failed:\n${output.slice(-2000)}`);
    log(`${revision}'s build could not find the types of ${errors.length} optional module(s); the JavaScript is written all the same`);
  }
  await access(join(folder, start.script));
  await writeFile(marker, JSON.stringify(start));
  return { name: revision, root: folder, start };
}

/**
 * Starts a build as `npm start` does (only PORT, HOST and PETSTORE_API_KEYS in its environment, all
 * its threads pinned to core 0, filled with the 1,000 pets through `POST /v1/pets`), or lean fastify
 * as `npm run bench` starts it, with the same pets.
 */
async function startBuild(build: AgainstBuild): Promise<{ child: ChildProcess; origin: string; pid: number }> {
  const { child, origin } = build === LEAN_FASTIFY ? await startBenchServer(LEAN_FASTIFY, '') : await startBenchServer(AGAINST, '', [], build);
  return { child, origin, pid: child.pid as number };
}

async function main(): Promise<void> {
  const started = performance.now();
  const settings = readGaugeSettings(process.argv.slice(2));
  if (settings.isHelp) {
    process.stdout.write(USAGE);
    return;
  }
  const { route } = settings;
  const routes = route === undefined ? ROUTES : ROUTES.filter((scenario) => scenario.name.includes(route));
  if (routes.length === 0) throw new Error(`--route names no route: ${JSON.stringify(route)} is in none of ${ROUTES.map(({ name }) => name).join(', ')}`);
  if (settings.nodeMajor !== undefined && settings.nodeMajor !== process.versions.node.split('.')[0]) {
    process.exitCode = await runOnNode(settings.nodeMajor, ['--import', 'tsx', resolve(ROOT, 'bench', 'gauge.ts'), ...process.argv.slice(2)]);
    return;
  }
  for (const command of ['wrk', 'taskset']) {
    if (!(await hasCommand(command))) throw new Error(`${command} is not installed: the gauge pins each server to core 0 and wrk to core 1 (Debian: apt-get install -y wrk util-linux)`);
  }
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  const loadBefore = loadavg();
  const againstRevision = settings.against ?? (await lastRelease());
  await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  const current: NamedBuild = { name: 'this build', root: ROOT, start: startCommandOf(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'))) };
  let against: AgainstBuild = LEAN_FASTIFY;
  if (againstRevision === LEAN_FASTIFY) {
    // Compiled by tsc as `npm run bench` compiles it (bench/tsconfig.json), so it runs through no loader.
    await run(resolve(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', resolve(ROOT, 'bench', 'tsconfig.json')], { cwd: ROOT });
  } else {
    against = await revisionBuild(againstRevision, log);
  }
  const headCommit = (await run('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT })).stdout.trim();
  const isClean = (await run('git', ['status', '--porcelain', '--', 'lib', 'server', 'extras/cli'], { cwd: ROOT })).stdout.trim() === '';

  const samples: RouteSamples[] = routes.map((scenario) => ({ route: scenario.name, current: [], against: [] }));
  const scripts = await mkdtemp(join(tmpdir(), 'petstore-gauge-'));
  try {
    const scriptFiles = await Promise.all(routes.map(async (scenario, index) => {
      const file = join(scripts, `route-${index}.lua`);
      await writeFile(file, luaScript(scenario));
      return file;
    }));
    const readsWarmUp = join(scripts, 'reads-warm-up.lua');
    await writeFile(readsWarmUp, readsWarmUpScript());
    for (let round = 0; round < settings.rounds; round++) {
      const builds = round % 2 === 0 ? [current, against] : [against, current];
      const servers: { isCurrent: boolean; child: ChildProcess; origin: string; pid: number }[] = [];
      // The share of the measured seconds each server spent on the CPU, to show whether it was the bottleneck.
      const busy = new Map<boolean, number>();
      try {
        for (const build of builds) servers.push({ isCurrent: build === current, ...(await startBuild(build)) });
        await new Promise((resolveIdle) => setTimeout(resolveIdle, settings.idleSeconds * 1000));
        // The reads warm up together, so the store still holds the 1,000 pets when they are measured;
        // each create warms up on its own, after the reads.
        for (const server of servers) await wrk(server.origin, READS_WARM_UP, readsWarmUp, settings.warmupSeconds, 50);
        for (const [index, scenario] of routes.entries()) {
          // Which build goes first alternates route by route and round by round.
          const order = (round + index) % 2 === 0 ? servers : [...servers].reverse();
          for (const server of order) {
            const script = scriptFiles[index] as string;
            if (scenario.method === 'POST') await wrk(server.origin, scenario, script, settings.warmupSeconds, 50);
            const before = await processCpuMicroseconds(server.pid);
            const { requests } = parseWrk(await wrk(server.origin, scenario, script, settings.durationSeconds, 50), scenario);
            const used = (await processCpuMicroseconds(server.pid)) - before;
            (server.isCurrent ? samples[index]?.current : samples[index]?.against)?.push(used / requests);
            busy.set(server.isCurrent, used / (settings.durationSeconds * 10_000));
          }
          const sample = samples[index] as RouteSamples;
          const figure = (microseconds: number | undefined, isCurrent: boolean): string => `${(microseconds ?? 0).toFixed(1).padStart(6)} µs (busy ${(busy.get(isCurrent) ?? 0).toFixed(0)} %)`;
          log(`round ${round + 1}/${settings.rounds} ${scenario.name.padEnd(42)} this build ${figure(sample.current.at(-1), true)}  ${againstRevision} ${figure(sample.against.at(-1), false)}`);
        }
      } finally {
        await Promise.all(servers.map(({ child }) => stopProcess(child)));
      }
    }
  } finally {
    await rm(scripts, { recursive: true, force: true });
  }
  const summaries = samples.map(summariseRoute);
  const loadAfter = loadavg();
  log('');
  log(`Server CPU per request (the run time of all the server's threads, from /proc), medians of ${settings.rounds} rounds of ${settings.durationSeconds} s after ${settings.idleSeconds > 0 ? `${settings.idleSeconds} s idle and ` : ''}${settings.warmupSeconds} s of warm-up, wrk -t1 -c50 on core 1, each server on core 0; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, this build ${headCommit}${isClean ? '' : ' with uncommitted changes to lib/, server/ or extras/cli/'} against ${againstRevision} (${against === LEAN_FASTIFY ? 'bench/servers/fastify.ts, its lean server' : startCommandText(against.start)}); load average ${loadBefore[0]?.toFixed(2)} before, ${loadAfter[0]?.toFixed(2)} after; ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  log('');
  log(gaugeTable(summaries, againstRevision));
  const slower = summaries.filter((summary) => summary.isSlower);
  log('');
  log(slower.length === 0
    ? 'No route is more than 5 % slower.'
    : `More than 5 % slower: ${slower.map((summary) => summary.route).join(', ')}. A change that keeps this says why in its description.`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:gauge: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
