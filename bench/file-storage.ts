/**
 * File storage benchmark (issue 4): creates/s over HTTP with the file storage at concurrency 1, 16
 * and 64 in `fsync` and `write` modes against the in-memory storage in the same run, the disk's own
 * limit for one client (a bare `write` + `fdatasync` loop of one record), the serial limit one client
 * allows (issue 41 item 5: one memory round trip plus one bare sync, `1 / (1/memory + 1/disk)`, per
 * round), and the time to reopen a journal of 1,000,000 pets. Loopback only; every run is bounded in time.
 *
 *   npx tsx bench/file-storage.ts [--seconds 4] [--rounds 3] [--concurrency 1,16,64] [--via start|script] [--pets 1000000] [--reopens 3] [--part all|http|reopen] [--directory <dir>] [--against <git revision>]
 *
 * `--via start` (the default) builds the project once (`npm run build`) and starts every server as
 * its `npm start` runs it, the data file and durability in the environment, as users start it.
 * `--via script` serves each storage from this script through tsx instead, which also reports the
 * journal's counters (syncs per create, records per batch) that a started server does not show.
 *
 * `--against <revision>` adds, in the same rounds, this build and the project as built at that
 * revision (bench/against.ts), both started as their `npm start` runs them, in memory and on a data
 * file in each durability: the table of this build against that one, and of each build's journal
 * against its own memory cell of the round.
 *
 * Needs wrk (Debian: apt-get install wrk). Layout on a 2-core machine: each server is its own process
 * pinned to core 0, wrk is pinned to core 1 (one thread, one connection per client). Each cell gets
 * a fresh server on a fresh journal; the three storages alternate within a round, and the table
 * shows the median over rounds. The journal directory defaults to the system temp dir: it must be
 * on a real disk, since fdatasync on tmpfs costs nothing.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createMemoryStorage, createPetstore } from '../lib/index.js';
import type { PetStatus, PetStorage } from '../lib/index.js';
import { createFileStorage } from '../extras/file-storage/index.js';
import type { FileStorage, JournalStats } from '../extras/file-storage/index.js';
import { encodePetRecord } from '../extras/file-storage/journal-format.js';
import { startServer } from '../server/node/index.js';
import { startCommandOf, withRevisionBuild } from './against.js';
import type { NamedBuild } from './against.js';
import { environmentWithoutServerSettings } from './http.js';
import { format, median, pinnedTo, readWrk, ROOT, run, startProcess, stopProcess } from './support.js';

const SCRIPT = resolve(import.meta.filename);
const API_KEY = 'bench-file-storage-key';
const CONCURRENCIES = [1, 16, 64] as const;
/** Where each server keeps pets, built servers of `--against` included: in memory (no data file), and on a data file in each durability. */
const STORAGES = ['memory', 'fsync', 'write'] as const;
type StorageName = (typeof STORAGES)[number];
/** A server built and started as its `npm start` runs it: this build, or the revision `--against` names. */
type BuiltServer = NamedBuild<'this' | 'against'>;
const WARMUP_SECONDS = 1;
const BODY = '{"name":"bench pet","categoryId":7,"status":"available"}';

