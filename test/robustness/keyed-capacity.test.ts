import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { describe, test } from 'node:test';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../lib/limits.js';
import { journalPath } from '../extras/file-storage/fixtures.js';
import { spawnServer } from '../support/process.js';
import type { ServerProcess } from '../support/process.js';
import { PROFILE, report } from './settings.js';

// Issue 28, item 1: on a small old space, keyed creates with the largest keys and names must end in a
// 507 with the server up and answering reads, and a data file the server accepted must reopen with
// the same settings. Before, the key and its fingerprint (the name again, as escaped JSON) were not
// counted, and the process died of heap exhaustion without one 507.

const KEY = 'keyed-capacity-key-0123456789';

/** The runs: the 64 MiB with the longest keys, in memory in `npm test`; the long run adds the data file and 256 MiB with UUID keys. */
const RUNS: readonly { oldSpaceMiB: number; keys: 'longest' | 'uuid'; storages: readonly ('memory' | 'file')[] }[] = PROFILE.name === 'long'
  ? [{ oldSpaceMiB: 64, keys: 'longest', storages: ['memory', 'file'] }, { oldSpaceMiB: 256, keys: 'uuid', storages: ['memory', 'file'] }]
  : [{ oldSpaceMiB: 64, keys: 'longest', storages: ['memory'] }];

/** Creates in flight at once. */
const CONCURRENCY = 8;

/** Creates sent after the first 507, each of which must be a 507 too, with the server still up. */
const AFTER_FULL = 200;

/** Creates at most per run: far above what any budget here holds, a bound on the loop. */
const MAX_CREATES = 3_000_000;

/** The longest name that costs the most as an escaped fingerprint: 256 control characters. */
const CONTROL_NAME = '\u0001'.repeat(256);

/** A body with the name and the categoryId that costs a heap number of its own. */
const BODY = JSON.stringify({ name: CONTROL_NAME, categoryId: -(2 ** 53 - 1) });

/** The `index`-th key: 255 printable characters, or a UUID-shaped key as the project's client sends. */
function keyOf(index: number, kind: 'longest' | 'uuid'): string {
  const digits = index.toString(16).padStart(12, '0');
  return kind === 'uuid' ? `00000000-0000-4000-8000-${digits}` : digits.padStart(MAX_IDEMPOTENCY_KEY_LENGTH, 'k');
}

/** Sends one request over the agent; resolves with the status and body text, or the transport error. */
function send(origin: string, agent: Agent, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string } | Error> {
  return new Promise((resolve) => {
    const request = httpRequest(`${origin}${path}`, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', resolve);
    });
    request.on('error', resolve);
    request.end(body);
  });
}

/** What a run of keyed creates saw. */
interface Outcome {
  created: number;
  full: number;
  other: string[];
}

/** Keyed creates until the first 507, then AFTER_FULL more; stops early at a transport error (the server died). */
async function createUntilFull(server: ServerProcess, kind: 'longest' | 'uuid'): Promise<Outcome> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const outcome: Outcome = { created: 0, full: 0, other: [] };
  let next = 0;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  async function worker(): Promise<void> {
    while (outcome.full < AFTER_FULL && next < MAX_CREATES && outcome.other.length === 0) {
      const reply = await send(server.origin, agent, 'POST', '/v1/pets', { ...headers, 'idempotency-key': keyOf(next++, kind) }, BODY);
      if (reply instanceof Error) outcome.other.push(`transport: ${reply.message}`);
      else if (reply.status === 201) outcome.created++;
      else if (reply.status === 507) outcome.full++;
      else outcome.other.push(`${reply.status} ${reply.text.slice(0, 200)}`);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return outcome;
}

/** Asserts the server answers a page and a pet. */
async function assertReads(server: ServerProcess): Promise<void> {
  const agent = new Agent();
  const page = await send(server.origin, agent, 'GET', '/v1/pets?limit=100', { authorization: `Bearer ${KEY}` });
  const pet = await send(server.origin, agent, 'GET', '/v1/pets/1', { authorization: `Bearer ${KEY}` });
  agent.destroy();
  assert.ok(!(page instanceof Error) && page.status === 200, `GET /v1/pets: ${page instanceof Error ? page.message : page.status}`);
  assert.ok(!(pet instanceof Error) && pet.status === 200, `GET /v1/pets/1: ${pet instanceof Error ? pet.message : pet.status}`);
}

/** Starts the server with this old space and arguments. */
async function start(oldSpaceMiB: number, args: readonly string[]): Promise<ServerProcess> {
  const server = spawnServer({ PETSTORE_API_KEYS: KEY, NODE_OPTIONS: `--max-old-space-size=${oldSpaceMiB}`, PETSTORE_LOG_LEVEL: 'error' }, args);
  await server.ready;
  return server;
}

/** Stops the server and resolves with its exit code. */
async function stop(server: ServerProcess): Promise<number | string> {
  server.child.kill('SIGTERM');
  return server.exited;
}

describe('keyed creates on a small old space', () => {
  for (const { oldSpaceMiB, keys, storages } of RUNS) {
    if (storages.includes('memory')) test(`the in-memory server on ${oldSpaceMiB} MiB answers keyed creates with ${keys} keys and 256 control characters 201 until a 507, then stays up and answers reads`, async () => {
      const server = await start(oldSpaceMiB, []);
      try {
        const outcome = await createUntilFull(server, keys);
        report({ part: `keyed creates to 507, memory, ${oldSpaceMiB} MiB, ${keys} keys`, cases: outcome.created + outcome.full, failures: outcome.other.length, note: `${outcome.created.toLocaleString('en-US')} created before the first 507` });
        assert.deepEqual(outcome.other, []);
        assert.equal(outcome.full >= AFTER_FULL, true, `${outcome.created} created, ${outcome.full} refused`);
        await assertReads(server);
      } finally {
        await stop(server);
      }
    });

    if (storages.includes('file')) test(`the server on a data file on ${oldSpaceMiB} MiB answers keyed creates with ${keys} keys until a 507, and reopens the file with the same settings`, async () => {
      const path = await journalPath();
      const args = ['--data', path, '--durability', 'write'];
      const server = await start(oldSpaceMiB, args);
      let outcome: Outcome;
      try {
        outcome = await createUntilFull(server, keys);
        report({ part: `keyed creates to 507, data file, ${oldSpaceMiB} MiB, ${keys} keys`, cases: outcome.created + outcome.full, failures: outcome.other.length, note: `${outcome.created.toLocaleString('en-US')} created before the first 507` });
        assert.deepEqual(outcome.other, []);
        assert.equal(outcome.full >= AFTER_FULL, true, `${outcome.created} created, ${outcome.full} refused`);
        await assertReads(server);
      } finally {
        await stop(server);
      }
      const again = await start(oldSpaceMiB, args);
      try {
        await assertReads(again);
        const last = await send(again.origin, new Agent(), 'GET', `/v1/pets/${outcome.created}`, { authorization: `Bearer ${KEY}` });
        assert.ok(!(last instanceof Error) && last.status === 200, 'the last pet acknowledged is there after the reopen');
      } finally {
        await stop(again);
      }
    });
  }
});
