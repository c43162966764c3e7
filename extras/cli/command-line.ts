import { parseArgs } from 'node:util';
import { ALL_SETTINGS, isBoolean } from './settings.js';
import type { AnySetting, Setting } from './settings.js';

/** A setup mistake (the command line, the configuration, a file, port or storage it names): reported in human-readable lines on stderr, exit status 2. */
export class UsageError extends Error {}

/** The environment as the CLI entry hands it over. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A command's arguments: the settings given as flags, and whether help was asked for. */
export interface ParsedArguments {
  flags: Map<AnySetting, string>;
  isHelp: boolean;
}

/** A value from the command line or the environment, quoted and shortened for a message. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 50 ? `${text.slice(0, 50)}…` : text);
}

/** The setting a flag names among a command's settings; a flag of another command, or of none, is refused. */
function settingOfFlag(command: string, name: string, settings: readonly AnySetting[]): AnySetting {
  const own = settings.find((setting) => setting.flag === name);
  if (own !== undefined) return own;
  if (name === '--api-keys') {
    throw new UsageError('--api-keys is not an option: a command line is visible to every user of the machine; use --api-keys-file or PETSTORE_API_KEYS');
  }
  if (ALL_SETTINGS.some((setting) => setting.flag === name)) throw new UsageError(`${name} is not an option of ${command}; see petstore-reference ${command} --help`);
  const accepted = settings.flatMap((setting) => (setting.flag === undefined ? [] : [setting.flag]));
  const list = accepted.length === 0 ? 'no options but --help' : accepted.join(', ');
  throw new UsageError(`unknown argument ${quote(name)}: ${command} accepts ${list}; see petstore-reference ${command} --help`);
}

/**
 * Parses a command's arguments with `util.parseArgs`: `--name value`, `--name=value`, `--help` or
 * `-h`, and a boolean flag alone (on), which takes the next argument as its value only when that is
 * not an option. A string flag takes the next argument unless it is another `--` option, so a missing
 * value is named rather than swallowing the next flag.
 */
export function parseArguments(command: string, argv: readonly string[], settings: readonly AnySetting[]): ParsedArguments {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const setting of settings) if (setting.flag !== undefined) options[setting.flag.slice(2)] = { type: isBoolean(setting.kind) ? 'boolean' : 'string' };
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const parsed: ParsedArguments = { flags: new Map(), isHelp: false };
  let taken = -1;
  for (const token of tokens) {
    const argument = argv[token.index] ?? '';
    if (token.index === taken) continue;
    if (argument === '--help' || argument === '-h') {
      parsed.isHelp = true;
      continue;
    }
    if (token.kind === 'positional' || (token.kind === 'option' && !token.rawName.startsWith('--'))) {
      throw new UsageError(`unexpected argument ${quote(argument)}: ${command} takes options only; see petstore-reference ${command} --help`);
    }
    const name = token.kind === 'option' ? token.rawName : argument;
    const setting = settingOfFlag(command, name, settings);
    if (token.kind !== 'option') continue;
    if (parsed.flags.has(setting)) throw new UsageError(`${name} is given more than once`);
    let value = token.value;
    if (token.inlineValue !== true && value?.startsWith('--') === true) value = undefined;
    const next = argv[token.index + 1];
    if (isBoolean(setting.kind) && token.inlineValue !== true) {
      value = next === undefined || next.startsWith('-') ? 'true' : next;
      if (value === next) taken = token.index + 1;
    }
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value: ${setting.kind.accepted}`);
    parsed.flags.set(setting, value);
  }
  return parsed;
}

/** The settings of one command as given: a flag beats its environment variable, and an empty variable counts as unset. */
export class Configuration {
  readonly #flags: ReadonlyMap<AnySetting, string>;
  readonly #env: Environment;

  constructor(flags: ReadonlyMap<AnySetting, string>, env: Environment) {
    this.#flags = flags;
    this.#env = env;
  }

  #textOf(setting: AnySetting): string | undefined {
    const fromEnv = this.#env[setting.env];
    return this.#flags.get(setting) ?? (fromEnv === '' ? undefined : fromEnv);
  }

  /** Whether the setting is given, by its flag or its variable. */
  isSet(setting: AnySetting): boolean {
    return this.#textOf(setting) !== undefined;
  }

  /** Where a setting's value comes from, for messages: its flag when given, else its variable. */
  sourceOf(setting: AnySetting): string {
    return this.#flags.has(setting) && setting.flag !== undefined ? setting.flag : setting.env;
  }

  /** The setting's value, its default when not given; a value its kind refuses is a UsageError naming the flag or variable and what is accepted. */
  value<T, D extends T | undefined>(setting: Setting<T, D>): T | D {
    const text = this.#textOf(setting);
    if (text === undefined) return setting.defaultValue;
    const value = setting.kind.parse(text);
    if (value === undefined) throw new UsageError(`${this.sourceOf(setting)} must be ${setting.kind.accepted}, not ${quote(text)}`);
    return value;
  }
}
