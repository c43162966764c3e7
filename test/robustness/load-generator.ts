import { Agent, request as httpRequest } from 'node:http';

// The soak's load generator, run as its own process (pinned to another core than the server when
// taskset exists): node --import tsx test/robustness/load-generator.ts <origin> <seconds> <connections> <key>
// It prints one JSON line with its counts and latencies when done.

/** One kind of request in the mix, with the status it must get. */
interface Operation {
  name: string;
  weight: number;
  expected: number;
  build: (index: number) => { method: string; path: string; headers: Record<string, string>; body?: string };
}

/** Creates per second at most: enough to keep the store changing, few enough that its growth is not mistaken for a leak. */
const CREATES_PER_SECOND = 20;

const [origin = '', secondsText = '60', connectionsText = '32', key = ''] = process.argv.slice(2);
const seconds = Number(secondsText);
const connections = Number(connectionsText);
const auth = { authorization: `Bearer ${key}` };
const json = { ...auth, 'content-type': 'application/json' };
let knownIds = 0;

const OPERATIONS: readonly Operation[] = [
  { name: 'list', weight: 40, expected: 200, build: (index) => ({ method: 'GET', path: `/v1/pets?limit=${1 + (index % 100)}`, headers: auth }) },
  { name: 'list by status', weight: 10, expected: 200, build: (index) => ({ method: 'GET', path: `/v1/pets?status=${['available', 'pending', 'sold'][index % 3]}&after=${index % 50}`, headers: auth }) },
  { name: 'get', weight: 15, expected: 200, build: (index) => ({ method: 'GET', path: `/v1/pets/${1 + (index % knownIds)}`, headers: auth }) },
  { name: 'get unknown', weight: 5, expected: 404, build: (index) => ({ method: 'GET', path: `/v1/pets/${9_000_000 + index}`, headers: auth }) },
  { name: 'create invalid', weight: 8, expected: 400, build: (index) => ({ method: 'POST', path: '/v1/pets', headers: json, body: index % 2 === 0 ? '{"name":"","categoryId":1.5}' : '{"name":' }) },
  { name: 'no key', weight: 7, expected: 401, build: () => ({ method: 'GET', path: '/v1/pets', headers: {} }) },
  { name: 'wrong key', weight: 5, expected: 401, build: () => ({ method: 'GET', path: '/v1/pets', headers: { authorization: 'Bearer not-the-key' } }) },
  { name: 'bad query', weight: 5, expected: 400, build: () => ({ method: 'GET', path: '/v1/pets?limit=ten', headers: auth }) },
  { name: 'wrong method', weight: 5, expected: 405, build: () => ({ method: 'DELETE', path: '/v1/pets', headers: auth }) },
];
const CREATE: Operation = { name: 'create', weight: 0, expected: 201, build: (index) => ({ method: 'POST', path: '/v1/pets', headers: json, body: JSON.stringify({ name: `Soak ${index}`, categoryId: index % 9, status: ['available', 'pending', 'sold'][index % 3] }) }) };
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, operation) => sum + operation.weight, 0);

function pick(index: number): Operation {
  let point = (index * 7919) % TOTAL_WEIGHT;
  for (const operation of OPERATIONS) {
    if (point < operation.weight) return operation;
    point -= operation.weight;
  }
  return OPERATIONS[0] as Operation;
}

const agent = new Agent({ keepAlive: true, maxSockets: connections });
const latencies: number[] = [];
const byStatus: Record<string, number> = {};
const unexpected: Record<string, number> = {};
let created = 0;
let started = performance.now();

function send(operation: Operation, index: number): Promise<void> {
  const { method, path, headers, body } = operation.build(index);
  const sent = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(`${origin}${path}`, { method, headers, agent }, (response) => {
      response.resume();
      response.on('end', () => {
        latencies.push(performance.now() - sent);
        const status = response.statusCode ?? 0;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (status !== operation.expected) unexpected[`${operation.name}: ${status}`] = (unexpected[`${operation.name}: ${status}`] ?? 0) + 1;
        if (status === 201) knownIds++;
        resolve();
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      unexpected[`${operation.name}: ${error.code ?? error.message}`] = (unexpected[`${operation.name}: ${error.code ?? error.message}`] ?? 0) + 1;
      resolve();
    });
    request.end(body);
  });
}

/** Pets created before the clock starts, so `get` has pets to ask for from the first request on. */
const SEEDED_PETS = 100;

let next = 0;
async function worker(): Promise<void> {
  while (performance.now() - started < seconds * 1000) {
    const index = next++;
    const elapsed = (performance.now() - started) / 1000;
    const operation = created < elapsed * CREATES_PER_SECOND ? CREATE : pick(index);
    if (operation === CREATE) created++;
    await send(operation, index);
  }
}

for (let index = 0; index < SEEDED_PETS; index++) await send(CREATE, -1 - index);
knownIds = SEEDED_PETS;
started = performance.now();
latencies.length = 0;
for (const status of Object.keys(byStatus)) delete byStatus[status];
await Promise.all(Array.from({ length: connections }, () => worker()));
agent.destroy();
const elapsedSeconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number): number => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN;
process.stdout.write(`${JSON.stringify({ requests: latencies.length, seconds: elapsedSeconds, throughput: latencies.length / elapsedSeconds, p50Ms: at(50), p99Ms: at(99), byStatus, unexpected, created })}\n`);
