import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PetstoreClient } from '../../../extras/client/index.js';
import type { FetchFunction } from '../../../extras/client/index.js';
import { createPetstore } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { createMemoryStorage } from '../../../lib/storage/memory/memory-storage.js';
import { API_KEY, startTestServer } from '../../support/standalone-http.js';
import type { TestServer } from '../../support/standalone-http.js';
import { failure } from '../../support/assertions.js';

/** A storage as examples/custom-storage.ts writes one: insert, get and list, no insertOnce. */
function storageWithoutInsertOnce(): PetStorage {
  const { insert, get, list } = createMemoryStorage();
  return { insert, get, list };
}

/** What one request carried: its method, and its Idempotency-Key or null. */
interface Sent {
  method: string;
  key: string | null;
}

/** A fetch over the real socket that records each request's method and key, then lets `after` see the real answer. */
function recordingFetch(sent: Sent[], after: (response: Response, index: number) => Response | Promise<Response> = (response) => response): FetchFunction {
  return async (url, init) => {
    const key = new Headers(init.headers).get('idempotency-key');
    const index = sent.push({ method: init.method ?? 'GET', key }) - 1;
    return after(await fetch(url, init), index);
  };
}

describe('PetstoreClient against a storage without insertOnce', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ store: createPetstore({ storage: storageWithoutInsertOnce() }) });
  });
  after(() => server.close());

  test('PetstoreClient.createPet with default options creates the pet on a server that cannot remember keys', async () => {
    const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY });
    const pet = await client.createPet({ name: 'Keyless', categoryId: 1 });
    assert.equal(pet.name, 'Keyless');
    assert.deepEqual(await server.store.getPet(pet.id), pet);
  });

  test('PetstoreClient.createPet with retries off still creates the pet on a server that cannot remember keys', async () => {
    const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY, retry: false });
    const pet = await client.createPet({ name: 'Single', categoryId: 2 });
    assert.deepEqual(await server.store.getPet(pet.id), pet);
  });

  test('PetstoreClient remembers that the server cannot keep keys: later creates go without one, in one request each', async () => {
    const sent: Sent[] = [];
    const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY, fetch: recordingFetch(sent) });
    const first = await client.createPet({ name: 'First', categoryId: 1 });
    assert.equal(sent.length, 2, 'the keyed create is refused with a 501, then sent once without a key');
    assert.notEqual(sent[0]?.key, null);
    assert.equal(sent[1]?.key, null);
    const second = await client.createPet({ name: 'Second', categoryId: 1 });
    assert.equal(sent.length, 3, 'the client learned: no keyed request first');
    assert.equal(sent[2]?.key, null);
    assert.notEqual(first.id, second.id);
    const other = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY, fetch: recordingFetch(sent) });
    await other.createPet({ name: 'Other', categoryId: 1 });
    assert.notEqual(sent[3]?.key, null, 'what one client learned is its own: another instance asks again');
  });

  test('PetstoreClient never retries a create without a key whose answer was lost, and says its fate is unknown', async () => {
    const before = (await server.store.listPets({ limit: 100 })).length;
    const sent: Sent[] = [];
    const client = new PetstoreClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      // The keyless create reaches the store, but its answer never reaches the caller.
      fetch: recordingFetch(sent, (response, index) => {
        if (index >= 1) throw new TypeError('other side closed');
        return response;
      }),
      retry: { attempts: 5, sleep: async () => undefined },
    });
    const error = await failure(() => client.createPet({ name: 'Lost', categoryId: 1 }));
    assert.equal(sent.length, 2, 'the keyless create is sent once, however many attempts the retry option allows');
    assert.equal(error.code, 'unavailable');
    assert.match(error.message, /may or may not have been stored/);
    assert.match(error.message, /cannot remember idempotency keys/);
    assert.match(error.message, /other side closed/);
    const pets = await server.store.listPets({ limit: 100 });
    assert.equal(pets.length, before + 1, 'stored once, never twice');
  });

  test('PetstoreClient never retries a create without a key answered by a 5xx, and says its fate is unknown', async () => {
    for (const [status, code] of [[500, 'internal_error'], [502, 'unavailable'], [503, 'unavailable'], [504, 'unavailable']] as const) {
      const sent: Sent[] = [];
      const client = new PetstoreClient({
        baseUrl: server.url,
        apiKey: API_KEY,
        fetch: recordingFetch(sent, (response, index) =>
          index >= 1 ? new Response(JSON.stringify({ code, message: 'The server failed', status }), { status, headers: { 'content-type': 'application/json' } }) : response,
        ),
        retry: { attempts: 5, sleep: async () => undefined },
      });
      const error = await failure(() => client.createPet({ name: 'Gateway', categoryId: 1 }));
      assert.equal(sent.length, 2, `a ${status} to a keyless create is not retried`);
      assert.equal(error.code, code);
      assert.match(error.message, /may or may not have been stored/);
    }
  });

  test('PetstoreClient.createPet with the caller\'s own key keeps it and reports the server\'s 501, never a silent create without it', async () => {
    const sent: Sent[] = [];
    const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY, fetch: recordingFetch(sent) });
    const before = (await server.store.listPets({ limit: 100 })).length;
    const error = await failure(() => client.createPet({ name: 'Order', categoryId: 1 }, { idempotencyKey: 'order-7' }));
    assert.deepEqual([error.code, error.status], ['idempotency_unsupported', 501]);
    assert.deepEqual(sent.map((request) => request.key), ['"order-7"']);
    assert.equal((await server.store.listPets({ limit: 100 })).length, before);
  });
});
