import type { Durability } from '../file-storage/index.js';
import type { LogLevel } from '../../server/node/index.js';
import { DEFAULT_READINESS, READINESS_MODES } from '../operator/readiness.js';

/** How a setting's text becomes its value. */
export interface Kind<T> {
  /** Placeholder of the value in `--help`, e.g. `<0-65535>`. */
  hint: string;
  /** What is accepted, for the message that refuses anything else: "must be …". */
  accepted: string;
  /** The value, or undefined when the text is refused. */
  parse(text: string): T | undefined;
}

/**
 * One setting of the command line: its flag and environment variable, and its default as a value
 * and as the words `--help` and docs/operations.md show (test/extras/cli/settings-docs.test.ts checks that
 * both agree with this table).
 */
export interface Setting<T, D extends T | undefined = T | undefined> {
  /** `--name`; undefined for a setting read from the environment only. */
  flag: string | undefined;
  env: string;
  kind: Kind<T>;
  defaultValue: D;
  defaultText: string;
  /** One sentence for `--help`: plain text, no Markdown. */
  description: string;
}

/** A setting of any type, as lists of settings hold them. */
export type AnySetting = Setting<unknown, unknown>;

/** The accepted spellings of a boolean, in any case. */
const TRUE_WORDS = ['1', 'true', 'yes'];
const FALSE_WORDS = ['0', 'false', 'no'];

/** The largest shutdown delay: far beyond any load balancer's deregistration delay, and still a timer Node can set. */
export const MAX_SHUTDOWN_DELAY_SECONDS = 3600;

/** Numbers the text of `pattern` writes, from `least` to `most`. */
function numbers(hint: string, accepted: string, pattern: RegExp, least: number, most: number): Kind<number> {
  return { hint, accepted, parse: (text) => (pattern.test(text) && Number(text) >= least && Number(text) <= most ? Number(text) : undefined) };
}

const PORT = numbers('<0-65535>', 'an integer from 0 to 65535', /^[0-9]{1,5}$/, 0, 65_535);

const BOOLEAN: Kind<boolean> = {
  hint: '[yes|no]',
  accepted: `${TRUE_WORDS.join(', ')} (on) or ${FALSE_WORDS.join(', ')} (off), in any case`,
  parse: (text) => (TRUE_WORDS.includes(text.toLowerCase()) ? true : FALSE_WORDS.includes(text.toLowerCase()) ? false : undefined),
};

/** Whether a flag of this kind may stand alone (`--metrics` meaning on). */
export function isBoolean(kind: Kind<unknown>): boolean {
  return kind === BOOLEAN;
}

/** Seconds to the millisecond. */
const SECONDS_TEXT = /^[0-9]{1,4}(\.[0-9]{1,3})?$/;

const SECONDS = numbers('<seconds>', `a number of seconds from 0 to ${MAX_SHUTDOWN_DELAY_SECONDS}`, SECONDS_TEXT, 0, MAX_SHUTDOWN_DELAY_SECONDS);

/** The most seconds a database bound may take: an hour, far beyond any sensible wait. */
const MAX_DATABASE_SECONDS = 3600;

/** Seconds above zero (at least a millisecond): a bound of 0 would mean none in pg, which these never mean. */
const POSITIVE_SECONDS = numbers(
  '<seconds>', `a number of seconds above 0 and at most ${MAX_DATABASE_SECONDS}, to the millisecond`, SECONDS_TEXT, 0.001, MAX_DATABASE_SECONDS,
);

/** The most connections one process may open: far above what one PostgreSQL serves, but a bound. */
const MAX_POOL_SIZE = 1000;

const POOL_SIZE = numbers('<count>', `a whole number of connections from 1 to ${MAX_POOL_SIZE}`, /^[0-9]{1,4}$/, 1, MAX_POOL_SIZE);

const COUNT = numbers('<count>', 'a whole number of pets from 1 to 9007199254740991', /^[0-9]{1,16}$/, 1, Number.MAX_SAFE_INTEGER);

function text(hint: string, accepted: string): Kind<string> {
  return { hint, accepted, parse: (value) => value };
}

const FILE_NAME = text('<file>', 'a file name');

function choice<const V extends string>(values: readonly V[]): Kind<V> {
  return {
    hint: `<${values.join('|')}>`,
    accepted: `one of ${values.map((value) => `"${value}"`).join(', ')}`,
    parse: (value) => values.find((candidate) => candidate === value),
  };
}

