import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { PetstoreClient } from '../../extras/client/index.js';
import type { Pet } from '../../lib/index.js';
import { acknowledgedAtLeast, assertExactlyOnce, createPetsInLanes } from '../support/lanes-of-creates.js';
import type { LanesOfCreates } from '../support/lanes-of-creates.js';
import { startTestPostgres } from '../support/postgres.js';
import { jsonLines, spawnServer } from '../support/process.js';
import type { ServerProcess } from '../support/process.js';
import { buildPackage } from '../support/runtimes.js';
import { startCuttingProxy } from './cutting-proxy.js';
import type { CuttingProxy } from './cutting-proxy.js';
import { TOOLS_ROOT } from '../tools/paths.js';

const API_KEY = 'exactly-once-key';
/** A quarter of the answers lost, as in the trial that showed 127 of 480 creates failing and 140 duplicates. */
const CUT_SHARE = 0.25;
/** Concurrent callers, each creating its pets one after the other. */
const LANES = 6;
const CREATES_PER_LANE = 15;

/** LANES callers over `clients`, each creating CREATES_PER_LANE pets named after `label`. */
function createPets(clients: readonly PetstoreClient[], label: string): LanesOfCreates {
  return createPetsInLanes(clients, { lanes: LANES, createsPerLane: CREATES_PER_LANE, input: (lane, index) => ({ name: `${label} lane ${lane} pet ${index}`, categoryId: lane, status: 'available' }) });
}

/** Every pet the server holds, read straight from it (no proxy). */
async function listEveryPet(server: ServerProcess): Promise<Pet[]> {
  const pets: Pet[] = [];
  for await (const pet of new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY }).pets()) pets.push(pet);
  return pets;
}

// Every await before the first describe: the file's after hooks then run once all its tests are done.
// A commit acknowledged only once its write-ahead log is written, as in production: the throwaway
// default (off) would let the crash below lose pets whose 201 was sent, which no key can bring back.
const postgres = await startTestPostgres({ settings: { synchronous_commit: 'on' } });
const build = await buildPackage();
after(() => build.remove());
// The compiled server loads `pg` on demand, from the test tools' node_modules.
await symlink(join(TOOLS_ROOT, 'node_modules'), join(build.directory, 'node_modules'));

const servers: ServerProcess[] = [];
const proxies: CuttingProxy[] = [];
after(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all([...servers.map((server) => server.exited), ...proxies.map((proxy) => proxy.close())]);
});

/** The compiled CLI with `env`, on loopback; resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = spawnServer({ PETSTORE_API_KEYS: API_KEY, HOST: '127.0.0.1', ...env }, [], { compiledMain: join(build.dist, 'extras', 'cli', 'main.js') });
  servers.push(server);
  await server.ready;
  return server;
}

async function startProxy(server: ServerProcess, seed: number): Promise<CuttingProxy> {
  const port = Number(new URL(server.origin).port);
  const proxy = await startCuttingProxy({ targetPort: () => port, cutShare: CUT_SHARE, seed });
  proxies.push(proxy);
  return proxy;
}

function clientThrough(proxy: CuttingProxy): PetstoreClient {
  return new PetstoreClient({ baseUrl: `${proxy.origin}/v1`, apiKey: API_KEY });
}

describe('exactly-once creates under faults, on the journal', () => {
  test('PetstoreClient with default options creates every pet exactly once through a proxy that cuts a quarter of the answers, while the server on its journal is killed with SIGKILL and restarted twice', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-exactly-once-'));
    try {
      const dataFile = join(directory, 'pets.journal');
      let server = await startServer({ PETSTORE_DATA: dataFile });
      const port = new URL(server.origin).port;
      const proxy = await startProxy(server, 20);
      const creates = createPets([clientThrough(proxy)], 'journal');
      for (const least of [30, 60]) {
        await acknowledgedAtLeast(creates, least);
        server.child.kill('SIGKILL');
        assert.equal(await server.exited, 'SIGKILL');
        // The same port, so the proxy reaches the new process as it did the old one.
        server = await startServer({ PETSTORE_DATA: dataFile, PORT: port });
      }
      await creates.done;
      assertExactlyOnce(creates, await listEveryPet(server));
      assert.ok(proxy.cuts() > 0, 'the proxy cut answers');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('exactly-once creates under faults, on PostgreSQL', { skip: postgres.skip }, () => {
  test('PetstoreClient with default options creates every pet exactly once through two server processes on one PostgreSQL, behind proxies that cut a quarter of the answers, while the database restarts', async () => {
    const cluster = postgres.cluster;
    assert.ok(cluster !== undefined);
    const first = await startServer({ PETSTORE_DATABASE_URL: cluster.url });
    const second = await startServer({ PETSTORE_DATABASE_URL: cluster.url });
    const firstProxy = await startProxy(first, 21);
    const secondProxy = await startProxy(second, 22);
    const creates = createPets([clientThrough(firstProxy), clientThrough(secondProxy)], 'postgres');
    await acknowledgedAtLeast(creates, 20);
    await cluster.restart();
    await creates.done;
    const listed = await listEveryPet(first);
    assertExactlyOnce(creates, listed);
    assert.deepEqual(await listEveryPet(second), listed, 'both servers see the same pets');
    assert.ok(firstProxy.cuts() > 0 && secondProxy.cuts() > 0, 'both proxies cut answers');
    const outages = [first, second].flatMap((server) => jsonLines(server.stderr())).filter((event) => event['msg'] === 'The storage failed; answered 503 unavailable');
    assert.ok(outages.length > 0, 'the restart was felt: creates were answered 503 while the database was down');
  });
});
