import { appendFileSync } from 'node:fs';
import { freshSeed } from './prng.js';

/** How much each part of the suite does: the bounded profile runs in `npm test`, the long one in `npm run test:robust`. */
export interface RobustnessProfile {
  name: 'bounded' | 'long';
  /** Fuzzed `POST /v1/pets` requests. */
  bodyCases: number;
  /** Of those, how many are sent again one byte per write (or in small pieces when large) and compared. */
  splitCases: number;
  /** Fuzzed query strings of `GET /v1/pets`. */
  queryCases: number;
  /** Fuzzed request targets and methods. */
  pathCases: number;
  /** Hostile sockets opened at once by the slow-client test. */
  slowSockets: number;
  /** Whether the slow-client test runs with the production timeouts instead of short ones. */
  isProductionTimeouts: boolean;
  /** Concurrent clients creating pets while the real server gets SIGTERM. */
  shutdownClients: number;
  /** How many SIGTERM-under-load rounds run. */
  shutdownRounds: number;
  /** Soak duration (s); the soak runs in the long profile only. */
  soakSeconds: number;
  /** Warm-up excluded from the soak's memory comparison (s). */
  soakWarmupSeconds: number;
}

const BOUNDED: RobustnessProfile = {
  name: 'bounded',
  bodyCases: 1200,
  splitCases: 100,
  queryCases: 700,
  pathCases: 700,
  slowSockets: 240,
  isProductionTimeouts: false,
  shutdownClients: 16,
  shutdownRounds: 1,
  soakSeconds: 0,
  soakWarmupSeconds: 0,
};

const LONG: RobustnessProfile = {
  name: 'long',
  bodyCases: 20_000,
  splitCases: 1_500,
  queryCases: 8_000,
  pathCases: 8_000,
  slowSockets: 600,
  isProductionTimeouts: true,
  shutdownClients: 64,
  shutdownRounds: 3,
  soakSeconds: 180,
  // V8 grows its heap in steps under sustained load for about the first minute, then stays flat.
  soakWarmupSeconds: 90,
};

/** The robustness tests read their knobs here, at their edge; the library and server only take options. */
const environment = process.env;

function withSoakSeconds(profile: RobustnessProfile, value: string | undefined): RobustnessProfile {
  if (value === undefined || value === '') return profile;
  const seconds = Number(value);
  if (!(Number.isInteger(seconds) && seconds >= 20)) throw new Error(`PETSTORE_SOAK_SECONDS must be an integer of at least 20, not ${JSON.stringify(value)}`);
  return { ...profile, soakSeconds: seconds, soakWarmupSeconds: Math.min(profile.soakWarmupSeconds, Math.floor(seconds / 2)) };
}

/** The active profile: `PETSTORE_ROBUST=long` selects the long one; `PETSTORE_SOAK_SECONDS` shortens or lengthens its soak. */
export const PROFILE: RobustnessProfile = withSoakSeconds(environment['PETSTORE_ROBUST'] === 'long' ? LONG : BOUNDED, environment['PETSTORE_SOAK_SECONDS']);

/** Seed of the bounded profile in `npm test`: fixed, so CI is reproducible; the long run explores fresh seeds. */
const BOUNDED_SEED = 20_261_122;

function readSeed(value: string | undefined): number {
  if (value === undefined || value === '') return PROFILE.name === 'long' ? freshSeed() : BOUNDED_SEED;
  if (!/^[0-9]+$/.test(value) || Number(value) > 0xffff_ffff) throw new Error(`PETSTORE_FUZZ_SEED must be an integer from 0 to 4294967295, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** Seed of every fuzzer in this run (fixed in `npm test`, fresh in the long run); `PETSTORE_FUZZ_SEED=<n>` replays a run. */
export const SEED: number = readSeed(environment['PETSTORE_FUZZ_SEED']);

/** `PETSTORE_FUZZ_CASE=<n>` runs only that case of each fuzzer (with the same seed), to replay one failure. */
export const ONLY_CASE: number | undefined = environment['PETSTORE_FUZZ_CASE'] === undefined ? undefined : Number(environment['PETSTORE_FUZZ_CASE']);

/** The figures one part of the suite measured, for the summary table of `npm run test:robust`. */
export interface Figures {
  part: string;
  cases: number;
  failures: number;
  /** Honest-client latency under attack or load, 99th percentile (ms). */
  p99Ms?: number;
  /** Requests per second. */
  throughput?: number;
  rssStartMb?: number;
  rssEndMb?: number;
  /** RSS growth after warm-up, in per cent. */
  rssGrowthPercent?: number;
  note?: string;
}

/** Records figures: appended as a JSON line to `PETSTORE_ROBUST_REPORT` when the runner set it, and printed. */
export function report(figures: Figures): void {
  const line = JSON.stringify(figures);
  const file = environment['PETSTORE_ROBUST_REPORT'];
  if (file !== undefined && file !== '') appendFileSync(file, `${line}\n`);
  process.stdout.write(`# robustness ${line}\n`);
}

/** A replay hint printed with every fuzzing failure. */
export function replayHint(file: string, caseIndex: number): string {
  return `replay: PETSTORE_FUZZ_SEED=${SEED} PETSTORE_FUZZ_CASE=${caseIndex}${PROFILE.name === 'long' ? ' PETSTORE_ROBUST=long' : ''} node --import tsx --test ${file}`;
}

/** The p-th percentile of a list of numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
