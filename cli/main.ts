#!/usr/bin/env node
// The command line's entry: the only module that reads process.argv and process.env (STYLE rule 3).
import { readFile, stat, writeFile } from 'node:fs/promises';
import { UsageError } from './command-line.js';
import type { CliIo } from './io.js';
import { runCli } from './run.js';

/** Exits once stdout has taken what was written before, so piped output (`openapi > file`) is never cut. */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

/** The version in this package's package.json: two levels up from dist/cli/main.js, one from cli/main.ts. */
async function packageVersion(): Promise<string> {
  for (const candidate of ['../package.json', '../../package.json']) {
    const text = await readFile(new URL(candidate, import.meta.url), 'utf8').catch(() => undefined);
    const manifest: unknown = text === undefined ? undefined : JSON.parse(text);
    if (typeof manifest === 'object' && manifest !== null && 'name' in manifest && manifest.name === 'petstore-reference' && 'version' in manifest) {
      return String(manifest.version);
    }
  }
  throw new Error('package.json of petstore-reference not found beside the command');
}

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readText: (path) => readFile(path, 'utf8'),
  fileMode: async (path) => (await stat(path)).mode,
  writeText: (path, text) => writeFile(path, text, 'utf8'),
  onSignal: (signal, handler) => void process.on(signal, handler),
  exit,
  version: packageVersion,
};

runCli(process.argv.slice(2), process.env, io).then(
  (code) => {
    if (code !== undefined) exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`petstore-reference: ${error instanceof Error ? error.message : String(error)}\n`);
    exit(error instanceof UsageError ? 2 : 1);
  },
);
