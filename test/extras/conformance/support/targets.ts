import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createBaselineServer } from '../../../../bench/servers/baseline.js';
import { createFastifyServer } from '../../../../bench/servers/fastify.js';
import { BENCH_KEY } from '../../../../bench/servers/fixture.js';
import { createFetchHandler } from '../../../../server/fetch/index.js';
import { createPetstore } from '../../../../lib/index.js';
import type { Petstore } from '../../../../lib/index.js';
import { startServer } from '../../../../server/node/index.js';
import { docsSite } from '../../../../extras/docs-site/index.js';
import { serveFetch } from './serve-fetch.js';
import type { FetchHandler } from './serve-fetch.js';
import { toolBin } from '../../../tools/paths.js';

/** Root of the repository. */
export const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

/**
 * The key the project's own servers accept in these tests: random past a short prefix, as a key should
 * be, since the checks' idempotency keys begin `conformance-` and a server refuses a key sharing 12 characters with an API key.
 */
export const KIT_KEY = 'kit-7d41c2b09e5f8a3c';

/** An implementation of the interface, listening, for the kit to run against. */
export interface Target {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

/** The project's server through the node:http adapter (startServer on port 0). */
export async function startNodeAdapter(store: Petstore = createPetstore()): Promise<Target> {
  const running = await startServer({ store, apiKeys: [KIT_KEY], port: 0, logError: () => undefined, plugins: [docsSite()] });
  const close = (): Promise<void> => {
    // The kit's keep-alive connections are idle by now; without this, shutdown gives them its 1 s grace.
    running.server.closeIdleConnections();
    return running.close();
  };
  return { baseUrl: running.url, apiKey: KIT_KEY, close };
}

/** A fetch handler, broken or not, on a real socket through the test bridge. */
export async function startFetchTarget(wrap: (handler: FetchHandler) => FetchHandler = (handler) => handler, store: Petstore = createPetstore()): Promise<Target> {
  const served = await serveFetch(wrap(createFetchHandler({ store, apiKeys: [KIT_KEY], logError: () => undefined, plugins: [docsSite()] })));
  return { baseUrl: `${served.origin}/v1`, apiKey: KIT_KEY, close: () => served.close() };
}

/** The hand-written node:http server of the benchmarks. */
export async function startBaseline(): Promise<Target> {
  const server = createBaselineServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: BENCH_KEY,
    close: () => new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}

/** The fastify server of the benchmarks. */
export async function startFastify(): Promise<Target> {
  const app = createFastifyServer();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: BENCH_KEY, close: () => app.close() };
}

/** The prism binary of the devDependency, if installed. */
export const PRISM = toolBin('prism');

/** Whether prism is installed. */
export function hasPrism(): boolean {
  return existsSync(PRISM);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

/** Time prism gets to start listening. */
const PRISM_START_TIMEOUT = 60_000;

/**
 * `prism mock` of this project's openapi.json on 127.0.0.1 (static examples, no network). Prism
 * serves the document's paths at its root, as the document's server URL (`/v1`) is relative.
 */
export async function startPrism(apiKey = KIT_KEY): Promise<Target> {
  const port = await freePort();
  const { NODE_V8_COVERAGE: _coverage, ...env } = process.env;
  const child = spawn(PRISM, ['mock', '-p', String(port), '-h', '127.0.0.1', join(ROOT, 'openapi.json')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await new Promise<void>((listening, failed) => {
      const timer = setTimeout(() => failed(new Error(`prism did not start within ${PRISM_START_TIMEOUT} ms: ${output}`)), PRISM_START_TIMEOUT);
      const read = (data: Buffer): void => {
        output += data.toString('utf8');
        if (output.includes('Prism is listening')) {
          clearTimeout(timer);
          listening();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then(() => failed(new Error(`prism exited before listening: ${output}`)));
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, apiKey, close };
}

/** A store holding `count` pets of every status, as a live store would hold pets the kit did not create. */
export async function storeWithPets(count: number): Promise<Petstore> {
  const store = createPetstore();
  const statuses = ['available', 'pending', 'sold', undefined] as const;
  for (let index = 0; index < count; index++) {
    const status = statuses[index % statuses.length];
    await store.createPet(status === undefined ? { name: `resident-${index}`, categoryId: index } : { name: `resident-${index}`, categoryId: index, status });
  }
  return store;
}
