import { createPetstore } from '../lib/index.js';
import type { Petstore } from '../lib/index.js';
import { median } from './support.js';

/** One in-process measurement. */
export interface InProcessResult {
  operation: string;
  pets: number;
  nsPerOp: number;
  opsPerSecond: number;
}

const STATUSES = ['available', 'pending', 'sold'] as const;
const SIZES = [1_000, 100_000, 1_000_000];

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

async function main(): Promise<void> {
  // Measured first, on a clean heap: stores built later would still be reachable from this frame.
  const bytesPerPet = await heapPerPet(1_000_000);
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
  }
  process.stdout.write(`${JSON.stringify({ results, bytesPerPet })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
