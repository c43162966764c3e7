import { bodyOf, createRequestCore, NO_BODY } from '../server/core/index.js';
import type { CoreRequest, RequestCoreOptions } from '../server/core/index.js';
import { createMemoryStorage, createPetstore } from '../lib/index.js';
import type { NewPet, Petstore } from '../lib/index.js';
import { inject } from '../server/testing/index.js';
import { heapPerPet, median, tenCharacterPet } from './support.js';

/** One in-process measurement. */
export interface InProcessResult {
  operation: string;
  pets: number;
  nsPerOp: number;
  opsPerSecond: number;
}

/**
 * One request through the request core without a socket, at 1,000 pets: median ns per request
 * through `inject` (testing/, which copies the headers in and out and decodes the body), and through
 * `core.handle` as the node:http adapter calls it (Node's header object, `Host`, HTTP/1.1).
 */
export interface RequestCoreResult {
  request: string;
  injectNsPerOp: number;
  handleNsPerOp: number;
}

/** What this script prints: the engine's figures, its heap per pet at 1M pets, the request core's figures. */
export interface InProcessOutput { results: InProcessResult[]; bytesPerPet: number; requestCore: RequestCoreResult[] }

const SIZES = [1_000, 100_000, 1_000_000];
const STATUSES = ['available', 'pending', 'sold'] as const;

/** The key of the in-process request core. */
const CORE_KEY = 'in-process-bench-key';

/** The requests of the HTTP scenarios that do work, measured through the request core alone. */
const CORE_REQUESTS: readonly { request: string; method: string; target: string; status: number; iterations: number; body?: string }[] = [
  { request: 'GET /v1/pets/42', method: 'GET', target: '/v1/pets/42', status: 200, iterations: 100_000 },
  { request: 'GET /v1/pets?limit=20', method: 'GET', target: '/v1/pets?limit=20', status: 200, iterations: 50_000 },
  { request: 'POST /v1/pets', method: 'POST', target: '/v1/pets', status: 201, iterations: 20_000, body: '{"name":"bench-pet","categoryId":7,"status":"available"}' },
];

async function filled(count: number): Promise<Petstore> {
  const store = createPetstore();
  for (let index = 0; index < count; index++) await store.createPet(tenCharacterPet(index));
  return store;
}

/** Median ns per operation over five batches of `iterations` calls, after one that warms the JIT up. */
async function measure(iterations: number, operation: (index: number) => Promise<unknown>): Promise<number> {
  const batches: number[] = [];
  for (let batch = 0; batch < 6; batch++) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < iterations; index++) await operation(index);
    if (batch > 0) batches.push(Number(process.hrtime.bigint() - started) / iterations);
  }
  return median(batches);
}

/**
 * The request core measured in-process, for the requests of the HTTP scenarios: the HTTP layer's own
 * cost (routing, auth, validation, JSON, headers) apart from Node's socket work. Each request runs on
 * a fresh store of 1,000 pets, as the HTTP servers start with; its status is checked first.
 */
async function requestCoreResults(): Promise<RequestCoreResult[]> {
  const results: RequestCoreResult[] = [];
  for (const { request, method, target, status, iterations, body } of CORE_REQUESTS) {
    const options: RequestCoreOptions = { store: await filled(1_000), apiKeys: [CORE_KEY], logError: (error) => void process.stderr.write(`${String(error)}\n`) };
    const headers: Record<string, string> = { authorization: `Bearer ${CORE_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const injected = { method, url: target, headers, ...(body === undefined ? {} : { body }) };
    const first = await inject(options, injected);
    if (first.status !== status) throw new Error(`${request} through inject answered ${first.status} ${first.body}`);
    const injectNsPerOp = await measure(iterations, () => inject(options, injected));
    const core = createRequestCore(options);
    const bytes = body === undefined ? undefined : new TextEncoder().encode(body);
    const nodeHeaders: Record<string, string> = { host: '127.0.0.1', ...headers, ...(bytes === undefined ? {} : { 'content-length': String(bytes.length) }) };
    const coreRequest = (): CoreRequest => ({ method, target, headers: nodeHeaders, body: bytes === undefined ? NO_BODY : bodyOf(bytes), httpVersion: '1.1' });
    const answer = await core.handle(coreRequest());
    if (answer.status !== status) throw new Error(`${request} through core.handle answered ${answer.status}`);
    results.push({ request, injectNsPerOp, handleNsPerOp: await measure(iterations, () => Promise.resolve(core.handle(coreRequest()))) });
  }
  return results;
}

async function main(): Promise<void> {
  // Measured first, on a clean heap: stores built later would still be reachable from this frame.
  const bytesPerPet = (await heapPerPet(async () => createMemoryStorage(), 1_000_000, false)).heap;
  const requestCore = await requestCoreResults();
  const results: InProcessResult[] = [];
  const record = async (operation: string, pets: number, iterations: number, call: (index: number) => Promise<unknown>): Promise<void> => {
    const nsPerOp = await measure(iterations, call);
    results.push({ operation, pets, nsPerOp, opsPerSecond: 1e9 / nsPerOp });
  };
  const newPet = (index: number): NewPet => ({ name: `new-${index}`, categoryId: 1, status: 'pending' });
  for (const size of SIZES) {
    const store = await filled(size);
    await record('getPet(id)', size, 200_000, (index) => store.getPet(1 + ((index * 7919) % size)));
    await record('listPets({ limit: 20 })', size, 100_000, () => store.listPets({ limit: 20 }));
    await record('listPets({ limit: 100, status })', size, 20_000, (index) => store.listPets({ limit: 100, status: STATUSES[index % 3] as (typeof STATUSES)[number] }));
    await record('listPets({ limit: 100, status, after })', size, 20_000, (index) => store.listPets({ limit: 100, status: 'sold', after: (index * 7919) % size }));
    await record('createPet(input)', size, 50_000, (index) => store.createPet(newPet(index)));
    // A fresh key per create, as the typed client sends: every call stores a pet and remembers its key.
    await record('createPet(input, { idempotencyKey })', size, 50_000, (index) => store.createPet(newPet(index), { idempotencyKey: `${size}-${index}-${process.hrtime.bigint()}` }));
  }
  const output: InProcessOutput = { results, bytesPerPet, requestCore };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
