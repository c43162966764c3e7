import { bodyOf, createRequestCore, NO_BODY } from '../server/core/index.js';
import type { CoreRequest, RequestCoreOptions } from '../server/core/index.js';
import { createPetstore } from '../lib/index.js';
import type { Petstore } from '../lib/index.js';
import { inject } from '../server/testing/index.js';
import { median } from './support.js';

/** One in-process measurement. */
export interface InProcessResult {
  operation: string;
  pets: number;
  nsPerOp: number;
  opsPerSecond: number;
}

/** One request through the request core without a socket, at 1,000 pets. */
export interface RequestCoreResult {
  request: string;
  /** Median ns per request through `inject` (testing/), which copies the headers in and out and decodes the body. */
  injectNsPerOp: number;
  /** Median ns per request through `core.handle`, as the node:http adapter calls it (Node's header object, `Host`, HTTP/1.1). */
  handleNsPerOp: number;
}

const STATUSES = ['available', 'pending', 'sold'] as const;
const SIZES = [1_000, 100_000, 1_000_000];

/** The key of the in-process request core. */
const CORE_KEY = 'in-process-bench-key';

interface CoreRequestCase { request: string; method: string; target: string; status: number; iterations: number; body?: string }

/** The requests of the HTTP scenarios that do work, measured through the request core alone. */
const CORE_REQUESTS: readonly CoreRequestCase[] = [
  { request: 'GET /v1/pets/42', method: 'GET', target: '/v1/pets/42', status: 200, iterations: 100_000 },
  { request: 'GET /v1/pets?limit=20', method: 'GET', target: '/v1/pets?limit=20', status: 200, iterations: 50_000 },
  { request: 'POST /v1/pets', method: 'POST', target: '/v1/pets', status: 201, iterations: 20_000, body: '{"name":"bench-pet","categoryId":7,"status":"available"}' },
];

async function fill(store: Petstore, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    // Names of 10 characters, as the heap target assumes.
    await store.createPet({ name: `pet-${String(index % 1_000_000).padStart(6, '0')}`, categoryId: index % 50, status: STATUSES[index % 3] as (typeof STATUSES)[number] });
  }
}

/** Median ns per operation over five batches of `iterations` calls. */
async function measure(iterations: number, operation: (index: number) => Promise<unknown>): Promise<number> {
  const batches: number[] = [];
  for (let batch = 0; batch < 6; batch++) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < iterations; index++) await operation(index);
    const elapsed = Number(process.hrtime.bigint() - started);
    // The first batch warms the JIT up and is not counted.
    if (batch > 0) batches.push(elapsed / iterations);
  }
  return median(batches);
}

function collectGarbage(): void {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
  gc();
  gc();
}

/** Heap bytes each pet costs in a store of `count` pets, measured after full collections. */
async function heapPerPet(count: number): Promise<number> {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const store = createPetstore();
  await fill(store, count);
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if ((await store.listPets({ limit: 1 })).length !== 1) throw new Error('store is empty');
  return (after - before) / count;
}

/**
 * The request core measured in-process, for the requests of the HTTP scenarios: the HTTP layer's own
 * cost (routing, auth, validation, JSON, headers) apart from Node's socket work. Each request runs on
 * a fresh store of 1,000 pets, as the HTTP servers start with; its status is checked first.
 */
async function requestCoreResults(): Promise<RequestCoreResult[]> {
  const encoder = new TextEncoder();
  const results: RequestCoreResult[] = [];
  for (const { request, method, target, status, iterations, body } of CORE_REQUESTS) {
    const store = createPetstore();
    await fill(store, 1_000);
    const options: RequestCoreOptions = { store, apiKeys: [CORE_KEY], logError: (error) => void process.stderr.write(`${String(error)}\n`) };
    const headers: Record<string, string> = { authorization: `Bearer ${CORE_KEY}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const injected = { method, url: target, headers, ...(body === undefined ? {} : { body }) };
    const first = await inject(options, injected);
    if (first.status !== status) throw new Error(`${request} through inject answered ${first.status} ${first.body}`);
    const injectNsPerOp = await measure(iterations, () => inject(options, injected));
    const core = createRequestCore(options);
    const bytes = body === undefined ? undefined : encoder.encode(body);
    const nodeHeaders: Record<string, string> = { host: '127.0.0.1', ...headers, ...(bytes === undefined ? {} : { 'content-length': String(bytes.length) }) };
    const coreRequest = (): CoreRequest => ({ method, target, headers: nodeHeaders, body: bytes === undefined ? NO_BODY : bodyOf(bytes), httpVersion: '1.1' });
    const answer = await core.handle(coreRequest());
    if (answer.status !== status) throw new Error(`${request} through core.handle answered ${answer.status}`);
    const handleNsPerOp = await measure(iterations, () => Promise.resolve(core.handle(coreRequest())));
    results.push({ request, injectNsPerOp, handleNsPerOp });
  }
  return results;
}

async function main(): Promise<void> {
  // Measured first, on a clean heap: stores built later would still be reachable from this frame.
  const bytesPerPet = await heapPerPet(1_000_000);
  const requestCore = await requestCoreResults();
  const results: InProcessResult[] = [];
  const record = (operation: string, pets: number, nsPerOp: number): void => {
    results.push({ operation, pets, nsPerOp, opsPerSecond: 1e9 / nsPerOp });
  };
  for (const size of SIZES) {
    const store = createPetstore();
    await fill(store, size);
    record('getPet(id)', size, await measure(200_000, (index) => store.getPet(1 + ((index * 7919) % size))));
    record('listPets({ limit: 20 })', size, await measure(100_000, () => store.listPets({ limit: 20 })));
    record('listPets({ limit: 100, status })', size, await measure(20_000, (index) => store.listPets({ limit: 100, status: STATUSES[index % 3] as (typeof STATUSES)[number] })));
    record('listPets({ limit: 100, status, after })', size, await measure(20_000, (index) => store.listPets({ limit: 100, status: 'sold', after: (index * 7919) % size })));
    record('createPet(input)', size, await measure(50_000, (index) => store.createPet({ name: `new-${index}`, categoryId: 1, status: 'pending' })));
    // A fresh key per create, as the typed client sends: every call stores a pet and remembers its key.
    record('createPet(input, { idempotencyKey })', size, await measure(50_000, (index) => store.createPet({ name: `new-${index}`, categoryId: 1, status: 'pending' }, { idempotencyKey: `${size}-${index}-${process.hrtime.bigint()}` })));
  }
  process.stdout.write(`${JSON.stringify({ results, bytesPerPet, requestCore })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
