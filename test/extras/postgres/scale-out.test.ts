import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Pet } from '../../../lib/index.js';
import { PetstoreClient } from '../../../extras/client/index.js';
import { spawnServer, runMain } from '../../support/process.js';
import type { ServerProcess } from '../../support/process.js';
import { makePool, startTestPostgres } from '../../support/postgres.js';

const API_KEY = 'scale-out-key-0123';
const AUTH = { authorization: `Bearer ${API_KEY}` };

/** Server processes report coverage too when the suite runs under c8. */
const COVERAGE: Record<string, string> = process.env['NODE_V8_COVERAGE'] === undefined ? {} : { NODE_V8_COVERAGE: process.env['NODE_V8_COVERAGE'] };

async function createPet(server: ServerProcess, name: string): Promise<Pet> {
  const response = await fetch(`${server.url}/pets`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: name.length, status: 'available' }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const pet: unknown = await response.json();
  assert.ok(typeof pet === 'object' && pet !== null && 'id' in pet && typeof pet.id === 'number');
  return { id: pet.id, name, categoryId: name.length, status: 'available' };
}

/** Every pet a server lists, following the `after` cursor page by page. */
async function listAll(server: ServerProcess): Promise<Pet[]> {
  const pets: Pet[] = [];
  let after = 0;
  for (;;) {
    const response = await fetch(`${server.url}/pets?limit=100&after=${after}`, { headers: AUTH });
    assert.equal(response.status, 200);
    const page: unknown = await response.json();
    assert.ok(Array.isArray(page));
    if (page.length === 0) return pets;
    pets.push(...page);
    after = (pets.at(-1) as Pet).id;
  }
}

/** Runs `count` creates through `server`, `lanes` at a time, keeping every acknowledged pet and counting failures. */
async function createMany(server: ServerProcess, label: string, count: number, lanes: number, acknowledged: Pet[]): Promise<number> {
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) {
        const index = next++;
        try {
          acknowledged.push(await createPet(server, `${label} ${index}`));
        } catch {
          failures++;
        }
      }
    }),
  );
  return failures;
}

function sortedIds(pets: readonly Pet[]): number[] {
  return pets.map((pet) => pet.id).sort((left, right) => left - right);
}

const postgres = await startTestPostgres();

