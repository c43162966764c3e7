import { readFile, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after } from 'node:test';
import { spawnServer, ROOT } from '../../support/process.js';
import { TOOLS_ROOT } from '../../tools/paths.js';
import { buildPackage } from '../../support/runtimes.js';
import type { ServerProcess } from '../../support/process.js';

/** The key every server of a test fleet accepts. */
export const FLEET_KEY = 'fleet-key-0123456789';

const AUTH = { authorization: `Bearer ${FLEET_KEY}` };

/** The ports the docs' examples use: the balancer's, then one for each server. */
export const DOC_PORTS = { balancer: 8080, servers: [8081, 8082, 8083] } as const;

/**
 * The first fenced block of `language` after the heading `heading` in a document of docs/, its text
 * as written. The fleet's tests run what the docs say, so a change to the docs changes what is tested.
 */
export async function docBlock(document: string, heading: string, language: string): Promise<string> {
  const markdown = await readFile(join(ROOT, 'docs', document), 'utf8');
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/${document} has no heading ${JSON.stringify(heading)}`);
  const fence = `\n\`\`\`${language}\n`;
  const open = markdown.indexOf(fence, start);
  const close = markdown.indexOf('\n```\n', open + fence.length - 1);
  const next = markdown.slice(start + heading.length + 2).search(/\n#{1,3} /);
  const end = next === -1 ? -1 : start + heading.length + 2 + next;
  if (open === -1 || close === -1 || (end !== -1 && open > end)) throw new Error(`docs/${document}, ${heading}, has no \`\`\`${language} block`);
  return markdown.slice(open + fence.length, close + 1);
}

/** `text` with each of the docs' ports (`8080`, `8081`…) replaced by the port a test got. */
export function withPorts(text: string, balancer: number, servers: readonly number[]): string {
  const ports = new Map<string, number>([[String(DOC_PORTS.balancer), balancer], ...DOC_PORTS.servers.map((port, index): [string, number] => [String(port), servers[index] ?? port])]);
  return text.replace(/\b808[0-3]\b/g, (port) => String(ports.get(port) ?? port));
}

/**
 * The arguments of the server command a docs block gives (`node dist/extras/cli/main.js serve …`),
 * from `serve` on, for the server on `docPort`. Continuation lines are joined; variables before
 * `node` are left out (the tests set their own database URL and key).
 */
export function serverArguments(block: string, docPort: number): string[] {
  const line = block.replace(/\\\n\s*/g, ' ').split('\n').find((candidate) => candidate.includes(`--port ${docPort}`));
  const match = line === undefined ? null : /\bnode \S*main\.js (serve .*)$/.exec(line.replace(/\s+#.*$/, ''));
  if (match?.[1] === undefined) throw new Error(`no \`node …main.js serve --port ${docPort}\` command in:\n${block}`);
  return match[1].trim().split(/\s+/);
}

/** `count` ports that were free on 127.0.0.1 a moment ago. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject).listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((server) => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
  return ports;
}

/**
 * Starts one server process with `args` (its `--port` among them) over the database at `databaseUrl`,
 * and resolves once it listens: `node <compiledMain> serve …`, as the docs run it, and as fast to start
 * as in production, so restarts follow each other as closely as an operator's script makes them.
 */
export async function startFleetServer(databaseUrl: string, args: readonly string[], compiledMain: string): Promise<ServerProcess> {
  const server = spawnServer({ PETSTORE_API_KEYS: FLEET_KEY, PETSTORE_DATABASE_URL: databaseUrl }, args, { compiledMain });
  await server.ready;
  return server;
}

/** The package compiled into a temporary directory (deleted after the file's tests), with the test tools' `pg` beside it; resolves to its `extras/cli/main.js`. */
export async function compiledMain(): Promise<string> {
  const build = await buildPackage();
  after(() => build.remove());
  // The compiled server loads `pg` on demand, from the test tools' node_modules.
  await symlink(join(TOOLS_ROOT, 'node_modules'), join(build.directory, 'node_modules'));
  return join(build.dist, 'extras', 'cli', 'main.js');
}

/** Resolves once `origin` answers `/readyz` with 200; rejects after `giveUpMs` (a guard against a hanging test). */
export async function waitUntilReady(origin: string, giveUpMs = 30_000): Promise<void> {
  const deadline = Date.now() + giveUpMs;
  while (Date.now() < deadline) {
    const status = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(3_000) }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    }, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${origin}/readyz did not answer 200 within ${giveUpMs} ms`);
}

/** What a load loop saw: answers by status, requests that got no answer, and the ids of acknowledged creates. */
export interface LoadTally {
  statuses: Map<number, number>;
  failures: string[];
  created: number[];
  /** Answers that were not 2xx, with their body's start, for the test's message. */
  refusals: string[];
}

/** Answers counted so far by a load tally, 2xx or not. */
export function answered(tally: LoadTally): number {
  return [...tally.statuses.values()].reduce((sum, count) => sum + count, 0);
}

/** A load loop under way: its tally so far, and the promise of the whole tally once every lane has stopped. */
export interface Load {
  tally: LoadTally;
  finished: Promise<LoadTally>;
}

/**
 * Sends creates and lists through `origin` on `lanes` connections until `isDone()` or `most` requests
 * (a bound, so the loop ends even if nothing else does), counting what comes back. Each request has
 * 15 s to be answered.
 */
export function runLoad(origin: string, options: { lanes: number; most: number; isDone: () => boolean }): Load {
  const tally: LoadTally = { statuses: new Map(), failures: [], created: [], refusals: [] };
  let sent = 0;
  const lane = async (index: number): Promise<void> => {
    while (!options.isDone() && sent < options.most) {
      const isCreate = (sent++ + index) % 2 === 0;
      const init: RequestInit = isCreate
        ? { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: `fleet ${sent}`, categoryId: index, status: 'available' }) }
        : { headers: AUTH };
      try {
        const response = await fetch(`${origin}/v1/pets${isCreate ? '' : '?limit=20'}`, { ...init, signal: AbortSignal.timeout(15_000) });
        const text = await response.text();
        tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
        if (response.status < 200 || response.status > 299) tally.refusals.push(`${init.method ?? 'GET'} ${response.status} ${text.slice(0, 120)}`);
        else if (isCreate) tally.created.push(idOf(text));
      } catch (error) {
        tally.failures.push(`${init.method ?? 'GET'}: ${error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error)}`);
      }
    }
  };
  const finished = Promise.all(Array.from({ length: options.lanes }, (_, index) => lane(index))).then(() => tally);
  return { tally, finished };
}

function idOf(text: string): number {
  const pet: unknown = JSON.parse(text);
  if (typeof pet !== 'object' || pet === null || !('id' in pet) || typeof pet.id !== 'number') throw new Error(`a 201 without a pet: ${text}`);
  return pet.id;
}

/** Every id the store lists through `origin`, page by page with the `after` cursor. */
export async function listedIds(origin: string): Promise<Set<number>> {
  const ids = new Set<number>();
  let after = 0;
  for (;;) {
    const response = await fetch(`${origin}/v1/pets?limit=100&after=${after}`, { headers: AUTH });
    const page: unknown = await response.json();
    if (response.status !== 200 || !Array.isArray(page)) throw new Error(`listing through ${origin} answered ${response.status}`);
    if (page.length === 0) return ids;
    for (const pet of page) {
      if (typeof pet === 'object' && pet !== null && 'id' in pet && typeof pet.id === 'number') {
        ids.add(pet.id);
        after = pet.id;
      }
    }
  }
}

/** What a rolling restart under load saw. */
export interface RollingRestart {
  tally: LoadTally;
  /** How each old process ended: 0 after a clean shutdown. */
  exits: (number | string)[];
  /** Answers counted while each server was being restarted (from its SIGTERM until its successor was ready). */
  answeredDuring: number[];
  /** How long each restart took, from SIGTERM until the successor was ready (ms): reported, never asserted. */
  restartMs: number[];
}

/** Options of rollingRestart. */
export interface RollingRestartOptions {
  /** The balancer's origin, where the load goes. */
  origin: string;
  /** The running servers, replaced in place by their successors. */
  servers: ServerProcess[];
  /** Starts the successor of server `index`, with the same command. */
  start(index: number): Promise<ServerProcess>;
  /** Waits, after a successor is ready, until the balancer sends to it again (the docs' procedure says how long). */
  settle(): Promise<void>;
}

/** Resolves once `tally` has `count` more answers or failures than it had (bounded by `giveUpMs`, a guard against a hanging test). */
async function waitForMore(tally: LoadTally, count: number, giveUpMs = 30_000): Promise<void> {
  const target = answered(tally) + tally.failures.length + count;
  const deadline = Date.now() + giveUpMs;
  while (answered(tally) + tally.failures.length < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Sends creates and lists through the balancer on 8 connections and, once answers flow, restarts
 * every server one after another as the docs' procedure does: SIGTERM, wait for the exit, start it
 * again with the same command, wait until it is ready and the balancer uses it, then the next.
 * The load runs on for 200 answers after the last restart, and is bounded in requests.
 */
export async function rollingRestart(options: RollingRestartOptions): Promise<RollingRestart> {
  let isDone = false;
  const load = runLoad(options.origin, { lanes: 8, most: 100_000, isDone: () => isDone });
  const exits: (number | string)[] = [];
  const answeredDuring: number[] = [];
  const restartMs: number[] = [];
  try {
    await waitForMore(load.tally, 200);
    for (const [index, server] of options.servers.entries()) {
      const before = answered(load.tally);
      const began = performance.now();
      server.child.kill('SIGTERM');
      exits.push(await server.exited);
      const successor = await options.start(index);
      options.servers[index] = successor;
      await waitUntilReady(successor.origin);
      answeredDuring.push(answered(load.tally) - before);
      restartMs.push(Math.round(performance.now() - began));
      await options.settle();
    }
    await waitForMore(load.tally, 200);
  } finally {
    isDone = true;
  }
  return { tally: await load.finished, exits, answeredDuring, restartMs };
}
