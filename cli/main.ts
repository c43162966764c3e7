#!/usr/bin/env node
// The command line's entry: the only module that reads process.argv and process.env (STYLE rule 3).
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { UsageError } from './command-line.js';
import type { CliIo } from './io.js';
import { runCli } from './run.js';

/** Exits once stdout has taken what was written before, so piped output (`openapi > file`) is never cut. */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

/** This package's root, where its package.json is: two levels up from dist/cli/main.js, one from cli/main.ts. */
async function packageRoot(): Promise<{ root: URL; manifest: { version: unknown } }> {
  for (const candidate of ['../', '../../']) {
    const root = new URL(candidate, import.meta.url);
    const text = await readFile(new URL('package.json', root), 'utf8').catch(() => undefined);
    const manifest: unknown = text === undefined ? undefined : JSON.parse(text);
    if (typeof manifest === 'object' && manifest !== null && 'name' in manifest && manifest.name === 'petstore-reference' && 'version' in manifest) {
      return { root, manifest };
    }
  }
  throw new Error('package.json of petstore-reference not found beside the command');
}

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readText: (path) => readFile(path, 'utf8'),
  writeText: (path, text) => writeFile(path, text, 'utf8'),
  onSignal: (signal, handler) => void process.on(signal, handler),
  exit,
  version: async () => String((await packageRoot()).manifest.version),
  // The guides ship in the package (`files`), so an installed copy's help names its own folder.
  docsDirectory: async () => fileURLToPath(new URL('docs', (await packageRoot()).root)),
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
