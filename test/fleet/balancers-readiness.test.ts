import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient } from '../../extras/client/index.js';
import type { RetryOptions } from '../../extras/client/index.js';
import { createMemoryStorage, createPetstore, PetstoreError } from '../../lib/index.js';
import { assertError, call, startTestServer } from '../support/standalone-http.js';
import { startTestPostgres } from '../support/postgres.js';
import type { ServerProcess } from '../support/process.js';
import { balancerSkip, startBalancer } from './support/balancers.js';
import type { Balancer } from './support/balancers.js';
import { startDatabaseSwitch } from './support/database-switch.js';
import { compiledMain, docBlock, FLEET_KEY, freePorts, serverArguments, startFleetServer, waitUntilReady, withPorts } from './support/fleet.js';

const HAPROXY_SECTION = '### Rolling restarts behind HAProxy';

/** How long the test's maintenance window cuts the database: a plain PostgreSQL stop and start took 11.9 s in a trial, past the client's default 10 s budget. */
const WINDOW_MS = 12_000;

/** The `retry` options docs/postgres.md gives the typed client for a maintenance window, read from its example. */
async function documentedRetry(): Promise<RetryOptions> {
  const example = await docBlock('postgres.md', '## Clients through a maintenance window', 'ts');
  const literal = /\bretry: (\{[^}]*\})/.exec(example)?.[1];
  assert.ok(literal !== undefined, `no retry options in:\n${example}`);
  const parsed: unknown = JSON.parse(literal.replace(/([a-zA-Z]+):/g, '"$1":').replace(/(\d)_(\d)/g, '$1$2'));
  assert.ok(typeof parsed === 'object' && parsed !== null);
  const options: RetryOptions = {};
  for (const [name, value] of Object.entries(parsed)) {
    assert.ok((name === 'totalTime' || name === 'maxDelay' || name === 'attempts' || name === 'baseDelay') && typeof value === 'number', `${name}: ${String(value)}`);
    options[name] = value;
  }
  return options;
}

