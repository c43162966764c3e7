import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runExample } from './run-example.js';
import { PetstoreClient } from '../../extras/client/index.js';
import { createPetstore } from '../../lib/index.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
// Importing the example registers its contract suite and its Petstore test in this file.
import { createArrayStorage } from '../../examples/custom-storage.js';

describe('examples/custom-storage.ts', () => {
  test('custom-storage runs on its own and passes every contract test', async () => {
    // The reporter is named: the default one changed from TAP to spec in Node 23, and this test reads TAP's summary.
    const example = runExample('custom-storage.ts', {}, [process.execPath, '--test-reporter=tap', '--import', 'tsx']);
    assert.equal(await example.exited, 0, example.stdout() + example.stderr());
    assert.match(example.stdout(), /^# fail 0$/m);
    assert.match(example.stdout(), /^# pass [1-9][0-9]*$/m);
    assert.match(example.stdout(), /array storage contract/);
  });

  test('custom-storage behind the server takes a create from the typed client with default options, though it has no insertOnce', async () => {
    const server = await startTestServer({ store: createPetstore({ storage: createArrayStorage() }) });
    try {
      const pet = await new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY }).createPet({ name: 'Rex', categoryId: 1 });
      assert.deepEqual(await server.store.listPets(), [pet]);
    } finally {
      await server.close();
    }
  });
});
