/**
 * What the documents' sentences state, held against the code or a run: the flags they name, the
 * metrics a scrape answers, the log events the code writes, and the exit statuses and the prefix of
 * the lines a start that fails writes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS } from '../../extras/cli/commands.js';
import { REPAIR_SETTINGS, SETTINGS } from '../../extras/cli/settings.js';
import { HUMAN_PREFIX } from '../../extras/cli/startup-log.js';
import { createMetrics, instrumentPool, instrumentStorage, operatorKit } from '../../extras/operator/index.js';
import { POOL_FAILURE_CODES } from '../../extras/postgres/index.js';
import { createMemoryStorage, createPetstore } from '../../lib/index.js';
import { startServer } from '../../server/node/index.js';
import { DOCUMENTS, proseOf, ROOT } from './citations.js';

/** The text of every file under `directory` whose name ends in `.ts`, recursively, joined. */
function sourcesUnder(directory: string): string {
  return readdirSync(join(ROOT, directory), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(ROOT, directory, file), 'utf8'))
    .join('\n');
}

/** The rows of the first Markdown table after `heading` in `markdown`, as cells without their outer backticks. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  assert.ok(start !== -1, heading);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(' | ').map((cell) => cell.trim().replace(/^`([^`]*)`$/, '$1')));
  }
  return rows;
}

/** Flags of other programs the documents name, each with the program: none of them is a flag of petstore-reference. */
const OTHER_PROGRAMS: Readonly<Record<string, string>> = {
  '--no-save': 'npm install', '--save-dev': 'npm install', '--omit': 'npm ci', '--import': 'node', '--test': 'node', '--cpu-prof': 'node', '--cpu-prof-interval': 'node',
  '--max-old-space-size': 'node', '--single-threaded-gc': 'node', '--no-memory-reducer': 'node', '--trace-gc': 'node', '--trace-deopt': 'node', '--bindir': 'pg_config', '--extends': 'redocly lint', '--detach': 'git worktree add',
  '--tool': 'valgrind', '--name': 'the placeholder of "--name value" in docs/operations.md',
  '--prot': 'the unknown flag of docs/operations.md\'s table of what stops a start',
  '--api-keys': 'the flag docs/operations.md says is refused, so that no key is on a command line',
};

test('every --flag the documents name is a flag of petstore-reference (its commands, repair and conformance), of a benchmark, or of a program named here', () => {
  const cliFlags = new Set<string>(['--help', '--version', '--repair']);
  for (const setting of [...Object.values(SETTINGS), ...Object.values(REPAIR_SETTINGS)]) if (setting.flag !== undefined) cliFlags.add(setting.flag);
  for (const command of Object.values(COMMANDS)) for (const setting of Object.values(command.settings)) if (setting.flag !== undefined) cliFlags.add(setting.flag);
  const conformance = readFileSync(join(ROOT, 'extras', 'conformance', 'command.ts'), 'utf8');
  const bench = sourcesUnder('bench');
  const unknown: string[] = [];
  for (const [path, text] of DOCUMENTS) {
    for (const [, code = ''] of proseOf(text).matchAll(/`([^`\n]+)`/g)) {
      for (const [flag = ''] of code.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)) {
        const isKnown = cliFlags.has(flag) || conformance.includes(`'${flag}'`) || new RegExp(`${flag}\\b`).test(bench) || Object.hasOwn(OTHER_PROGRAMS, flag);
        if (!isKnown) unknown.push(`${path}: ${flag}`);
      }
    }
  }
  assert.deepEqual([...new Set(unknown)], []);
});

/** The metrics a scrape of a server with every metric on answers: name and type, from its `# TYPE` lines. */
async function scrapedMetrics(): Promise<Map<string, string>> {
  const metrics = createMetrics();
  const memory = createMemoryStorage();
  const storage = instrumentStorage(memory, metrics, 'postgres');
  // A pool shows its metrics too, as the command line shows the PostgreSQL storage's.
  instrumentPool(metrics, 'postgres', () => ({ max: 2, total: 1, idle: 1, waiting: 0, waitTimeouts: 0 }));
  const server = await startServer({ store: createPetstore({ storage }), apiKeys: ['prose-claims-key-0123456789'], port: 0, plugins: [operatorKit({ metrics })] });
  try {
    const text = await (await fetch(`${new URL(server.url).origin}/metrics`)).text();
    return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name = '', type = '']) => [name, type]));
  } finally {
    await server.close();
  }
}

test('the metrics tables of docs/operations.md and docs/metrics.md list every metric a scrape answers, with its type, and no other; every metric the documents name is one', async () => {
  const scraped = await scrapedMetrics();
  assert.ok(scraped.size >= 16, `${scraped.size} metrics`);
  for (const [path, heading] of [['docs/operations.md', '## Metrics'], ['docs/metrics.md', '| name | type |']] as const) {
    const rows = tableAfter(DOCUMENTS.get(path) ?? '', heading);
    assert.deepEqual(new Map(rows.map(([name = '', type = '']) => [name, type])), scraped, `${path}: the table under ${heading}`);
  }
  const named: string[] = [];
  for (const [path, text] of DOCUMENTS) {
    for (const [name = ''] of proseOf(text).matchAll(/\b(?:petstore|process)_[a-z_]*[a-z*]/g)) {
      const isScraped = scraped.has(name) || (name.endsWith('_*') && [...scraped.keys()].some((known) => known.startsWith(name.slice(0, -1))));
      if (!isScraped) named.push(`${path}: ${name}`);
    }
  }
  assert.deepEqual([...new Set(named)], [], 'metric names the documents give that no scrape answers');
});

