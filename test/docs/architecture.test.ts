import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createPetstore } from '../../lib/index.js';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler, startServer } from '../../server/node/index.js';
import type { RunningServer } from '../../server/node/index.js';
import { API_KEY } from '../support/http.js';
import { sourceOf } from './citations.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const MOST_FILES_PER_WALK = 15;

/** All the standalone server adds to the mounted door's walk: one folder, which a reader may leave for later. */
const STANDALONE_FOLDER = 'server/node/standalone/';

/** A walk of docs/architecture.md: its files in order, and the names each step gives after its file. */
interface Walk {
  walk: string[];
  named: Map<string, string[]>;
}

/** The walks of docs/architecture.md: under each `### ` heading naming an operation, the files of its numbered list. */
async function walksOfDocument(): Promise<Map<string, Walk>> {
  const text = await readFile(resolve(ROOT, 'docs', 'architecture.md'), 'utf8');
  const walks = new Map<string, Walk>();
  for (const section of text.split(/^### /m).slice(1)) {
    const operation = /^`(\w+)`/.exec(section)?.[1];
    if (operation === undefined) continue;
    const steps = [...section.matchAll(/^\d+\. `([^`]+\.ts)`(.*)$/gm)];
    const walk = steps.map((match) => match[1] ?? '');
    const named = new Map(steps.map((match): [string, string[]] => [match[1] ?? '', [...(match[2] ?? '').matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((name) => name[1] ?? '')]));
    walks.set(operation, { walk, named });
  }
  return walks;
}

/** Sends one request to the server at `origin` and reads its answer. */
function send(origin: string, method: string, path: string, body?: string): Promise<number> {
  return new Promise((done, fail) => {
    const headers: Record<string, string> = { authorization: `Bearer ${API_KEY}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const outgoing = httpRequest(`${origin}${path}`, { method, headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
    });
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

/** What ran of the kernel while an exchange did: each file, with the names of its functions that ran. */
interface KernelRun {
  files: string[];
  ran: Map<string, Set<string>>;
}

/** Whether a source declares a function or a method of this name. */
function isFunctionOf(source: string, name: string): boolean {
  return new RegExp(`function ${name}\\(|^\\s+(?:async )?${name}\\(`, 'm').test(source);
}

/** The kernel files whose code ran while `exchange` did: V8's precise call counts, taken (and so reset) before and after it. */
async function filesRunBy(session: Session, exchange: () => Promise<unknown>): Promise<KernelRun> {
  await session.post('Profiler.takePreciseCoverage');
  await exchange();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const run: KernelRun = { files: [], ran: new Map() };
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const file = relative(ROOT, fileURLToPath(script.url));
    if (!/^(lib|server)\//.test(file)) continue;
    // A module's own code ran at its first import, before the counts were reset; a function that ran since counts above zero.
    const called = script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0).map((fn) => fn.functionName);
    run.ran.set(file, new Set(called));
    if (called.length > 0) run.files.push(file);
  }
  run.files.sort();
  return run;
}

describe('docs/architecture.md', () => {
  const session = new Session();
  let server: RunningServer;
  let host: Server;
  const origins = { mounted: '', standalone: '' };
  before(async () => {
    session.connect();
    await session.post('Profiler.enable');
    // Counted from before the first request: what is compiled before counting starts may go uncounted.
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    server = await startServer({ store: createPetstore(), apiKeys: [API_KEY], port: 0 });
    origins.standalone = new URL(server.url).origin;
    const handler = createHandler({ store: createPetstore(), apiKeys: [API_KEY] });
    host = createServer((request, response) => handler(request, response));
    await new Promise<void>((listening) => host.listen(0, '127.0.0.1', listening));
    origins.mounted = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    // Every path runs twice first on each door, so what is measured is a request, not a module's first load or a function's first call.
    for (const origin of [origins.mounted, origins.standalone, origins.mounted, origins.standalone]) {
      await send(origin, 'POST', '/v1/pets', '{"name":"Rex","categoryId":1}');
      await send(origin, 'GET', '/v1/pets?limit=2');
      await send(origin, 'GET', '/v1/pets/1');
    }
  });
  after(async () => {
    await server.close();
    host.closeAllConnections();
    await new Promise((closed) => host.close(closed));
    // Not stopped: under c8, V8 keeps collecting this process's coverage for its report at exit.
    session.disconnect();
  });

  const exchanges: Record<string, (origin: string) => Promise<number>> = {
    createPet: (origin) => send(origin, 'POST', '/v1/pets', '{"name":"Tom","categoryId":2}'),
    listPets: (origin) => send(origin, 'GET', '/v1/pets?limit=2'),
    getPet: (origin) => send(origin, 'GET', '/v1/pets/1'),
  };
  for (const [operation, exchange] of Object.entries(exchanges)) {
    test(`docs/architecture.md walks ${operation} through at most ${MOST_FILES_PER_WALK} files, exactly those a ${operation} runs on the mounted door, and names only engine functions it runs`, async () => {
      const documented = (await walksOfDocument()).get(operation);
      assert.ok(documented !== undefined, `a ### \`${operation}\` section with a numbered list of files`);
      assert.ok(documented.walk.length > 0 && documented.walk.length <= MOST_FILES_PER_WALK, documented.walk.join(', '));
      const run = await filesRunBy(session, () => exchange(origins.mounted));
      // The standalone server beside it in this process may run its own connection care meanwhile (on Node 26, a keep-alive socket's close): its folder is its own, never the mounted door's.
      const files = run.files.filter((file) => !file.startsWith(STANDALONE_FOLDER));
      assert.deepEqual([...documented.walk].sort(), files, 'the walk is the kernel files a request runs on createHandler');
      // A function or method of the engine that a step names after its file is one the request ran, not a sibling of it.
      const idle = [...documented.named].filter(([file]) => file.startsWith('lib/')).flatMap(([file, names]) => names
        .filter((name) => isFunctionOf(sourceOf(file) ?? '', name) && run.ran.get(file)?.has(name) !== true)
        .map((name) => `${file}: ${name}`));
      assert.deepEqual(idle, [], 'functions the walk names that the request did not run');
    });

    test(`on the standalone server, a ${operation} runs the walk's files and only files of ${STANDALONE_FOLDER} beside them`, async () => {
      const documented = (await walksOfDocument()).get(operation);
      assert.ok(documented !== undefined);
      assert.ok((await readFile(resolve(ROOT, 'docs', 'architecture.md'), 'utf8')).includes(`\`${STANDALONE_FOLDER}\``), `docs/architecture.md names ${STANDALONE_FOLDER}`);
      const ran = (await filesRunBy(session, () => exchange(origins.standalone))).files;
      assert.deepEqual(ran.filter((file) => !documented.walk.includes(file) && !file.startsWith(STANDALONE_FOLDER)), [], 'files the standalone server ran outside the walk and its folder');
      assert.deepEqual(documented.walk.filter((file) => !ran.includes(file)), [], 'files of the walk the standalone server did not run');
      assert.ok(ran.some((file) => file.startsWith(STANDALONE_FOLDER)), `the standalone server runs ${STANDALONE_FOLDER}`);
    });
  }
});
