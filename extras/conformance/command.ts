import { SetupError } from './exchange.js';
import { formatList, formatResult, formatSummary, summarize, toJsonReport, toJunitXml } from './report.js';
import { DEFAULT_TIMEOUT_MS, listChecks, newRunId, runConformance } from './run.js';
import { LEVELS } from './types.js';
import type { CheckResult, ConformanceFetch, Level } from './types.js';

/** What the command reads and writes, passed in so that it runs on any runtime. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Default: the global `fetch`. */
  fetch?: ConformanceFetch;
  /** Writes a file, for `--junit-report`; without it that option is refused. */
  writeFile?(path: string, text: string): Promise<void>;
  /** Reads a text file, for `--key-file`; without it that option is refused. */
  readFile?(path: string): Promise<string>;
  /** The environment's `PETSTORE_CONFORMANCE_KEY`, read by the caller (the command line's entry), when set. */
  keyVariable?: string | undefined;
}

/** The environment variable that may hold the key, so it appears neither on the command line nor in a file. */
export const KEY_VARIABLE = 'PETSTORE_CONFORMANCE_KEY';

const HELP = `petstore-reference conformance: checks a server against the Petstore interface 1.0.0 over HTTP.

Usage: PETSTORE_CONFORMANCE_KEY=<apiKey> petstore-reference conformance <baseUrl> [options]
       petstore-reference conformance <baseUrl> --key-file <file> [options]
       petstore-reference conformance --list [--level reference] [--only ...] [--skip ...]

  <baseUrl>               the server's base URL, version prefix included,
                          e.g. http://127.0.0.1:8080/v1

The key, a key the server accepts, sent as "Authorization: Bearer <apiKey>", comes from one of:
  PETSTORE_CONFORMANCE_KEY  the environment variable (preferred)
  --key-file <file>       the first key of this file: one per line, "#" starts a comment
  --key <apiKey>          the command line, which every user of the machine can see
A flag beats the variable; --key and --key-file together are refused.

Options:
  --level spec|reference  spec (default): what the interface states; reference: also this
                          project's documented decisions where the interface is silent
  --only <selector>       run only these checks: an id (auth/missing-key/listPets), a group
                          (auth) or a section (4.1; 4 takes 4.x too). Repeat or comma-separate.
  --skip <selector>       leave these checks out; the same selectors
  --timeout <ms>          time each request gets, reading the answer included (default ${DEFAULT_TIMEOUT_MS})
  --json                  print the results as JSON instead of one line per check
  --junit-report <path>   also write the results as JUnit XML to this file
  --list                  list the selected checks (id, section, level, title); send nothing
  --run-id <id>           name this run's pets conformance-<id>-... (default: random)
  -h, --help              print this text

A run only creates pets, each named conformance-<runId>-..., never assumes an empty store or
particular ids, and sends at most 400 requests, so it is safe against a live server.

Before the checks, one request with the key checks the base URL and the key: when the server
cannot be reached, refuses the key, or does not answer the interface there, the run stops with
one line saying which.

Exit status: 0 every selected check passed; 1 a check failed or was skipped;
             2 a usage error, an unreachable server, a refused key or a wrong base URL
               (the message says which).
`;

/** A mistake in the command line: reported in one line with exit status 2. */
class UsageError extends Error {}

/** The command line, parsed. */
interface CommandLine {
  positionals: string[];
  flags: Set<string>;
  values: Map<string, string>;
  only: string[];
  skip: string[];
}

const FLAGS = ['--json', '--list', '--help', '-h'];
const VALUED = ['--key', '--key-file', '--level', '--only', '--skip', '--timeout', '--junit-report', '--run-id'];

/** Splits the arguments into positionals, flags and options with values (`--name value` or `--name=value`). */
function parseCommandLine(argv: readonly string[]): CommandLine {
  const line: CommandLine = { positionals: [], flags: new Set(), values: new Map(), only: [], skip: [] };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === '--') {
      line.positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!argument.startsWith('-') || argument === '-') {
      line.positionals.push(argument);
      continue;
    }
    const equals = argument.indexOf('=');
    const name = equals === -1 ? argument : argument.slice(0, equals);
    if (FLAGS.includes(name)) {
      if (equals !== -1) throw new UsageError(`${name} takes no value`);
      line.flags.add(name);
      continue;
    }
    if (!VALUED.includes(name)) throw new UsageError(`unknown option ${JSON.stringify(argument.slice(0, 50))}`);
    const value = equals === -1 ? argv[++index] : argument.slice(equals + 1);
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
    if (name === '--only' || name === '--skip') line[name === '--only' ? 'only' : 'skip'].push(...value.split(',').map((part) => part.trim()).filter((part) => part !== ''));
    else if (line.values.has(name)) throw new UsageError(`${name} is given more than once`);
    else line.values.set(name, value);
  }
  return line;
}

function levelOf(line: CommandLine): Level {
  const level = line.values.get('--level') ?? 'spec';
  const known = LEVELS.find((candidate) => candidate === level);
  if (known === undefined) throw new UsageError(`--level must be ${LEVELS.join(' or ')}, not ${JSON.stringify(level.slice(0, 50))}`);
  return known;
}

