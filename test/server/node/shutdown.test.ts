import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStorage, createPetstore } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { AUTH, call, startTestServer } from '../../support/http.js';

/** A memory storage whose list calls wait until released, and which records close(). */
function gatedStorage(): { storage: PetStorage; release: () => void; listed: Promise<void>; isClosed: () => boolean } {
  const inner = createMemoryStorage();
  let release = (): void => {};
  const gate = new Promise<void>((open) => { release = open; });
  let listedResolve = (): void => {};
  const listed = new Promise<void>((done) => { listedResolve = done; });
  let isClosed = false;
  const storage: PetStorage = {
    insert: (pet) => inner.insert(pet),
    get: (id) => inner.get(id),
    list: async (query) => {
      listedResolve();
      await gate;
      return inner.list(query);
    },
    close: async () => { isClosed = true; },
  };
  return { storage, release, listed, isClosed: () => isClosed };
}

describe('graceful shutdown', () => {
  test('close() lets an in-flight request finish with Connection: close, then closes the store', async () => {
    const gated = gatedStorage();
    const server = await startTestServer({ store: createPetstore({ storage: gated.storage }) });
    const inFlight = call(server, 'GET', '/v1/pets', { headers: { ...AUTH, connection: 'keep-alive' } });
    await gated.listed;
    const closing = server.close();
    assert.equal(gated.isClosed(), false);
    gated.release();
    const reply = await inFlight;
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['connection'], 'close');
    await closing;
    assert.equal(gated.isClosed(), true);
    await assert.rejects(call(server, 'GET', '/v1/pets', { headers: AUTH }), /ECONNREFUSED/);
  });

  test('close() cuts a hung request at the deadline and still closes the store', async () => {
    const gated = gatedStorage();
    const server = await startTestServer({ store: createPetstore({ storage: gated.storage }), shutdownDeadline: 200 });
    const hung = call(server, 'GET', '/v1/pets', { headers: AUTH }).then(() => 'answered', () => 'cut');
    await gated.listed;
    await server.close();
    assert.equal(await hung, 'cut');
    assert.equal(gated.isClosed(), true);
    gated.release();
  });

  test('close() is idempotent', async () => {
    const server = await startTestServer();
    await Promise.all([server.close(), server.close()]);
    await server.close();
  });
});
