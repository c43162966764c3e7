import { randomBytes } from 'node:crypto';
import { apiKeysProblem } from '../server/core/auth.js';
import type { Logger } from '../server/node/index.js';
import { UsageError } from './command-line.js';
import { reasonOf } from './reasons.js';

/** Where the server's keys come from. */
export type KeySource =
  | { kind: 'environment'; keys: readonly string[] }
  | { kind: 'file'; path: string; sourceName: string }
  | { kind: 'generated' };

/** The keys the server starts with, and whether they were made up for this run (then the one key is printed). */
export interface StartingKeys {
  apiKeys: readonly string[];
  isGenerated: boolean;
}

/** Reads a text file; the CLI passes `node:fs`. */
export type ReadText = (path: string) => Promise<string>;

/**
 * The keys of a key file: one per line, surrounding white space trimmed, blank lines ignored; `#`
 * starts a comment anywhere on a line, since a bearer token never holds one (RFC 6750 §2.1).
 */
export function parseApiKeysFile(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.split('#', 1)[0]?.trim() ?? '')
    .filter((key) => key !== '');
}

/** The keys of a key file, or why it gives none: a reason naming the file, never a key. */
export async function readApiKeysFile(path: string, readText: ReadText): Promise<{ keys: string[] } | { problem: string }> {
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    return { problem: `cannot read ${path} (${reasonOf(error)})` };
  }
  const keys = parseApiKeysFile(text);
  return keys.length === 0 ? { problem: `${path} holds no key (only blank lines and comments)` } : { keys };
}

/** A message with every key it might quote replaced, for a log line. */
function redacted(message: string, keys: readonly string[]): string {
  return keys.reduce((text, key) => text.replaceAll(key, '<key>'), message);
}

/** The keys to start with: from the environment, the key file (a file without keys refuses to start), or one generated for this run. */
export async function startingKeys(source: KeySource, readText: ReadText, log: Logger): Promise<StartingKeys> {
  if (source.kind === 'generated') {
    log({ level: 'warn', msg: 'API keys generated for this run', source: 'generated', keys: 1 });
    return { apiKeys: [randomBytes(24).toString('base64url')], isGenerated: true };
  }
  if (source.kind === 'environment') {
    log({ level: 'info', msg: 'API keys loaded', source: 'environment', keys: source.keys.length });
    return { apiKeys: source.keys, isGenerated: false };
  }
  const read = await readApiKeysFile(source.path, readText);
  if ('problem' in read) throw new UsageError(`${source.sourceName}: ${read.problem}`);
  log({ level: 'info', msg: 'API keys loaded', source: 'file', file: source.path, keys: read.keys.length });
  return { apiKeys: read.keys, isGenerated: false };
}

/** The keys in force: what the server asks on every authenticated request, and what SIGHUP replaces. */
export interface KeysInForce {
  /** The list in force; the same array until `replace` puts a new one in force. */
  read: () => readonly string[];
  /** Puts `keys` in force for the next request; a TypeError for a list the server could not use, which keeps the old keys. */
  replace: (keys: readonly string[]) => void;
}

/** Holds the keys the server starts with, for the server to read and SIGHUP to replace: the one way keys rotate. */
export function keysInForce(initial: readonly string[]): KeysInForce {
  let current = initial;
  return {
    read: () => current,
    replace: (keys) => {
      const problem = apiKeysProblem(keys);
      if (problem !== undefined) throw new TypeError(problem);
      current = keys;
    },
  };
}

/** Options of createKeyReloader. */
export interface KeyReloaderOptions {
  path: string;
  readText: ReadText;
  /** Puts the keys in force for the next request; throws (a TypeError) for a list it refuses. */
  setApiKeys: (keys: readonly string[]) => void;
  log: Logger;
}

async function reload(options: KeyReloaderOptions): Promise<void> {
  const { path, log } = options;
  const read = await readApiKeysFile(path, options.readText);
  if ('problem' in read) {
    log({ level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: path, reason: read.problem });
    return;
  }
  try {
    options.setApiKeys(read.keys);
  } catch (error) {
    const reason = redacted(error instanceof Error ? error.message : String(error), read.keys);
    log({ level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: path, reason: `the server refused the list: ${reason}` });
    return;
  }
  log({ level: 'info', msg: 'API keys reloaded', file: path, keys: read.keys.length });
}

/**
 * What SIGHUP runs: re-reads the key file and puts its keys in force. A file that cannot be read or
 * holds no key keeps the keys in force, and says why. Reloads run one after another, so the last
 * signal's reading wins.
 */
export function createKeyReloader(options: KeyReloaderOptions): () => Promise<void> {
  let last = Promise.resolve();
  return () => (last = last.then(() => reload(options)));
}
