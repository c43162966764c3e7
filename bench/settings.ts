import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Settings of one benchmark run, from the command line (`BENCH_USAGE` says what each option does). */
export interface BenchSettings {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Whether the project's server also runs with `PETSTORE_METRICS=true` (issue 13); default yes. */
  isMetricsRun: boolean;
  /** Where the report is written, in the section of this run's Node major. */
  outputPath: string;
  /** The Node major to run on, when not the one running this script. */
  nodeMajor: string | undefined;
  /** The git revision (tag, branch, commit) whose build runs beside this one, as given. */
  againstRevision: string | undefined;
  isHelp: boolean;
}

/** The report the real run writes, and the documentation links to. */
export const DEFAULT_OUTPUT = 'bench/RESULTS.md';

/** What `npm run bench -- --help` prints. */
export const BENCH_USAGE = `Usage: npm run bench -- [options]

Measures the project's server against fastify 5, a node:http baseline and two ceilings, then the
engine in process and the startup, into this Node major's section of the output file (how, and
what each server is for: docs/performance.md).

Options:
  --rounds <n>        rounds; each starts a fresh process per server (default 5)
  --duration <s>      seconds measured per scenario and server (default 5)
  --warmup <s>        seconds of warm-up before each measurement (default 2)
  --output <file>     the results file, relative to the repository root (default ${DEFAULT_OUTPUT})
  --no-metrics        leave out the project's server with PETSTORE_METRICS=true
  --node <major>      run everything on the latest release of that Node major
  --against <rev>     also run the project as built at a git revision (a tag, a branch, a commit)
                      in the same rounds, built in a temporary worktree and started as its own
                      package.json says; the previous release is --against 762c6c9 (3.0.0)
  --help              print this and exit

Example: npm run bench -- --against 762c6c9 --rounds 3 --duration 3 --output /tmp/against.md
`;

/** A git revision as `--against` takes it: no leading `-` (git would read it as an option), no spaces or control characters. */
const REVISION = /^[^\s-][^\s\x00-\x1f\x7f]*$/;

/** Reads the command line of `npm run bench` (the arguments after `--`); throws an Error naming the option on bad input. */
export function readSettings(argv: readonly string[], root: string): BenchSettings {
  const text = { type: 'string' } as const;
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { rounds: text, duration: text, warmup: text, output: text, node: text, against: text, 'no-metrics': { type: 'boolean' }, help: { type: 'boolean' } },
    }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)} (npm run bench -- --help lists the options)`);
  }
  const { node: nodeMajor, against: againstRevision } = values;
  if (nodeMajor !== undefined && !/^\d+$/.test(nodeMajor)) throw new Error(`--node needs a Node major such as 26, not ${JSON.stringify(nodeMajor)}`);
  if (againstRevision !== undefined && !REVISION.test(againstRevision)) {
    throw new Error(`--against needs a git revision such as 762c6c9 or v3.0.0, not ${JSON.stringify(againstRevision)}`);
  }
  const positive = (name: 'rounds' | 'duration' | 'warmup', fallback: number): number => {
    const value = Number(values[name] ?? fallback);
    if (!(value > 0)) throw new Error(`--${name} needs a positive number, not ${JSON.stringify(values[name])}`);
    return value;
  };
  return {
    rounds: positive('rounds', 5),
    durationSeconds: positive('duration', 5),
    warmupSeconds: positive('warmup', 2),
    isMetricsRun: values['no-metrics'] !== true,
    outputPath: resolve(root, values.output ?? DEFAULT_OUTPUT),
    nodeMajor,
    againstRevision,
    isHelp: values.help === true,
  };
}

/** The command line that reproduces a run of these settings, for the report (the output file left out). */
export function benchCommand(settings: BenchSettings): string {
  return [
    `npm run bench -- --rounds ${settings.rounds} --duration ${settings.durationSeconds} --warmup ${settings.warmupSeconds}`,
    settings.isMetricsRun ? '' : ' --no-metrics',
    settings.nodeMajor === undefined ? '' : ` --node ${settings.nodeMajor}`,
    settings.againstRevision === undefined ? '' : ` --against ${settings.againstRevision}`,
  ].join('');
}
