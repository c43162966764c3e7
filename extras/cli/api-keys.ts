import { randomBytes } from 'node:crypto';
import { apiKeyFault, MIN_API_KEY_LENGTH } from '../../server/core/index.js';
import type { Logger } from '../../server/node/index.js';
import { UsageError } from './command-line.js';
import { reasonOf } from './reasons.js';

/** What a key must be, for the messages that refuse one (they never quote the key). */
const KEY_RULE = `a key is ${MIN_API_KEY_LENGTH} or more characters of RFC 6750's token68 (letters, digits and - . _ ~ + /, then = padding), what a client can send as "Authorization: Bearer <key>"`;

/** Where the server's keys come from; the variable's keys are checked when the configuration is read. */
export type KeySource =
  | { kind: 'environment'; keys: readonly string[] }
  | { kind: 'file'; path: string; sourceName: string }
  | { kind: 'generated' };

/** The keys the server starts with, and whether they were made up for this run (then the one key is printed). */
export interface StartingKeys {
  apiKeys: readonly string[];
  isGenerated: boolean;
}

/** The keys a text gives, or why it gives none: a reason that never quotes a key. */
export type KeyReading = { keys: string[] } | { problem: string };

/** The problem of a text that gives no key at all. */
export const NO_KEY = 'holds no key';

/** Reads a text file; the CLI passes `node:fs`. */
export type ReadText = (path: string) => Promise<string>;

/** What reading a key file needs: the file system's seams and the log. */
export interface KeyFileOptions {
  readText: ReadText;
  /** The file's permission bits (`stat().mode`); without it, a key file open to others is not warned about. */
  fileMode?: (path: string) => Promise<number>;
  log: Logger;
}

/** Why a key cannot be used, where `where` names its place ("line 3", "key 2"); never quoting the key. */
function keyProblem(key: string, where: string): string | undefined {
  // The library's one check (apiKeyFault); the command line only names the place.
  const fault = apiKeyFault(key);
  if (fault === 'character') return `${where} holds a character no key can have: ${KEY_RULE}`;
  if (fault === 'short') return `${where} holds a key of fewer than ${MIN_API_KEY_LENGTH} characters, too easy to guess: ${KEY_RULE}`;
  return fault === 'long' ? `${where} holds a key longer than any client may send: ${KEY_RULE}` : undefined;
}

/** A line without its comment: `#` starts one, to the end of the line, since no key holds a `#` (token68). */
function withoutComment(line: string): string {
  return line.split('#', 1)[0] ?? '';
}

/** The keys of these places, each checked; the first bad one is named by its place. */
function checkedKeys(places: readonly (readonly [string, string])[]): KeyReading {
  const keys: string[] = [];
  for (const [key, where] of places) {
    const problem = keyProblem(key, where);
    if (problem !== undefined) return { problem };
    keys.push(key);
  }
  return keys.length === 0 ? { problem: NO_KEY } : { keys };
}

/**
 * The keys of a key file: one per line, surrounding white space trimmed, blank lines ignored, `#`
 * starting a comment to the end of its line. A bad key is named by its line number.
 */
export function parseApiKeysFile(text: string): KeyReading {
  const places = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line, index) => [withoutComment(line).trim(), `line ${index + 1}`] as const)
    .filter(([key]) => key !== '');
  return checkedKeys(places);
}

/**
 * The keys of `PETSTORE_API_KEYS`: separated by commas (or line breaks), trimmed, with `#` starting a
 * comment to the end of its line as in the key file. A bad key is named by its position.
 */
export function parseApiKeysVariable(text: string): KeyReading {
  const places = text
    .split(/\r?\n/)
    .flatMap((line) => withoutComment(line).split(','))
    .map((item) => item.trim())
    .filter((key) => key !== '')
    .map((key, index) => [key, `key ${index + 1}`] as const);
  return checkedKeys(places);
}

/** The keys of a key file, or why it gives none: a reason naming the file, never a key. */
export async function readApiKeysFile(path: string, readText: ReadText): Promise<KeyReading> {
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    return { problem: `cannot read ${path} (${reasonOf(error)})` };
  }
  const reading = parseApiKeysFile(text);
  if ('keys' in reading) return reading;
  return { problem: reading.problem === NO_KEY ? `${path} ${NO_KEY} (only blank lines and comments)` : `${path}, ${reading.problem}` };
}

/** Permission bits for group and others: any of them lets another user of the machine near the keys. */
const OTHERS_BITS = 0o077;

/** Warns when the key file is open to users other than its owner; a mode that cannot be read is not warned about. */
async function warnIfShared(path: string, options: KeyFileOptions): Promise<void> {
  const mode = await options.fileMode?.(path).catch(() => undefined);
  if (mode === undefined || (mode & OTHERS_BITS) === 0) return;
  const octal = `0${(mode & 0o777).toString(8)}`;
  options.log({ level: 'warn', msg: 'The API key file is open to other users of this machine; chmod 600 it', file: path, mode: octal });
}

/** The keys to start with: from the environment, the key file (a file without usable keys refuses to start), or one generated for this run. */
export async function startingKeys(source: KeySource, options: KeyFileOptions): Promise<StartingKeys> {
  const { log } = options;
  if (source.kind === 'generated') {
    log({ level: 'warn', msg: 'API keys generated for this run', source: 'generated', keys: 1 });
    return { apiKeys: [randomBytes(24).toString('base64url')], isGenerated: true };
  }
  if (source.kind === 'environment') {
    log({ level: 'info', msg: 'API keys loaded', source: 'environment', keys: source.keys.length });
    return { apiKeys: source.keys, isGenerated: false };
  }
  const read = await readApiKeysFile(source.path, options.readText);
  if ('problem' in read) throw new UsageError(`${source.sourceName}: ${read.problem}`);
  await warnIfShared(source.path, options);
  log({ level: 'info', msg: 'API keys loaded', source: 'file', file: source.path, keys: read.keys.length });
  return { apiKeys: read.keys, isGenerated: false };
}

/** Keys that a key file's rereading replaces: what the server is given as `apiKeys`, and what SIGHUP runs. */
export interface ReloadableKeys {
  /** The keys in force: a new array after each successful reload, as the server's `apiKeys` function expects. */
  apiKeys: () => readonly string[];
  /**
   * Re-reads the file and puts its keys in force; a file that cannot be read or holds a bad line or
   * no key keeps the keys in force, and says why. Reloads run one after another, so the last
   * signal's reading wins.
   */
  reload: () => Promise<void>;
}

/** The keys of the key file at `path`, starting with `initial`, reloaded on demand. */
export function createReloadableKeys(path: string, initial: readonly string[], options: KeyFileOptions): ReloadableKeys {
  const { log } = options;
  let inForce = initial;
  let last = Promise.resolve();
  async function reload(): Promise<void> {
    const read = await readApiKeysFile(path, options.readText);
    if ('problem' in read) {
      log({ level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: path, reason: read.problem });
      return;
    }
    await warnIfShared(path, options);
    inForce = read.keys;
    log({ level: 'info', msg: 'API keys reloaded', file: path, keys: read.keys.length });
  }
  return {
    apiKeys: () => inForce,
    reload: () => (last = last.then(reload)),
  };
}