/** Server role: serves the named storage on an ephemeral port; answers `stats` and `stop` on stdin. */
async function serve(storageName: StorageName, dataFile: string): Promise<void> {
  const storage: PetStorage = storageName === 'memory'
    ? createMemoryStorage()
    : await createFileStorage(dataFile, { durability: storageName, log: (line) => void process.stderr.write(`${line}\n`) });
  const running = await startServer({ store: createPetstore({ storage }), apiKeys: [API_KEY], port: 0, host: '127.0.0.1', logError: () => undefined });
  process.stdout.write(`listening ${running.url}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'stats') {
      const stats = 'stats' in storage ? (storage as FileStorage).stats() : null;
      process.stdout.write(`stats ${JSON.stringify(stats)}\n`);
    }
    if (line === 'stop') break;
  }
  await running.close();
  process.exit(0);
}

/**
 * Bare role: the disk's own limit for one client, in a process of its own pinned to the servers'
 * core: a loop of `write` + `fdatasync` of one record of the benchmark's pet at a time, through the
 * same FileHandle calls the journal's writer has, in the journal's directory, for `seconds`; prints
 * syncs per second.
 */
async function bareRole(directory: string, seconds: number): Promise<void> {
  // The pet of BODY, with an id as long as the benchmark's (an id is 8 bytes whatever its value).
  const record = encodePetRecord({ id: 1_000_000, name: 'bench pet', categoryId: 7, status: 'available' });
  const path = join(directory, 'bare-sync.bin');
  const file = await open(path, 'w');
  try {
    const started = performance.now();
    let count = 0;
    while (performance.now() - started < seconds * 1000) {
      await file.write(record, 0, record.length, count * record.length);
      await file.datasync();
      count++;
    }
    process.stdout.write(`bare ${count / ((performance.now() - started) / 1000)}\n`);
  } finally {
    await file.close();
    await rm(path, { force: true });
  }
}

/** Reopen role: opens the journal, prints the time it took and the heap it holds, closes it. */
async function reopen(dataFile: string): Promise<void> {
  const started = performance.now();
  const storage = await createFileStorage(dataFile);
  const milliseconds = performance.now() - started;
  const heap = process.memoryUsage().heapUsed;
  const last = await storage.list({ status: undefined, after: 0, limit: 1 });
  await storage.close();
  process.stdout.write(`reopened ${JSON.stringify({ milliseconds, heap, first: last[0]?.id ?? 0 })}\n`);
}

/** A benchmark server in its own process on core 0: a storage served by this script (`--serve`), which also reports the journal's counts, or a build started as `npm start` runs it. */
class BenchServer {
  readonly #child: ChildProcess;
  readonly #lines: AsyncIterator<string> | undefined;
  url = '';

  constructor(child: ChildProcess, isServedHere: boolean) {
    this.#child = child;
    this.#lines = isServedHere ? createInterface({ input: this.#child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]() : undefined;
  }

  static async start(storageName: StorageName, dataFile: string): Promise<BenchServer> {
    const command = [...(await pinnedTo(0)), process.execPath, '--import', 'tsx', SCRIPT, '--serve', storageName, dataFile];
    const server = new BenchServer(spawn(command[0] as string, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] }), true);
    server.url = await server.#reply('listening ');
    return server;
  }

  /** A build's server as its `npm start` runs it: in memory, or with the data file and durability in the environment its command line reads. */
  static async startBuilt(built: BuiltServer, storageName: StorageName, dataFile: string): Promise<BenchServer> {
    const storage = storageName === 'memory' ? {} : { PETSTORE_DATA: dataFile, PETSTORE_DURABILITY: storageName };
    const env = { ...environmentWithoutServerSettings(), PORT: '0', HOST: '127.0.0.1', PETSTORE_API_KEYS: API_KEY, ...storage };
    const { start } = built;
    const { child, match } = await startProcess([...start.nodeArguments, start.script, ...start.args], { core: 0, ready: /Petstore listening on (\S+)\n/, env, cwd: built.root, timeoutMs: 60_000 });
    const server = new BenchServer(child, false);
    server.url = `${new URL(match[1] as string).origin}/v1`;
    return server;
  }

  async #reply(prefix: string): Promise<string> {
    if (this.#lines === undefined) throw new Error('only a server this script serves answers on stdin');
    const next = await this.#lines.next();
    if (next.done === true || !String(next.value).startsWith(prefix)) throw new Error(`benchmark server said ${String(next.value)}`);
    return String(next.value).slice(prefix.length);
  }

  async stats(): Promise<JournalStats | null> {
    if (this.#lines === undefined) return null;
    this.#child.stdin?.write('stats\n');
    return JSON.parse(await this.#reply('stats ')) as JournalStats | null;
  }

  async stop(): Promise<void> {
    if (this.#lines === undefined) return stopProcess(this.#child);
    const exited = once(this.#child, 'exit');
    this.#child.stdin?.write('stop\n');
    await exited;
  }
}

/** What one wrk run measured. */
interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  errors: number;
}

/** Runs wrk on core 1 with `connections` clients for `seconds`, posting creates. */
async function load(url: string, connections: number, seconds: number, script: string): Promise<LoadResult> {
  const command = [...(await pinnedTo(1)), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-s', script, `${url}/pets`];
  const { stdout } = await run(command[0] as string, command.slice(1), { timeout: (seconds + 30) * 1000 });
  const { requestsPerSecond, requests, non2xx, socketErrors } = readWrk(stdout);
  return { requestsPerSecond, requests, errors: non2xx + socketErrors };
}

/** One measured cell: creates/s and, for the file storage, syncs per create during the measured window. */
interface Cell {
  requestsPerSecond: number;
  errors: number;
  syncsPerCreate: number | undefined;
  recordsPerBatch: number | undefined;
}

/** The server of one cell: a storage of this build's in its own process, or a build started as `npm start` runs it on a data file in one durability. */
type CellServer = { storageName: StorageName; built?: BuiltServer };

async function measure(cellServer: CellServer, concurrency: number, seconds: number, directory: string, script: string, cellIndex: number): Promise<Cell> {
  const dataFile = join(directory, `cell-${cellIndex}.journal`);
  const { built, storageName } = cellServer;
  const server = built === undefined ? await BenchServer.start(storageName, dataFile) : await BenchServer.startBuilt(built, storageName, dataFile);
  try {
    await load(server.url, concurrency, WARMUP_SECONDS, script);
    const before = await server.stats();
    const result = await load(server.url, concurrency, seconds, script);
    const after = await server.stats();
    const counted = (field: keyof JournalStats): number => (before === null || after === null ? 0 : after[field] - before[field]);
    const [records, syncs, writes] = [counted('records'), counted('syncs'), counted('writes')];
    return {
      requestsPerSecond: result.requestsPerSecond,
      errors: result.errors,
      syncsPerCreate: storageName === 'memory' || records === 0 ? undefined : syncs / records,
      recordsPerBatch: storageName === 'memory' || writes === 0 ? undefined : records / writes,
    };
  } finally {
    await server.stop();
    await rm(dataFile, { force: true });
  }
}

/** The disk's own limit for one client, measured by the bare role on core 0: syncs per second. */
async function bareSyncLoop(directory: string, seconds: number): Promise<number> {
  const command = [...(await pinnedTo(0)), process.execPath, '--import', 'tsx', SCRIPT, '--bare', directory, String(seconds)];
  const { stdout } = await run(command[0] as string, command.slice(1), { timeout: (seconds + 30) * 1000 });
  const rate = Number(/bare ([\d.]+)/.exec(stdout)?.[1]);
  if (!Number.isFinite(rate)) throw new Error(`the bare loop said ${stdout}`);
  return rate;
}

/** Writes a journal of `count` pets through the storage itself (write mode, 1,000 inserts in flight). */
async function buildJournal(dataFile: string, count: number): Promise<number> {
  const storage = await createFileStorage(dataFile, { durability: 'write' });
  const statuses: (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];
  const started = performance.now();
  for (let created = 0; created < count;) {
    const batch = Math.min(1000, count - created);
    await Promise.all(Array.from({ length: batch }, (_, index) => {
      const number = created + index;
      const status = statuses[number % statuses.length];
      return storage.insert({ name: `pet number ${number}`, categoryId: number % 1000, ...(status === undefined ? {} : { status }) });
    }));
    created += batch;
  }
  await storage.close();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      pets: { type: 'string', default: '1000000' },
      reopens: { type: 'string', default: '3' },
      part: { type: 'string', default: 'all' },
      directory: { type: 'string' },
      serve: { type: 'string' },
      reopen: { type: 'string' },
      against: { type: 'string' },
      concurrency: { type: 'string', default: CONCURRENCIES.join(',') },
      via: { type: 'string', default: 'start' },
      bare: { type: 'string' },
    },
    allowPositionals: true,
  });
  if (values.serve !== undefined) return serve(values.serve as StorageName, process.argv.at(-1) as string);
  if (values.reopen !== undefined) return reopen(values.reopen);
  if (values.bare !== undefined) return bareRole(values.bare, Number(process.argv.at(-1)));
  const concurrencies = values.concurrency.split(',').map(Number);
  if (concurrencies.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`--concurrency must list positive integers, not ${values.concurrency}`);
  if (values.via !== 'start' && values.via !== 'script') throw new Error(`--via must be start or script, not ${values.via}`);
  const isViaStart = values.via === 'start';

  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const pets = Number(values.pets);
  const reopenRuns = Number(values.reopens);
  const isHttpPart = values.part !== 'reopen';
  const isReopenPart = values.part !== 'http';
  const directory = await mkdtemp(join(values.directory ?? tmpdir(), 'petstore-bench-file-'));
  const script = join(directory, 'create.lua');
  await writeFile(script, [
    'wrk.method = "POST"',
    `wrk.headers["Authorization"] = "Bearer ${API_KEY}"`,
    'wrk.headers["Content-Type"] = "application/json"',
    `wrk.body = '${BODY}'`,
  ].join('\n'));
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  try {
    const out: string[] = [];
    const measureAll = async (builds: readonly BuiltServer[]): Promise<void> => {
      const loadAverages: string[] = [];
      const cells = new Map<string, Cell[]>();
      const bare: number[] = [];
      let cellIndex = 0;
      const servers: [string, CellServer][] = [
        ...(isViaStart ? [] : STORAGES.map((storageName): [string, CellServer] => [storageName, { storageName }])),
        ...builds.flatMap((built) => STORAGES.map((storageName): [string, CellServer] => [`${built.name}-${storageName}`, { built, storageName }])),
      ];
      for (let round = 1; round <= rounds; round++) {
        bare.push(await bareSyncLoop(directory, seconds));
        log(`round ${round} bare write + fdatasync: ${format(bare.at(-1) ?? 0)}/s`);
        for (const concurrency of concurrencies) {
          for (const [name, server] of servers) {
            const cell = await measure(server, concurrency, seconds, directory, script, cellIndex++);
            const key = `${name} ${concurrency}`;
            cells.set(key, [...(cells.get(key) ?? []), cell]);
            log(`round ${round} ${key}: ${format(cell.requestsPerSecond)} creates/s, ${cell.errors} errors, syncs/create ${cell.syncsPerCreate?.toFixed(3) ?? '-'}`);
          }
        }
        loadAverages.push(loadavg()[0]?.toFixed(2) ?? '?');
      }
      const prefix = isViaStart ? 'this-' : '';
      out.push(...httpTable(cells, { bare, rounds, seconds, concurrencies, prefix, isViaStart }));
      out.push(...serialLimitTable(cells, bare, prefix, loadAverages));
      if (values.against !== undefined) out.push(...againstTable(cells, bare, rounds, values.against, concurrencies));
    };
    const buildThis = async (): Promise<BuiltServer> => {
      log('Compiling this build (npm run build)…');
      await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
      return { name: 'this', root: ROOT, start: startCommandOf(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'))) };
    };
    if (isHttpPart && values.against === undefined) await measureAll(isViaStart ? [await buildThis()] : []);
    if (isHttpPart && values.against !== undefined) {
      const thisBuild = await buildThis();
      await withRevisionBuild(values.against, { repository: ROOT, log }, (build) => measureAll([thisBuild, { name: 'against', root: build.root, start: build.start }]));
    }
    if (isReopenPart) out.push(...await reopenTable(directory, pets, reopenRuns));
    out.push(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, journal directory ${directory}; load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}.`);
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Per-round ratios of `cells` to `bases` (round by round), as their median. */
function medianRatio(cells: readonly Cell[], bases: readonly number[]): number {
  return median(cells.map((cell, round) => cell.requestsPerSecond / (bases[round] ?? Number.NaN)));
}

/**
 * This build against the revision, both as `npm start` runs them, per concurrency and storage:
 * medians, the median of per-round ratios, and each build's journal against its own memory cell
 * of the same round (the figures issue 31 sets its goals in, for servers run as users run them).
 */
function againstTable(cells: ReadonlyMap<string, readonly Cell[]>, bare: readonly number[], rounds: number, revision: string, concurrencies: readonly number[]): string[] {
  const out = [
    `This build against ${revision}, both started as their \`npm start\` runs them (in memory; on a data file with \`PETSTORE_DATA\` and \`PETSTORE_DURABILITY\`), in the same rounds: creates per second, medians of ${rounds} rounds; each ratio is the median of per-round ratios, and "/ memory" pairs a build's journal with the same build's memory cell of its round.`,
    '',
    '| concurrency | storage | this build | (range) | against | (range) | this / against | this / memory | against / memory | errors |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const rates = (of: readonly Cell[]): number[] => of.map((cell) => cell.requestsPerSecond);
  const range = (of: readonly Cell[]): string => `${format(Math.min(...rates(of)))}–${format(Math.max(...rates(of)))}`;
  for (const concurrency of concurrencies) {
    for (const storageName of STORAGES) {
      const of = (build: BuiltServer['name'], name: StorageName = storageName): readonly Cell[] => cells.get(`${build}-${name} ${concurrency}`) ?? [];
      const [mine, theirs] = [of('this'), of('against')];
      const versusMemory = (build: BuiltServer['name']): string => storageName === 'memory' ? '' : medianRatio(of(build), rates(of(build, 'memory'))).toFixed(2);
      const errors = [...mine, ...theirs].reduce((sum, cell) => sum + cell.errors, 0);
      out.push(`| ${concurrency} | ${storageName === 'memory' ? 'memory' : `\`${storageName}\``} | ${format(median(rates(mine)))} | ${range(mine)} | ${format(median(rates(theirs)))} | ${range(theirs)} | ${medianRatio(mine, rates(theirs)).toFixed(2)}× | ${versusMemory('this')} | ${versusMemory('against')} | ${errors} |`);
    }
  }
  out.push('');
  const fsyncOne = (build: BuiltServer['name']): string => medianRatio(cells.get(`${build}-fsync 1`) ?? [], bare).toFixed(2);
  out.push(`One client in \`fsync\` mode against the bare \`write\` + \`fdatasync\` loop of its round (per round): this build ${fsyncOne('this')}, against ${fsyncOne('against')}.`);
  out.push('');
  return out;
}

/** What httpTable shows: the rounds' bare loops, the concurrencies, and which servers' cells (`this-` for this build as `npm start` runs it, '' for the script's). */
interface HttpTableOptions {
  bare: readonly number[];
  rounds: number;
  seconds: number;
  concurrencies: readonly number[];
  prefix: string;
  isViaStart: boolean;
}

function httpTable(cells: ReadonlyMap<string, readonly Cell[]>, options: HttpTableOptions): string[] {
  const { bare, rounds, seconds, concurrencies, prefix, isViaStart } = options;
  const out: string[] = [];
  const started = isViaStart
    ? 'each server started as its `npm start` runs it (`PETSTORE_DATA` and `PETSTORE_DURABILITY` for the journal), so the journal\'s counters are not shown (`--via script` shows them)'
    : 'each storage served by this script through tsx (`--via script`)';
  out.push(`Creates per second over HTTP (POST /v1/pets, keep-alive, wrk -t1 -cN), median of ${rounds} rounds of ${seconds} s after ${WARMUP_SECONDS} s warm-up; server on core 0, wrk on core 1; ${started}. Ratios are medians of per-round ratios (each cell against the memory cell of its own round).`);
  out.push('');
  out.push('| concurrency | memory | file, fsync | fsync / memory | syncs per create (fsync) | records per batch (fsync) | file, write | write / memory | errors |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const concurrency of concurrencies) {
    const of = (name: StorageName): readonly Cell[] => cells.get(`${prefix}${name} ${concurrency}`) ?? [];
    const rates = (name: StorageName): number[] => of(name).map((cell) => cell.requestsPerSecond);
    // Ratios pair each cell with the memory cell of its own round, measured seconds apart.
    const ratio = (name: StorageName): number => medianRatio(of(name), rates('memory'));
    const counter = (value: (cell: Cell) => number | undefined, decimals: number): string => isViaStart ? '-' : median(of('fsync').map((cell) => value(cell) ?? 0)).toFixed(decimals);
    const errors = STORAGES.flatMap(of).reduce((sum, cell) => sum + cell.errors, 0);
    out.push(`| ${concurrency} | ${format(median(rates('memory')))} | ${format(median(rates('fsync')))} | ${ratio('fsync').toFixed(2)} | ${counter((cell) => cell.syncsPerCreate, 3)} | ${counter((cell) => cell.recordsPerBatch, 1)} | ${format(median(rates('write')))} | ${ratio('write').toFixed(2)} | ${errors} |`);
  }
  out.push('');
  out.push(`The disk's own limit for one client, a bare loop of one record's \`write\` + \`fdatasync\` (FileHandle calls, as the journal's writer makes) in the same directory, in its own process on core 0, for ${seconds} s in each round: median ${format(median(bare))}/s.`);
  out.push('');
  return out;
}

/**
 * Issue 41 item 5's figures for one client, round by round: the serial limit `1 / (1/memory + 1/disk)`
 * (one memory round trip, then one bare sync: what a client waiting for each create can get at best),
 * `fsync` against it and `write` against memory, and the medians of the per-round ratios.
 */
function serialLimitTable(cells: ReadonlyMap<string, readonly Cell[]>, bare: readonly number[], prefix: string, loadAverages: readonly string[]): string[] {
  const of = (name: StorageName): readonly Cell[] => cells.get(`${prefix}${name} 1`) ?? [];
  const [memory, fsync, write] = [of('memory'), of('fsync'), of('write')];
  if (memory.length === 0) return [];
  const limits = memory.map((cell, round) => 1 / (1 / cell.requestsPerSecond + 1 / (bare[round] ?? Number.NaN)));
  const out = [
    'One client (`wrk -c1`), round by round: the serial limit is one memory round trip plus one bare sync of the same round, `1 / (1/memory + 1/disk)`; goals (issue 41 item 5): `fsync` at least 0.8 of the limit, `write` at least 0.8 of memory.',
    '',
    '| round | memory | bare sync | serial limit | fsync | fsync / limit | write | write / memory | load average (1 min) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  memory.forEach((cell, round) => {
    const [limit, fsyncRate, writeRate] = [limits[round] ?? Number.NaN, fsync[round]?.requestsPerSecond ?? Number.NaN, write[round]?.requestsPerSecond ?? Number.NaN];
    out.push(`| ${round + 1} | ${format(cell.requestsPerSecond)} | ${format(bare[round] ?? Number.NaN)} | ${format(limit)} | ${format(fsyncRate)} | ${(fsyncRate / limit).toFixed(2)} | ${format(writeRate)} | ${(writeRate / cell.requestsPerSecond).toFixed(2)} | ${loadAverages[round] ?? '?'} |`);
  });
  out.push(`| median | ${format(median(memory.map((cell) => cell.requestsPerSecond)))} | ${format(median(bare))} | ${format(median(limits))} | ${format(median(fsync.map((cell) => cell.requestsPerSecond)))} | **${medianRatio(fsync, limits).toFixed(2)}** | ${format(median(write.map((cell) => cell.requestsPerSecond)))} | **${medianRatio(write, memory.map((cell) => cell.requestsPerSecond)).toFixed(2)}** | |`);
  out.push('');
  return out;
}

async function reopenTable(directory: string, pets: number, runs: number): Promise<string[]> {
  const journal = join(directory, 'million.journal');
  process.stderr.write(`building a journal of ${format(pets)} pets\n`);
  const buildMilliseconds = await buildJournal(journal, pets);
  const reopens: { milliseconds: number; heap: number }[] = [];
  for (let attempt = 0; attempt < runs; attempt++) {
    const command = [...(await pinnedTo(0)), process.execPath, '--import', 'tsx', SCRIPT, '--reopen', journal];
    const { stdout } = await run(command[0] as string, command.slice(1), { maxBuffer: 1 << 20 });
    reopens.push(JSON.parse(stdout.slice(stdout.indexOf('reopened ') + 9)) as { milliseconds: number; heap: number });
  }
  const journalBytes = (await stat(journal)).size;
  const out: string[] = [];
  out.push(`Reopen of a journal of ${format(pets)} pets (${format(journalBytes / 1e6, 1)} MB, page cache warm), in a fresh process on core 0:`);
  out.push('');
  out.push('| run | reopen time | heap after reopen |');
  out.push('|---:|---:|---:|');
  for (const [index, reopened] of reopens.entries()) out.push(`| ${index + 1} | ${format(reopened.milliseconds)} ms | ${format(reopened.heap / 1e6)} MB |`);
  out.push(`| median | ${format(median(reopens.map((reopened) => reopened.milliseconds)))} ms | |`);
  out.push('');
  out.push(`Building that journal through the storage (write mode, 1,000 inserts in flight, in-process) took ${format(buildMilliseconds / 1000, 1)} s.`);
  out.push('');
  return out;
}

await main();