/** The comma-separated items of a list, trimmed, without empty ones. */
function listItems(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** An origin as browsers send it (`https://app.example.com:8443`, lower-case, no path), or undefined. */
function originOf(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  const isOrigin = (url.protocol === 'http:' || url.protocol === 'https:') && url.origin.toLowerCase() === value.toLowerCase();
  return isOrigin ? url.origin : undefined;
}

const ORIGINS: Kind<readonly string[] | '*'> = {
  hint: '<origins>',
  accepted: '"*" or a comma-separated list of origins such as https://app.example.com',
  parse(value) {
    if (value.trim() === '*') return '*';
    const origins = listItems(value).map(originOf);
    const accepted = origins.filter((origin) => origin !== undefined);
    return accepted.length > 0 && accepted.length === origins.length ? accepted : undefined;
  },
};

/** Keys from the environment, as text: extras/cli/api-keys.ts checks them, with messages that never quote a key. */
const KEY_LIST = text('<keys>', 'a comma-separated list of keys');

/** The levels of the structured log, most severe first: a level writes its own events and those above it. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const satisfies readonly LogLevel[];

const DURABILITIES = ['fsync', 'write'] as const satisfies readonly Durability[];

const DEFAULT_DURABILITY: Durability = 'fsync';
const DEFAULT_LOG_LEVEL: LogLevel = 'info';

function setting<T, D extends T | undefined>(definition: Setting<T, D>): Setting<T, D> {
  return definition;
}

/** Every setting of the command line, in the order `--help` and the docs list them. */
export const SETTINGS = {
  port: setting({ flag: '--port', env: 'PORT', kind: PORT, defaultValue: 8080, defaultText: '8080', description: 'TCP port to listen on; 0 picks a free one.' }),
  host: setting({
    flag: '--host', env: 'HOST', kind: text('<address>', 'an address'), defaultValue: '127.0.0.1', defaultText: '127.0.0.1',
    description: 'Interface to listen on; 0.0.0.0 (or ::) for every interface, as in a container.',
  }),
  apiKeys: setting({
    flag: undefined, env: 'PETSTORE_API_KEYS', kind: KEY_LIST, defaultValue: undefined, defaultText: 'a development key, printed once',
    description: 'Comma-separated keys accepted as "Authorization: Bearer <key>", each 16 or more token68 characters; "#" starts a comment; list two while rotating. '
      + 'No flag: a command line is visible to every user of the machine. Not together with --api-keys-file.',
  }),
  apiKeysFile: setting({
    flag: '--api-keys-file', env: 'PETSTORE_API_KEYS_FILE', kind: FILE_NAME, defaultValue: undefined, defaultText: 'unset',
    description: 'File of keys, one per line ("#" starts a comment, blank lines are ignored), readable by its owner only; SIGHUP re-reads it without a restart.',
  }),
  data: setting({
    flag: '--data', env: 'PETSTORE_DATA', kind: FILE_NAME, defaultValue: undefined, defaultText: 'unset: in memory',
    description: 'Path of the durable data file.',
  }),
  durability: setting({
    flag: '--durability', env: 'PETSTORE_DURABILITY', kind: choice(DURABILITIES), defaultValue: DEFAULT_DURABILITY, defaultText: DEFAULT_DURABILITY,
    description: 'With --data: "fsync" (a 201 survives power loss) or "write" (a 201 survives a crash of the process, not of the machine).',
  }),
  databaseUrl: setting({
    flag: '--database-url', env: 'PETSTORE_DATABASE_URL', kind: text('<url>', 'a connection URL'), defaultValue: undefined, defaultText: 'unset',
    description: 'PostgreSQL connection URL (needs the driver pg: "npm install pg" in a project, "npm install --no-save -D pg" in a clone); with a password in it, prefer the variable to the flag.',
  }),
  poolSize: setting({
    flag: '--pool-size', env: 'PETSTORE_POOL_SIZE', kind: POOL_SIZE, defaultValue: undefined, defaultText: '10, or max= in the URL',
    description: 'Most PostgreSQL connections per process; keep processes × pool size below max_connections, or put PgBouncer in between.',
  }),
  poolWait: setting({
    flag: '--pool-wait', env: 'PETSTORE_POOL_WAIT', kind: POSITIVE_SECONDS, defaultValue: undefined, defaultText: '5, or connectionTimeoutMillis= in the URL',
    description: 'Seconds a request waits for a free pooled connection (opening one included) before a 503 that says the pet was never sent.',
  }),
  poolIdleTimeout: setting({
    flag: '--pool-idle-timeout', env: 'PETSTORE_POOL_IDLE_TIMEOUT', kind: SECONDS, defaultValue: undefined, defaultText: '10, or idleTimeoutMillis= in the URL',
    description: 'Seconds an unused pooled connection stays open; 0 keeps it open.',
  }),
  statementTimeout: setting({
    flag: '--statement-timeout', env: 'PETSTORE_STATEMENT_TIMEOUT', kind: POSITIVE_SECONDS, defaultValue: undefined, defaultText: '10, or query_timeout= in the URL',
    description: 'Seconds a statement may go unanswered (a stalled or frozen database) before a 503 and a new connection; creates wait for a lock half as long, at most 5.',
  }),
  requestDeadline: setting({
    flag: '--request-deadline', env: 'PETSTORE_REQUEST_DEADLINE', kind: POSITIVE_SECONDS, defaultValue: undefined, defaultText: '15',
    description: 'Seconds a request may spend on the database in all, its waits and statements together, before a 503.',
  }),
  maxPets: setting({
    flag: '--max-pets', env: 'PETSTORE_MAX_PETS', kind: COUNT, defaultValue: undefined, defaultText: 'unset: as many as the heap holds',
    description: 'Most pets the store holds in memory; past it a create is a 507 and reads go on. '
      + 'Pets may also take at most 70% of the old space (node --max-old-space-size) less 32 MiB. Not with --database-url.',
  }),
  maxConnectionsPerAddress: setting({
    flag: '--connections-per-address', env: 'PETSTORE_CONNECTIONS_PER_ADDRESS', kind: COUNT, defaultValue: undefined, defaultText: 'unset: no share',
    description: 'Most connections open at once from one client address, of those the server holds, 1,024 or fewer on a small heap; for clients that reach the server directly, not behind one balancer.',
  }),
  seed: setting({
    flag: '--seed', env: 'PETSTORE_SEED', kind: FILE_NAME, defaultValue: undefined, defaultText: 'unset',
    description: 'JSON array of NewPets created at start, in order, when the store is empty; one invalid entry refuses the file.',
  }),
  corsOrigins: setting({
    flag: '--cors-origins', env: 'PETSTORE_CORS_ORIGINS', kind: ORIGINS, defaultValue: undefined, defaultText: 'unset: no CORS',
    description: 'Origins whose browsers may call the API: comma-separated, or "*" for any.',
  }),
  accessLog: setting({
    flag: '--access-log', env: 'PETSTORE_ACCESS_LOG', kind: BOOLEAN, defaultValue: false, defaultText: 'off',
    description: 'One JSON line per request on stdout (method, path without query, status, duration, request id; never a header).',
  }),
  metrics: setting({
    flag: '--metrics', env: 'PETSTORE_METRICS', kind: BOOLEAN, defaultValue: false, defaultText: 'off',
    description: 'Serve GET /metrics in the Prometheus text format, without a key.',
  }),
  shutdownDelay: setting({
    flag: '--shutdown-delay', env: 'PETSTORE_SHUTDOWN_DELAY', kind: SECONDS, defaultValue: 0, defaultText: '0',
    description: 'Seconds to keep serving after SIGTERM, with /readyz failing, before the listener closes.',
  }),
  readiness: setting({
    flag: '--readiness', env: 'PETSTORE_READINESS', kind: choice(READINESS_MODES), defaultValue: DEFAULT_READINESS, defaultText: DEFAULT_READINESS,
    description: 'What /readyz answers for: "storage" (the process and its storage; a database outage takes every replica out of its balancer) '
      + 'or "process" (the process alone; in an outage it stays in and answers each request with the storage\'s 503 and its reason).',
  }),
  logLevel: setting({
    flag: '--log-level', env: 'PETSTORE_LOG_LEVEL', kind: choice(LOG_LEVELS), defaultValue: DEFAULT_LOG_LEVEL, defaultText: DEFAULT_LOG_LEVEL,
    description: 'Least severe event written to stderr: error, warn, info or debug.',
  }),
};

/** The settings in table order. */
export const ALL_SETTINGS: readonly AnySetting[] = Object.values(SETTINGS);

/**
 * The settings of `repair` alone: its `--data`, described as `repair` reads it (required; the
 * variable is the server's), and `--salvage`.
 */
export const REPAIR_SETTINGS = {
  data: setting({
    flag: '--data', env: 'PETSTORE_DATA', kind: FILE_NAME, defaultValue: undefined, defaultText: 'none: required',
    description: 'Path of the data file to repair; no server may have it open.',
  }),
  salvage: setting({
    flag: '--salvage', env: 'PETSTORE_REPAIR_SALVAGE', kind: BOOLEAN, defaultValue: false, defaultText: 'off',
    description: 'Keep every intact record after the damage, with its id, instead of cutting at the first bad record; the bytes dropped go to a side file.',
  }),
};
