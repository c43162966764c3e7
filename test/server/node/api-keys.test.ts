import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import type { LogEntry } from '../../../server/node/index.js';
import { call, startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';

const KEY_A = 'rotation-key-a-51f0';
const KEY_B = 'rotation-key-b-9c3e';

/** listPets with `key` over `agent`, answering the status and whether the connection was one already open. */
function listWith(server: TestServer, agent: Agent, key: string): Promise<{ status: number; isReused: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.origin}/v1/pets`, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume().on('end', () => resolve({ status: response.statusCode ?? 0, isReused: outgoing.reusedSocket }));
    });
    outgoing.on('error', reject).end();
  });
}

async function statusWith(server: TestServer, key: string): Promise<number> {
  return (await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status;
}

describe('keys that rotate without a restart', () => {
  test('startServer() with an apiKeys function: a key added works on the next request, a removed one stops on the next, and an open connection keeps working with a key still valid', async () => {
    let keys: readonly string[] = [KEY_A];
    const server = await startTestServer({ apiKeys: () => keys });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      assert.deepEqual(await listWith(server, agent, KEY_A), { status: 200, isReused: false });
      assert.equal(await statusWith(server, KEY_B), 401);
      keys = [KEY_A, KEY_B];
      assert.equal(await statusWith(server, KEY_B), 200);
      assert.deepEqual(await listWith(server, agent, KEY_A), { status: 200, isReused: true });
      keys = [KEY_B];
      assert.equal(await statusWith(server, KEY_A), 401);
      assert.deepEqual(await listWith(server, agent, KEY_B), { status: 200, isReused: true }, 'the open connection carries on with the key still valid');
      assert.deepEqual(await listWith(server, agent, KEY_A), { status: 401, isReused: true }, 'a removed key stops on an open connection too');
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  test('startServer() with an apiKeys function leaves a request already past authentication to finish when the keys change', async () => {
    const memory = createMemoryStorage();
    let listed = (): void => {};
    const isListing = new Promise<void>((resolve) => { listed = resolve; });
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const storage: PetStorage = { ...memory, list: async (query) => { listed(); await gate; return memory.list(query); } };
    let keys: readonly string[] = [KEY_A];
    const server = await startTestServer({ apiKeys: () => keys, store: createPetstore({ storage }) });
    try {
      const inFlight = statusWith(server, KEY_A);
      await isListing;
      keys = [KEY_B];
      release();
      assert.equal(await inFlight, 200);
    } finally {
      await server.close();
    }
  });

  test('startServer() with an apiKeys function keeps the keys in force when it returns a list that cannot be used, a key no client can send included', async () => {
    let keys: readonly string[] = [KEY_A];
    const entries: LogEntry[] = [];
    const server = await startTestServer({ apiKeys: () => keys, log: (entry) => void entries.push(entry) });
    try {
      for (const unusable of [[], [''], ['two words'], ['ok-key-0123456789', 'bad\u0000key'], ['short-key'], ['ключ-не-latin-1'], ['comma,key'], ['hash#key'], ['pad=ding']]) {
        keys = unusable;
        assert.equal(await statusWith(server, KEY_A), 200, JSON.stringify(unusable));
      }
      assert.deepEqual(entries.map((entry) => entry.level), Array(9).fill('warn'));
      keys = ['padded-0123456789=='];
      assert.equal(await statusWith(server, 'padded-0123456789=='), 200, 'token68 ends with = padding');
    } finally {
      await server.close();
    }
  });

  test('startServer() with an apiKeys function asks it on every request and logs an unusable list through log, keeping the keys in force', async () => {
    let keys: readonly string[] = [KEY_A];
    const entries: LogEntry[] = [];
    const server = await startTestServer({ apiKeys: () => keys, log: (entry) => void entries.push(entry) });
    try {
      assert.deepEqual([await statusWith(server, KEY_A), await statusWith(server, KEY_B)], [200, 401]);
      keys = [KEY_B];
      assert.deepEqual([await statusWith(server, KEY_A), await statusWith(server, KEY_B)], [401, 200]);
      keys = [];
      assert.deepEqual([await statusWith(server, KEY_A), await statusWith(server, KEY_B)], [401, 200]);
      assert.deepEqual(entries.map((entry) => entry.level), ['debug', 'warn']);
    } finally {
      await server.close();
    }
  });
});
