#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createPetstore } from '../lib/index.js';
import { openStorage } from './open-storage.js';
import type { StorageConfig } from './open-storage.js';
import { repairStorage } from './repair-storage.js';
import { startServer } from '../server/start-server.js';

const HELP = `Petstore server: the Petstore interface 1.0.0 over HTTP, under /v1.

Usage: npm start            (or: node dist/cli/main.js)
       npm start -- --help
       npm start -- --repair   back up PETSTORE_DATA, cut it at its first bad record, say what
                               was done, and exit (the server must not be running)

Environment:
  PORT                 TCP port to listen on (default 8080; 0 picks a free port)
  HOST                 interface to listen on (default 127.0.0.1)
  PETSTORE_API_KEYS    comma-separated API keys accepted as "Authorization: Bearer <key>".
                       Unset: a random development key is generated and printed once to stderr.
  PETSTORE_DATA        path of the durable data file. Unset: pets live in memory only.
  PETSTORE_DURABILITY  with PETSTORE_DATA: "fsync" (default; a 201 survives power loss) or
                       "write" (a 201 survives a crash of the process, not of the machine).
  PETSTORE_DATABASE_URL  PostgreSQL connection URL (needs "npm install pg").
  PETSTORE_ACCESS_LOG  1 to write one JSON line per request to stdout (never any header).

Endpoints: GET/POST /v1/pets, GET /v1/pets/{petId} (deprecated), GET /v1/openapi.json and
           GET /healthz (no key).
Stops gracefully on SIGTERM or SIGINT.
`;

/** A configuration mistake: reported in one line, exit code 2. */
class ConfigurationError extends Error {}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65_535) throw new ConfigurationError(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(value)}`);
  return port;
}

function readApiKeys(value: string | undefined): { apiKeys: string[]; isGenerated: boolean } {
  const apiKeys = (value ?? '').split(',').map((key) => key.trim()).filter((key) => key.length > 0);
  if (apiKeys.length > 0) return { apiKeys, isGenerated: false };
  return { apiKeys: [randomBytes(24).toString('base64url')], isGenerated: true };
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Reads which storage to run on; naming two storages, or a durability without a data file, is a mistake. */
function readStorageConfig(env: NodeJS.ProcessEnv, log: (line: string) => void): StorageConfig {
  const dataFile = optional(env['PETSTORE_DATA']);
  const databaseUrl = optional(env['PETSTORE_DATABASE_URL']);
  const durability = optional(env['PETSTORE_DURABILITY']);
  if (dataFile !== undefined && databaseUrl !== undefined) {
    throw new ConfigurationError('PETSTORE_DATA and PETSTORE_DATABASE_URL are both set: choose one storage');
  }
  if (durability !== undefined && durability !== 'fsync' && durability !== 'write') {
    throw new ConfigurationError(`PETSTORE_DURABILITY must be "fsync" or "write", not ${JSON.stringify(durability)}`);
  }
  if (durability !== undefined && dataFile === undefined) throw new ConfigurationError('PETSTORE_DURABILITY applies only with PETSTORE_DATA');
  const config: StorageConfig = { log };
  if (dataFile !== undefined) config.dataFile = dataFile;
  if (databaseUrl !== undefined) config.databaseUrl = databaseUrl;
  if (durability !== undefined) config.durability = durability;
  return config;
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const unknown = argv.find((argument) => argument !== '--repair');
  if (unknown !== undefined) throw new ConfigurationError(`unknown argument ${JSON.stringify(unknown)}; see --help`);

  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const storageConfig = readStorageConfig(env, log);
  if (argv.includes('--repair')) {
    if (storageConfig.dataFile === undefined) throw new ConfigurationError('--repair needs PETSTORE_DATA: the data file to repair');
    process.stdout.write(`${await repairStorage(storageConfig)}\n`);
    return;
  }
  const port = readPort(env['PORT']);
  const host = optional(env['HOST']) ?? '127.0.0.1';
  const { apiKeys, isGenerated } = readApiKeys(env['PETSTORE_API_KEYS']);

  const storage = await openStorage(storageConfig);
  const store = createPetstore({ storage });
  const running = await startServer({
    store,
    apiKeys,
    port,
    host,
    ...(env['PETSTORE_ACCESS_LOG'] === '1' ? { accessLog: (line: string) => void process.stdout.write(`${line}\n`) } : {}),
  });

  let isStopping = false;
  const stop = (signal: string): void => {
    if (isStopping) return;
    isStopping = true;
    log(`${signal} received: finishing in-flight requests, then stopping`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Announced only once the signal handlers are in place, so a supervisor may stop us right away.
  if (isGenerated) log(`No PETSTORE_API_KEYS set: development key for this run only: ${apiKeys[0]}`);
  process.stdout.write(`Petstore listening on ${running.url}\n`);
}

/** `petstore-reference conformance …`: the conformance kit's command, with this process's output and file system. */
async function conformance(argv: readonly string[]): Promise<void> {
  const { runConformanceCommand } = await import('../conformance/command.js');
  const code = await runConformanceCommand(argv, {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    writeFile: (path, text) => writeFile(path, text, 'utf8'),
  });
  // Exits once the output is flushed, without waiting for idle keep-alive connections to the server under test.
  process.stdout.write('', () => process.exit(code));
}

const argv = process.argv.slice(2);
(argv[0] === 'conformance' ? conformance(argv.slice(1)) : main(argv, process.env)).catch((error: unknown) => {
  process.stderr.write(`petstore: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof ConfigurationError ? 2 : 1);
});