/** A GET of the pets through `origin`: its status, media type and body. */
async function listThrough(origin: string): Promise<{ status: number; type: string; retryAfter: string | null; text: string }> {
  const response = await fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${FLEET_KEY}` }, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, type: response.headers.get('content-type') ?? '', retryAfter: response.headers.get('retry-after'), text: await response.text() };
}

/** Whether an answer is the server's own Error body for a storage outage. */
function isServersUnavailable(answer: { status: number; type: string; text: string }): boolean {
  return answer.status === 503 && answer.type === 'application/json; charset=utf-8' && /^\{"code":"unavailable","message":"Cannot list pets: PostgreSQL is unavailable/.test(answer.text);
}

describe('readiness: what /readyz answers for', () => {
  test('/readyz in the process mode answers 200 while the storage fails its check, and 503 once shutdown begins', async () => {
    const storage = { ...createMemoryStorage(), checkReady: () => Promise.reject(new PetstoreError('unavailable', 'The database is down')) };
    const server = await startTestServer({ store: createPetstore({ storage }), readiness: 'process' });
    const closing = server.close({ delay: 500 });
    try {
      assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', /^The server is shutting down$/);
    } finally {
      await closing;
    }
    const again = await startTestServer({ store: createPetstore({ storage }), readiness: 'process' });
    try {
      const reply = await call(again, 'GET', '/readyz');
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, { status: 'ready' });
    } finally {
      await again.close();
    }
  });

  test('/readyz in the storage mode, the default, answers 503 with the storage\'s reason while it fails its check', async () => {
    const storage = { ...createMemoryStorage(), checkReady: () => Promise.reject(new PetstoreError('unavailable', 'The database is down')) };
    for (const readiness of ['storage', undefined] as const) {
      const server = await startTestServer({ store: createPetstore({ storage }), ...(readiness === undefined ? {} : { readiness }) });
      try {
        assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', /^The database is down$/);
      } finally {
        await server.close();
      }
    }
  });

  test('operatorKit() refuses a readiness that is neither "storage" nor "process"', async () => {
    for (const readiness of ['database', '', 'Process']) {
      // @ts-expect-error: a JavaScript caller's mistake, which the types would catch
      const outcome = await startTestServer({ readiness }).then(async (server) => {
        await server.close();
        return 'started';
      }, (error: unknown) => error);
      assert.match(String(outcome), /^TypeError: operatorKit: `readiness` must be one of "storage", "process"$/);
    }
  });
});

const postgres = await startTestPostgres();
const skip = postgres.skip || balancerSkip('haproxy');
const main = skip === false ? await compiledMain() : '';

describe('readiness behind HAProxy while the shared database is down, configured as docs/operations.md says', { skip }, () => {
  const servers: ServerProcess[] = [];
  after(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
  });

  /** One server in `readiness` mode behind its own HAProxy, which lists it as each of the docs' three servers. */
  async function startBehindHaproxy(databaseUrl: string, readiness: string[]): Promise<{ server: ServerProcess; balancer: Balancer }> {
    const [balancerPort = 0, serverPort = 0] = await freePorts(2);
    const configuration = withPorts(await docBlock('operations.md', HAPROXY_SECTION, 'haproxy'), balancerPort, [serverPort, serverPort, serverPort]);
    const command = withPorts(await docBlock('operations.md', HAPROXY_SECTION, 'sh'), balancerPort, [serverPort, serverPort, serverPort]);
    const server = await startFleetServer(databaseUrl, [...serverArguments(command, serverPort), ...readiness], main);
    servers.push(server);
    await waitUntilReady(server.origin);
    const balancer = await startBalancer('haproxy', configuration, balancerPort);
    await waitUntilReady(balancer.origin);
    return { server, balancer };
  }

  test('HAProxy in front of servers in each readiness mode: the storage mode takes them out in an outage, and clients meet HAProxy\'s own 503; the process mode keeps them in, and clients get the server\'s JSON reason', async () => {
    const cluster = postgres.cluster;
    assert.ok(cluster !== undefined);
    const databaseSwitch = await startDatabaseSwitch(cluster.port);
    const databaseUrl = cluster.url.replace(`:${cluster.port}/`, `:${databaseSwitch.port}/`);
    const storageMode = await startBehindHaproxy(databaseUrl, ['--readiness', 'storage']);
    const processMode = await startBehindHaproxy(databaseUrl, ['--readiness', 'process']);
    for (const { balancer } of [storageMode, processMode]) assert.equal((await listThrough(balancer.origin)).status, 200);

    databaseSwitch.turnOff();
    // The storage mode: /readyz fails with the storage's reason, HAProxy takes every server out, and answers by itself.
    assertError(await call(storageMode.server, 'GET', '/readyz'), 503, 'unavailable', /PostgreSQL is unavailable/);
    let answer = await listThrough(storageMode.balancer.origin);
    for (let round = 0; answer.type.startsWith('application/json') && round < 100; round++) {
      await sleep(100);
      answer = await listThrough(storageMode.balancer.origin);
    }
    assert.equal(answer.status, 503);
    assert.match(answer.type, /^text\/html/, 'HAProxy\'s own page, not the server\'s Error body');
    assert.equal(answer.retryAfter, null, 'and no hint when to come back');
    // The process mode: /readyz stays 200, so HAProxy keeps the server in, past the time it takes to pull one (fall 2 × inter 1s).
    assert.equal((await call(processMode.server, 'GET', '/readyz')).status, 200);
    for (let round = 0; round < 8; round++) {
      const reason = await listThrough(processMode.balancer.origin);
      assert.ok(isServersUnavailable(reason), `the server's Error body, answer ${round}: ${reason.status} ${reason.type} ${reason.text}`);
      await sleep(500);
    }

    databaseSwitch.turnOn();
    for (const { server, balancer } of [storageMode, processMode]) {
      await waitUntilReady(server.origin);
      let back = await listThrough(balancer.origin);
      for (let round = 0; back.status !== 200 && round < 100; round++) {
        await sleep(100);
        back = await listThrough(balancer.origin);
      }
      assert.equal(back.status, 200, `${back.status} ${back.text}`);
    }
  });

  test('the typed client with the retry budget docs/postgres.md gives rides out a database cut for longer than the default budget, where a client with the default fails', async () => {
    const cluster = postgres.cluster;
    assert.ok(cluster !== undefined);
    const databaseSwitch = await startDatabaseSwitch(cluster.port);
    const databaseUrl = cluster.url.replace(`:${cluster.port}/`, `:${databaseSwitch.port}/`);
    const { balancer } = await startBehindHaproxy(databaseUrl, ['--readiness', 'process']);
    const baseUrl = `${balancer.origin}/v1`;
    const documented = new PetstoreClient({ baseUrl, apiKey: FLEET_KEY, retry: await documentedRetry() });
    const byDefault = new PetstoreClient({ baseUrl, apiKey: FLEET_KEY });
    assert.ok(Array.isArray(await documented.listPets()));

    databaseSwitch.turnOff();
    const window = sleep(WINDOW_MS).then(() => databaseSwitch.turnOn());
    const [kept, lost] = await Promise.allSettled([
      documented.createPet({ name: 'through the window', categoryId: 1 }),
      byDefault.createPet({ name: 'past the default budget', categoryId: 2 }),
    ]);
    await window;
    assert.equal(kept.status, 'fulfilled', kept.status === 'rejected' ? String(kept.reason) : '');
    assert.equal(kept.value.name, 'through the window');
    assert.equal(lost.status, 'rejected');
    assert.ok(lost.reason instanceof PetstoreError && lost.reason.code === 'unavailable', String(lost.reason));
    const stored = (await documented.listPets({ limit: 100 })).filter((pet) => pet.name === kept.value.name);
    assert.deepEqual(stored, [kept.value], 'stored once, whatever the retries');
  });
});