/** Every `msg` the kernel and the extras log: the literals after `msg:` and the constants named `…_MSG`. */
function loggedEvents(): Set<string> {
  const sources = ['lib', 'server', 'extras'].map(sourcesUnder).join('\n');
  return new Set([...sources.matchAll(/\bmsg: '([^']+)'|_MSG = '([^']+)'/g)].map((match) => match[1] ?? match[2] ?? ''));
}

test('docs/operations.md\'s two tables of log events list every event the code logs, and no other; docs/metrics.md names only events the code logs', () => {
  const logged = loggedEvents();
  assert.ok(logged.size >= 20, `${logged.size} events`);
  const operations = DOCUMENTS.get('docs/operations.md') ?? '';
  const documented = [
    ...tableAfter(operations, 'Events of the command line'),
    ...tableAfter(operations, 'Events of the server itself'),
  ].map(([, msg = '']) => msg);
  assert.deepEqual([...new Set(documented)].sort(), [...logged].sort(), 'docs/operations.md\'s events against the code\'s');
  const inMetrics = tableAfter(DOCUMENTS.get('docs/metrics.md') ?? '', 'The entries the server and the request core give').map(([, msg = '']) => msg);
  assert.deepEqual(inMetrics.filter((msg) => !logged.has(msg)), [], 'docs/metrics.md\'s events that the code never logs');
});

test('the documents give the prefix of the command\'s lines as petstore-reference:, and a start that fails exit status 2', () => {
  const problems: string[] = [];
  for (const [path, text] of DOCUMENTS) {
    const prose = proseOf(text);
    // A file storage's own notes start `petstore: <its path>:`; they reach the log inside a `Storage note` event, not as the command's lines.
    for (const [, line = ''] of prose.matchAll(/`(petstore[\w-]*: (?!\/)[^`]*)`/g)) {
      if (!line.startsWith(HUMAN_PREFIX)) problems.push(`${path}: \`${line.slice(0, 40)}…\` does not start with ${HUMAN_PREFIX}`);
    }
    // A sentence about the server failing to start that states an exit status.
    for (const sentence of prose.replace(/\n/g, ' ').split(/(?<=\.)\s+(?=[A-Z`*])/)) {
      const status = /\bexits? with status `?(\d+)`?|\bexit status `?(\d+)`?/.exec(sentence);
      const isStartFailure = /\b(at start|cannot be reached|not installed|cannot start|before the server listens|refused at start)\b/.test(sentence) && /\bserver\b/.test(sentence);
      if (status !== null && isStartFailure && (status[1] ?? status[2]) !== '2') problems.push(`${path}: "${sentence.slice(0, 160)}" states exit status ${status[1] ?? status[2]}, where a start that fails exits 2`);
    }
  }
  assert.deepEqual(problems, []);
});

/** A file a command of the documents runs, as the repository holds it: a built `dist/…/x.js` (in a clone or installed) by its source `x.ts`. */
function sourcePathOf(path: string): string {
  return path.replace(/^node_modules\/petstore-reference\//, '').replace(/^dist\/(.*)\.js$/, '$1.ts');
}

test('every npm script the documents run is one of package.json, and every file they run with node or tsx exists (a built file by its source)', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const problems: string[] = [];
  for (const [path, text] of DOCUMENTS) {
    for (const [, script = ''] of text.matchAll(/\bnpm run ([a-z][\w:-]*)/g)) {
      if (!Object.hasOwn(scripts, script)) problems.push(`${path}: npm run ${script} is no script of package.json`);
    }
    for (const [, file = ''] of text.matchAll(/\b(?:npx tsx|node)(?: --[\w-]+(?:[= ][^\s`]+)?)* ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|js|mjs))\b/g)) {
      // A sample the reader saves under that name in a project of their own.
      if (file === 'sample.ts' || file === 'main.mjs') continue;
      if (!existsSync(join(ROOT, sourcePathOf(file)))) problems.push(`${path}: ${file} does not exist (looked for ${sourcePathOf(file)})`);
    }
  }
  assert.deepEqual([...new Set(problems)], []);
});

test('docs/metrics.md lists the pool\'s own failure codes as the storage names them, every one', () => {
  const listed = /the pool's own \(((?:`PETSTORE_\w+`(?:, )?)+)\)/.exec(DOCUMENTS.get('docs/metrics.md') ?? '')?.[1] ?? '';
  assert.deepEqual([...listed.matchAll(/`(\w+)`/g)].map((match) => match[1]).sort(), [...POOL_FAILURE_CODES].sort());
});
