import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { cpuBreakdown, parseCpuProfile } from './cpu-profile.js';
import { luaScript, parseWrk, SCENARIOS, startBenchServer, wrk } from './http.js';
import type { ServerName } from './http.js';
import { run } from './support.js';

/** Ends a server with SIGTERM, which lets `--cpu-prof` write its profile, and waits for it. */
async function terminate(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** Microseconds of the monotonic clock, the one V8 stamps profile samples with. */
function nowMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * `npm run bench:profile`: a CPU profile (`node --cpu-prof`) of each server per scenario, under the
 * bench's load (server on core 0, `wrk -t1 -c50` on core 1, after a warm-up), counted over the
 * measured seconds only and divided by the requests answered in them: where the time of one request
 * goes. `--servers project,lean-fastify` (the default) and `--seconds 5`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { servers: { type: 'string', default: 'project,lean-fastify' }, seconds: { type: 'string', default: '5' } } });
  const servers = values.servers.split(',') as ServerName[];
  const seconds = Number(values.seconds);
  await run('npm', ['run', 'build']);
  await run('npx', ['tsc', '-p', 'bench/tsconfig.json']);
  const directory = await mkdtemp(join(tmpdir(), 'petstore-profile-'));
  const lines = ['| scenario | server | CPU per request | own code | Node | native | GC |', '|---|---|---:|---:|---:|---:|---:|'];
  try {
    for (const [index, scenario] of SCENARIOS.entries()) {
      const script = join(directory, `scenario-${index}.lua`);
      await writeFile(script, luaScript(scenario));
      for (const server of servers) {
        const profiles = join(directory, `${server}-${index}`);
        const { child, origin } = await startBenchServer(server, '', ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
        let window: { from: number; to: number };
        let requests: number;
        try {
          await wrk(origin, scenario, script, 2, 50);
          const from = nowMicroseconds();
          requests = parseWrk(await wrk(origin, scenario, script, seconds, 50), scenario).requests;
          window = { from, to: nowMicroseconds() };
        } finally {
          await terminate(child);
        }
        const [file] = (await readdir(profiles)).filter((name) => name.endsWith('.cpuprofile'));
        if (file === undefined) throw new Error(`${server} wrote no profile into ${profiles}`);
        const time = cpuBreakdown(parseCpuProfile(await readFile(join(profiles, file), 'utf8')), window, requests);
        const µs = (value: number): string => `${value.toFixed(1)} µs`;
        lines.push(`| \`${scenario.name}\` | ${server} | ${µs(time.busy)} | ${µs(time['own code'])} | ${µs(time.node)} | ${µs(time.native)} | ${µs(time.gc)} |`);
        process.stderr.write(`${lines.at(-1) ?? ''}\n`);
      }
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