function timeoutOf(line: CommandLine): number {
  const text = line.values.get('--timeout');
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) === 0) throw new UsageError(`--timeout must be a positive number of milliseconds, not ${JSON.stringify(text.slice(0, 50))}`);
  return Number(text);
}

/** `--list`: the selected checks, as a table or JSON. */
function listCommand(line: CommandLine, io: CommandIo): number {
  const checks = listChecks({ level: levelOf(line), only: line.only, skip: line.skip });
  io.stdout(line.flags.has('--json') ? `${JSON.stringify(checks, null, 2)}\n` : `${formatList(checks)}\n`);
  return 0;
}

/** The first key of a key file's text: its first line that is not blank once a `#` comment is cut off. */
function firstKeyOf(text: string): string | undefined {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/).map((line) => (line.split('#', 1)[0] ?? '').trim()).find((key) => key !== '');
}

/** The key to send: from `--key`, `--key-file` or PETSTORE_CONFORMANCE_KEY, in that order; messages never quote it. */
async function apiKeyOf(line: CommandLine, io: CommandIo): Promise<string> {
  const flag = line.values.get('--key');
  const file = line.values.get('--key-file');
  if (flag !== undefined && file !== undefined) throw new UsageError('--key and --key-file are both given: choose one');
  if (flag !== undefined) return flag;
  if (file !== undefined) {
    const { readFile } = io;
    if (readFile === undefined) throw new UsageError(`--key-file needs a file system, which this runtime was not given; set ${KEY_VARIABLE} instead`);
    let text: string;
    try {
      text = await readFile(file);
    } catch (error) {
      throw new UsageError(`--key-file: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const key = firstKeyOf(text);
    if (key === undefined) throw new UsageError(`--key-file: ${file} holds no key (only blank lines and comments)`);
    return key;
  }
  const variable = io.keyVariable?.trim();
  if (variable !== undefined && variable !== '') return variable;
  throw new UsageError(`--key is missing: a key the server accepts, as --key <apiKey>, --key-file <file> or ${KEY_VARIABLE}`);
}

/** A run: the results as lines (or JSON), the JUnit report if asked for, and the exit status. */
async function runCommand(line: CommandLine, io: CommandIo): Promise<number> {
  const [baseUrl, ...extra] = line.positionals;
  if (baseUrl === undefined) throw new UsageError('the base URL is missing, e.g. http://127.0.0.1:8080/v1');
  if (extra.length > 0) throw new UsageError(`one base URL only; also given ${JSON.stringify(extra[0]?.slice(0, 50))}`);
  const apiKey = await apiKeyOf(line, io);
  const reportPath = line.values.get('--junit-report');
  const { writeFile } = io;
  if (reportPath !== undefined && writeFile === undefined) throw new UsageError('--junit-report needs a file system, which this runtime was not given');
  const isJson = line.flags.has('--json');
  const level = levelOf(line);
  const runId = line.values.get('--run-id') ?? newRunId();
  const header = `Petstore conformance, level ${level}, of ${baseUrl}; the pets this run creates are named conformance-${runId}-...\n`;
  let isHeaderShown = false;
  // The header waits for the first result, so that a usage or setup error is the only line printed.
  const onResult = (result: CheckResult): void => {
    if (!isHeaderShown) io.stdout(header);
    isHeaderShown = true;
    io.stdout(`${formatResult(result)}\n`);
  };
  const results = await runConformance({
    baseUrl, apiKey, level, runId, only: line.only, skip: line.skip, timeoutMs: timeoutOf(line),
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(isJson ? {} : { onResult }),
  });
  const summary = summarize(results);
  io.stdout(isJson ? toJsonReport({ baseUrl, level, runId }, results) : `${formatSummary(summary)}\n`);
  if (reportPath !== undefined && writeFile !== undefined) {
    try {
      await writeFile(reportPath, toJunitXml({ baseUrl, level }, results));
    } catch (error) {
      throw new UsageError(`cannot write the JUnit report to ${reportPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return summary.failed + summary.skipped === 0 ? 0 : 1;
}

/**
 * `petstore-reference conformance`: parses the arguments, runs or lists the checks, writes the
 * output, and resolves to the exit status: 0 when every selected check passed, 1 when one failed or
 * was skipped, 2 for a usage error or a SetupError (unreachable server, refused key, wrong base URL).
 */
export async function runConformanceCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const line = parseCommandLine(argv);
    if (line.flags.has('--help') || line.flags.has('-h')) {
      io.stdout(HELP);
      return 0;
    }
    return line.flags.has('--list') ? listCommand(line, io) : await runCommand(line, io);
  } catch (error) {
    if (error instanceof SetupError) {
      io.stderr(`petstore-reference conformance: ${error.message}\n`);
      return 2;
    }
    // TypeErrors here come from checking the options (an invalid URL, key, selector or run id).
    if (error instanceof UsageError || error instanceof TypeError) {
      io.stderr(`petstore-reference conformance: ${error.message}; see --help\n`);
      return 2;
    }
    throw error;
  }
}
