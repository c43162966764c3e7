import { createOpenApiDocument } from '../docs-site/openapi/index.js';
import { Configuration, parseArguments, quote, UsageError } from './command-line.js';
import type { Environment } from './command-line.js';
import { COMMAND_SUMMARIES, COMMANDS } from './commands.js';
import type { CommandName } from './commands.js';
import { commandHelp, topHelp } from './help.js';
import type { CliIo } from './io.js';
import { PetstoreError } from '../../lib/index.js';
import { systemCodeOf } from './reasons.js';
import { HUMAN_PREFIX } from './startup-log.js';
import { repairStorage } from './repair-storage.js';
import { serve } from './serve.js';
import { readServeConfig } from './serve-config.js';
import { LOG_LEVELS, REPAIR_SETTINGS, SETTINGS } from './settings.js';
import { DEFAULT_BODY_LIMIT } from '../../server/core/index.js';

function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** The command an argument list names, and its own arguments: `serve` when the first is an option or there is none. */
function commandOf(argv: readonly string[]): { name: CommandName; rest: readonly string[] } {
  const [first, ...rest] = argv;
  if (first === '--repair') return { name: 'repair', rest };
  if (first === undefined || first.startsWith('-')) return { name: 'serve', rest: argv };
  if (isCommandName(first)) return { name: first, rest };
  const names = COMMAND_SUMMARIES.map(([name]) => name).join(', ');
  throw new UsageError(`unknown command ${quote(first)}: the commands are ${names}; see petstore-reference --help`);
}

/**
 * `repair`: repairs the data file and prints what was done. A command that runs once writes
 * human-readable lines only: its notes on stderr as `petstore-reference: warning: …`, and a repair
 * the storage refuses (no such file, a server holding it) as a setup mistake (status 2).
 */
async function repair(configuration: Configuration, io: CliIo): Promise<number> {
  const dataFile = configuration.value(REPAIR_SETTINGS.data);
  if (dataFile === undefined) throw new UsageError('repair needs --data (or PETSTORE_DATA): the data file to repair');
  const isNoted = LOG_LEVELS.indexOf(configuration.value(SETTINGS.logLevel)) >= LOG_LEVELS.indexOf('warn');
  let report: string;
  try {
    report = await repairStorage({
      dataFile,
      salvage: configuration.value(REPAIR_SETTINGS.salvage),
      log: (note) => {
        if (isNoted) io.stderr(`${HUMAN_PREFIX}warning: ${note}\n`);
      },
    });
  } catch (error) {
    if (error instanceof PetstoreError || (error instanceof Error && systemCodeOf(error) !== undefined)) throw new UsageError(error.message);
    throw error;
  }
  io.stdout(`${report}\n`);
  return 0;
}

/** `petstore-reference conformance …`: the conformance kit's command, loaded only when asked for; its key may come from the environment. */
async function conformance(argv: readonly string[], env: Environment, io: CliIo): Promise<number> {
  const { KEY_VARIABLE, runConformanceCommand } = await import('../conformance/command.js');
  return runConformanceCommand(argv, {
    stdout: (text) => io.stdout(text),
    stderr: (text) => io.stderr(text),
    writeFile: (path, text) => io.writeText(path, text),
    readFile: (path) => io.readText(path),
    keyVariable: env[KEY_VARIABLE],
  });
}

/**
 * Runs `petstore-reference` with these arguments and this environment. Resolves to the exit status,
 * or to undefined while the server runs; rejects with a UsageError (status 2) for a mistake in the
 * command line or the configuration.
 */
export async function runCli(argv: readonly string[], env: Environment, io: CliIo): Promise<number | undefined> {
  const [first] = argv;
  if (first === '--version') {
    io.stdout(`${await io.version()}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h') {
    io.stdout(topHelp({ docsDirectory: await io.docsDirectory() }));
    return 0;
  }
  if (first === 'conformance') return conformance(argv.slice(1), env, io);
  const { name, rest } = commandOf(argv);
  const spec = COMMANDS[name];
  const parsed = parseArguments(name, rest, spec.settings);
  if (parsed.isHelp) {
    io.stdout(commandHelp(name, spec));
    return 0;
  }
  const configuration = new Configuration(parsed.flags, env);
  if (name === 'openapi') {
    // As scripts/write-openapi.ts writes openapi.json: the document the server serves, two-space indented.
    io.stdout(`${JSON.stringify(createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT }), null, 2)}\n`);
    return 0;
  }
  if (name === 'repair') return repair(configuration, io);
  return serve(readServeConfig(configuration), io);
}
