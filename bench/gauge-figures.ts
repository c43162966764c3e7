import { readdir, readFile } from 'node:fs/promises';
import { median } from './support.js';

/**
 * The figures of `npm run bench:gauge`: a server's CPU time from `/proc`, and the table of CPU per
 * request by route that compares this build with another revision measured in the same rounds.
 */

/**
 * The CPU time, in clock ticks, that a process has used in user and system mode, from the text of
 * its `/proc/<pid>/stat`: fields 14 (`utime`) and 15 (`stime`) of proc(5). Read for a process (the
 * thread group's leader), they sum every thread of the group, those that have ended included. The
 * fields are counted after the `)` that closes the command name, which may itself hold spaces and
 * parentheses.
 */
export function cpuTicksOfStat(stat: string): number {
  const end = stat.lastIndexOf(')');
  // After `pid (comm)`: field 3 (state) is the first; utime and stime are fields 14 and 15.
  const fields = end === -1 ? [] : stat.slice(end + 1).trim().split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (fields.length < 13 || !Number.isSafeInteger(utime) || !Number.isSafeInteger(stime)) {
    throw new Error(`not a /proc/<pid>/stat line (utime and stime are fields 14 and 15): ${JSON.stringify(stat.slice(0, 120))}`);
  }
  return utime + stime;
}

/** Clock ticks per second of `/proc`'s times (`getconf CLK_TCK`): 100 on every Linux port Node runs on. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The nanoseconds a thread has run, from the text of its `/proc/<pid>/task/<tid>/schedstat` (the
 * first of its three fields, counted by the scheduler to the nanosecond), or undefined when the
 * kernel does not keep it (the file is missing, or reads `0 0 …` for a thread that has run).
 */
export function runNanosecondsOfSchedstat(schedstat: string): number | undefined {
  const ran = Number(schedstat.trim().split(/\s+/)[0]);
  return Number.isSafeInteger(ran) && ran > 0 ? ran : undefined;
}

/**
 * Microseconds of CPU, user and system, that the process `pid` and all its threads have used so far:
 * the sum of its threads' `schedstat` run times, exact to the nanosecond, or, where the kernel does
 * not keep them, its `/proc/<pid>/stat` utime + stime, which counts whole clock ticks (10 ms).
 */
export async function processCpuMicroseconds(pid: number): Promise<number> {
  const threads = await readdir(`/proc/${pid}/task`);
  let nanoseconds = 0;
  for (const thread of threads) {
    // A thread may end between the listing and the read: it has then stopped adding time.
    const text = await readFile(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const ran = runNanosecondsOfSchedstat(text);
    if (ran === undefined) return (cpuTicksOfStat(await readFile(`/proc/${pid}/stat`, 'utf8')) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
    nanoseconds += ran;
  }
  return nanoseconds / 1000;
}

/** The cores each thread of a process may run on, from `Cpus_allowed_list` of `/proc/<pid>/task/<tid>/status`. */
export async function threadCores(pid: number): Promise<Map<number, string>> {
  const cores = new Map<number, string>();
  for (const thread of await readdir(`/proc/${pid}/task`)) {
    const status = await readFile(`/proc/${pid}/task/${thread}/status`, 'utf8').catch(() => '');
    const allowed = /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1];
    if (allowed !== undefined) cores.set(Number(thread), allowed);
  }
  return cores;
}

/** One build's CPU per request for one route, one value per round (microseconds). */
export interface RouteSamples {
  route: string;
  /** This build's µs per request, by round. */
  current: number[];
  /** The other revision's µs per request, by round. */
  against: number[];
}

/** A route's figures: medians, and this build's speed relative to the other revision. */
export interface RouteSummary {
  route: string;
  currentMicroseconds: number;
  againstMicroseconds: number;
  /** Median over the rounds of `against / current` per round: above 1 this build uses less CPU per request. */
  ratio: number;
  /** The lowest and highest per-round ratio. */
  lowest: number;
  highest: number;
  /** Whether this build uses more than 5 % more CPU per request than the other revision (the median ratio below 1 / 1.05). */
  isSlower: boolean;
}

/** The CPU a change may add to a route before the gauge flags it: 5 % (issue 41). */
export const SLOWER_LIMIT = 1.05;

/** Summarises a route's rounds; each round's ratio pairs the two builds measured in that round. */
export function summariseRoute(samples: RouteSamples): RouteSummary {
  const ratios = samples.current.map((current, round) => (samples.against[round] ?? Number.NaN) / current).filter((ratio) => Number.isFinite(ratio));
  if (ratios.length === 0) throw new Error(`${samples.route}: no round measured both builds`);
  const ratio = median(ratios);
  return {
    route: samples.route,
    currentMicroseconds: median(samples.current),
    againstMicroseconds: median(samples.against),
    ratio,
    lowest: Math.min(...ratios),
    highest: Math.max(...ratios),
    isSlower: ratio < 1 / SLOWER_LIMIT,
  };
}

/** Geometric mean of positive numbers. */
export function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}

/**
 * The gauge's table in Markdown: per route this build's and the other revision's median µs of
 * server CPU per request, the ratio (the other's µs / this build's, so above 1.00× this build is
 * cheaper) with the lowest and highest round, and a flag on each route more than 5 % slower; then the
 * geometric mean of the ratios.
 */
export function gaugeTable(summaries: readonly RouteSummary[], againstName: string): string {
  const lines = [
    `| route | this build, µs/request | ${againstName}, µs/request | ${againstName} / this build | rounds, lowest–highest | |`,
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const summary of summaries) {
    lines.push(`| \`${summary.route}\` | ${summary.currentMicroseconds.toFixed(1)} | ${summary.againstMicroseconds.toFixed(1)} | ${summary.ratio.toFixed(3)}× | ${summary.lowest.toFixed(2)}–${summary.highest.toFixed(2)}× | ${summary.isSlower ? '**slower by more than 5 %**' : ''} |`);
  }
  lines.push(`| **geometric mean** | | | **${geometricMean(summaries.map((summary) => summary.ratio)).toFixed(3)}×** | | |`);
  return lines.join('\n');
}
