#!/usr/bin/env node
// The command line's entry: the only module that reads process.argv and process.env (STYLE rule 3).
import { createHook } from 'node:async_hooks';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { UsageError } from './command-line.js';
import type { CliIo } from './io.js';
import { createOutput } from './output.js';
import { runCli } from './run.js';
import { HUMAN_PREFIX } from './startup-log.js';

/** How long the exit waits for readers to take what was written (ms): a reader that stalled must not hold the process. */
const EXIT_FLUSH_TIMEOUT = 2000;

/**
 * Exits once stdout and stderr have taken what was written before, so piped output
 * (`openapi > file`) is never cut; a reader that went away or stalled gets EXIT_FLUSH_TIMEOUT.
 */
function exit(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const flushed = (): void => {
    if (--pending === 0) process.exit(code);
  };
  setTimeout(() => process.exit(code), EXIT_FLUSH_TIMEOUT).unref();
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}

/** This package's root, where its package.json is: three levels up from dist/extras/cli/main.js, two from extras/cli/main.ts. */
async function packageRoot(): Promise<{ root: URL; manifest: { version: unknown } }> {
  for (const candidate of ['../../', '../../../']) {
    const root = new URL(candidate, import.meta.url);
    const text = await readFile(new URL('package.json', root), 'utf8').catch(() => undefined);
    const manifest: unknown = text === undefined ? undefined : JSON.parse(text);
    if (typeof manifest === 'object' && manifest !== null && 'name' in manifest && manifest.name === 'petstore-reference' && 'version' in manifest) {
      return { root, manifest };
    }
  }
  throw new Error('package.json of petstore-reference not found beside the command');
}

/** The last `--max-old-space-size` among node's own arguments and `NODE_OPTIONS` (MiB), as node reads them; undefined when none. */
function maxOldSpaceMiB(): number | undefined {
  const options = [...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/), ...process.execArgv];
  let found: number | undefined;
  for (const option of options) {
    const match = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(option);
    if (match?.[1] !== undefined) found = Number(match[1]);
  }
  return found;
}

// One of Node's own `process.nextTick` records, kept alive: on Node 20 to 24 a full collection while none is alive frees
// their shape, and every `process.nextTick` after it runs about five times slower (docs/performance.md, "Node's tick records").
const keptTicks: object[] = [];
const tickHook = createHook({ init: (_id, type, _trigger, resource: object) => void (type === 'TickObject' && keptTicks.push(resource)) }).enable();
process.nextTick(() => undefined);
tickHook.disable();

// Neither a reader that went away (EPIPE) nor one that stalls may stop or crash the server.
const stdout = createOutput(process.stdout);
const stderr = createOutput(process.stderr);

const io: CliIo = {
  stdout: (text) => stdout.write(text),
  stderr: (text) => stderr.write(text),
  onDroppedLine(listener) {
    stdout.onDrop(() => listener('stdout'));
    stderr.onDrop(() => listener('stderr'));
  },
  readText: (path) => readFile(path, 'utf8'),
  fileMode: async (path) => (await stat(path)).mode,
  writeText: (path, text) => writeFile(path, text, 'utf8'),
  onSignal: (signal, handler) => void process.on(signal, handler),
  exit,
  version: async () => String((await packageRoot()).manifest.version),
  // The guides ship in the package (`files`), so an installed copy's help names its own folder.
  docsDirectory: async () => fileURLToPath(new URL('docs', (await packageRoot()).root)),
};
const oldSpaceFlag = maxOldSpaceMiB();
if (oldSpaceFlag !== undefined) io.maxOldSpaceMiB = oldSpaceFlag;

runCli(process.argv.slice(2), process.env, io).then(
  (code) => {
    if (code !== undefined) exit(code);
  },
  (error: unknown) => {
    // A setup mistake says what to do in its message (status 2); anything else is a defect, shown with its stack (status 1).
    const isMistake = error instanceof UsageError;
    const text = error instanceof Error ? (isMistake ? error.message : error.stack ?? error.message) : String(error);
    stderr.write(`${HUMAN_PREFIX}${text}\n`);
    exit(isMistake ? 2 : 1);
  },
);
