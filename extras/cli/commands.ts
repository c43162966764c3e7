import { ALL_SETTINGS, REPAIR_SETTINGS, SETTINGS } from './settings.js';
import type { AnySetting } from './settings.js';

/** What `--help` says about one command, and which settings it reads. */
export interface CommandSpec {
  summary: string;
  usage: readonly string[];
  settings: readonly AnySetting[];
  /** Paragraphs after the options. */
  notes: readonly string[];
}

/** The commands of `petstore-reference` other than `conformance`, whose help is its own (extras/conformance/command.ts). */
export const COMMANDS = {
  serve: {
    summary: 'runs the server: the Petstore interface 1.0.0 over HTTP, under /v1. The default command.',
    usage: ['petstore-reference [serve] [options]', 'npm start -- [options]'],
    settings: ALL_SETTINGS,
    notes: [
      'Each option can also be set by its environment variable; the flag beats the variable. '
        + 'Booleans take 1/0, true/false or yes/no in any case; a boolean flag alone means on. '
        + 'Values go as --name value or --name=value.',
      'Without a key: GET /v1/docs (the reference page, with a console; GET / redirects there), '
        + 'GET /healthz (liveness), GET /readyz (readiness: the storage answers), '
        + 'GET /metrics (with --metrics), GET /v1/openapi.json. With a key: GET/POST /v1/pets, '
        + 'GET /v1/pets/{petId} (deprecated).',
      'SIGTERM or SIGINT: /readyz fails at once, requests are served for --shutdown-delay seconds, '
        + 'then in-flight requests finish and the server exits 0. SIGHUP re-reads --api-keys-file.',
      'Output: "Petstore listening on <url>", "Reference page (open it in a browser): <url>/docs", the development key when none is set, '
        + 'and the access log on stdout; once the server listens, one JSON line per event on stderr (time, level, msg, requestId where there is one); '
        + 'docs/operations.md in the repository lists them.',
      'Exit status: 2 when the server cannot start (a mistake in the settings, or a file, port, storage or database that refuses), '
        + 'said in human-readable lines on stderr and nothing else; 0 after a clean shutdown on a signal; 1 when the running server fails.',
    ],
  },
  openapi: {
    summary: 'prints the OpenAPI 3.1 document the server serves at /v1/openapi.json, then exits.',
    usage: ['petstore-reference openapi > openapi.json'],
    settings: [],
    notes: [],
  },
  repair: {
    summary: 'backs up the data file, cuts it at its first bad record (or, with --salvage, drops only what is damaged), '
      + 'says what was done, and exits. No server may be running on the file.',
    usage: ['petstore-reference repair --data <file> [--salvage]'],
    settings: [REPAIR_SETTINGS.data, REPAIR_SETTINGS.salvage, SETTINGS.logLevel],
    notes: [
      'The file as it was is copied to <file>.<time>.bak first. Ids of pets that are dropped stay reserved: no later pet gets them.',
    ],
  },
} satisfies Record<string, CommandSpec>;

/** A command this module describes. */
export type CommandName = keyof typeof COMMANDS;

/** Every command, with a one-line summary for the top-level help. */
export const COMMAND_SUMMARIES: readonly [string, string][] = [
  ['serve', 'run the server (the default command; npm start runs it)'],
  ['openapi', 'print the OpenAPI document the server serves'],
  ['repair', 'repair a damaged data file, then exit'],
  ['conformance', 'check a server against the interface over HTTP'],
];