describe('several server processes on one PostgreSQL database', { skip: postgres.skip }, () => {
  const url = postgres.cluster?.url ?? '';
  const servers: ServerProcess[] = [];

  after(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
  });

  async function start(): Promise<ServerProcess> {
    const server = spawnServer({ PETSTORE_API_KEYS: API_KEY, PETSTORE_DATABASE_URL: url, ...COVERAGE });
    servers.push(server);
    await server.ready;
    return server;
  }

  test('3 server processes share pets: concurrent creates through all are visible through each, ids unique', async () => {
    const [first, second, third] = await Promise.all([start(), start(), start()]);
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    const created: Pet[] = [];
    const failures = await Promise.all([first, second, third].map((server, index) => createMany(server, `server ${index}`, 60, 8, created)));
    assert.deepEqual(failures, [0, 0, 0]);
    assert.equal(new Set(created.map((pet) => pet.id)).size, 180, 'every create got its own id');
    for (const server of [first, second, third]) {
      const listed = await listAll(server);
      assert.deepEqual(sortedIds(listed), sortedIds(created), `${server.url} lists every pet`);
      assert.deepEqual(listed, [...created].sort((left, right) => left.id - right.id));
      const sample = created[created.length - 1] as Pet;
      const fetched = await fetch(`${server.url}/pets/${sample.id}`, { headers: AUTH });
      assert.equal(fetched.status, 200);
      assert.deepEqual(await fetched.json(), sample);
    }
  });

  test('the typed client\'s keyed creates, many at once through 2 processes, go to PostgreSQL in batches and store each key once, the same key through the other process answering the same pet', async () => {
    const [first, second] = servers;
    assert.ok(first !== undefined && second !== undefined);
    const [here, there] = [first, second].map((server) => new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY }));
    assert.ok(here !== undefined && there !== undefined);
    // 24 callers a process, more than its four create lanes, each create's key sent through both processes at once.
    const keys = Array.from({ length: 48 }, (_, index) => `batched-key-${index}`);
    const answers = await Promise.all(
      keys.map(async (key, index) => {
        const input = { name: `keyed ${index}`, categoryId: index, status: 'sold' as const };
        return Promise.all([here.createPet(input, { idempotencyKey: key }), there.createPet(input, { idempotencyKey: key })]);
      }),
    );
    answers.forEach(([fromHere, fromThere], index) => {
      assert.deepEqual(fromHere, fromThere, `${keys[index] ?? ''}: both processes answered the one pet its key holds`);
      assert.equal(fromHere?.name, `keyed ${index}`);
    });
    const keyedIds = answers.map(([pet]) => pet?.id ?? 0);
    assert.equal(new Set(keyedIds).size, keys.length, 'one pet a key');
    const listed = (await listAll(first)).filter((pet) => pet.name.startsWith('keyed '));
    assert.deepEqual(sortedIds(listed), [...keyedIds].sort((left, right) => left - right), 'no second pet for any key');
    const admin = makePool(url, 1);
    try {
      const { rows } = await admin.query("SELECT count(*)::int AS pets, count(DISTINCT xmin::text)::int AS transactions FROM pets WHERE name LIKE 'keyed %'");
      const [counts] = rows;
      assert.ok(counts !== undefined && counts.transactions < counts.pets, `the creates shared transactions: ${JSON.stringify(counts)}`);
    } finally {
      await admin.end();
    }
  });

  test('killing one server process with SIGKILL mid-load loses no acknowledged pet', async () => {
    const [first, second, third] = servers;
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    const before = await listAll(first);
    const acknowledged: Pet[] = [];
    const load = Promise.all([first, second, third].map((server, index) => createMany(server, `load ${index}`, 80, 6, acknowledged)));
    // Kill only once creates are flowing through every process; bounded in case they never do.
    for (let round = 0; acknowledged.length < 60 && round < 2_000; round++) await new Promise((resolve) => setTimeout(resolve, 5));
    second.child.kill('SIGKILL');
    const [firstFailures, secondFailures, thirdFailures] = await load;
    assert.equal(await second.exited, 'SIGKILL');
    assert.deepEqual([firstFailures, thirdFailures], [0, 0], 'the surviving processes kept serving');
    assert.ok((secondFailures ?? 0) > 0, 'the killed process stopped answering');
    for (const survivor of [first, third]) {
      const listedIds = new Set((await listAll(survivor)).map((pet) => pet.id));
      const lost = acknowledged.filter((pet) => !listedIds.has(pet.id));
      assert.deepEqual(lost, [], `${survivor.url} lists every acknowledged pet`);
      for (const pet of before) assert.ok(listedIds.has(pet.id));
    }
    assert.equal(new Set(acknowledged.map((pet) => pet.id)).size, acknowledged.length);
  });

  test('the surviving server processes stop gracefully on SIGTERM', async () => {
    for (const server of [servers[0], servers[2]]) {
      assert.ok(server !== undefined);
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.stderr());
    }
  });

  test('a server process whose database is unreachable exits with a message a person can act on', async () => {
    const { code, stderr } = await runMain({ PETSTORE_API_KEYS: API_KEY, PETSTORE_DATABASE_URL: url.replace(/:\d+\//, ':1/'), ...COVERAGE });
    assert.equal(code, 2);
    // The reason and the advice, in the one human-readable line of a server that cannot start.
    assert.match(stderr, /Cannot prepare the pets table: PostgreSQL is unavailable \(ECONNREFUSED: nothing accepts connections at the configured host and port\); start PostgreSQL or correct the connection URL/);
  });

  test('a server process answers 503 `unavailable` while its database is down, and still stops cleanly', async () => {
    const server = await start();
    const before = await createPet(server, 'before the outage');
    await postgres.cluster?.stop();
    for (const [method, path] of [['POST', '/pets'], ['GET', '/pets'], ['GET', `/pets/${before.id}`]] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...AUTH, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ name: 'during the outage', categoryId: 1 }) } : {}),
      });
      assert.equal(response.status, 503, `${method} ${path}`);
      const body: unknown = await response.json();
      assert.ok(typeof body === 'object' && body !== null && 'code' in body && 'message' in body && 'status' in body);
      assert.equal(body.code, 'unavailable');
      assert.equal(body.status, 503);
      assert.match(String(body.message), /PostgreSQL is unavailable/);
    }
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.stderr());
  });
});
