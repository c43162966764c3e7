import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { main } from '../../examples/remote-client.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import { runExample } from './run-example.js';

const DEPRECATED = 'deprecated: getPet, sunset 2030-12-05T00:00:00.000Z, successor /v1/pets';

describe('examples/remote-client.ts', () => {
  test('remote-client main() pages through a running server with the typed client', async () => {
    const server = await startTestServer();
    try {
      const lines: string[] = [];
      await main({ url: server.url, apiKey: API_KEY }, (line) => lines.push(line));
      assert.deepEqual(lines, ['created 25 pets', 'iterated 25 pets in pages of 10', 'sold: 5', DEPRECATED, 'getPet(1): Pet 1', DEPRECATED, 'error: 404 not_found']);
      assert.equal((await server.store.listPets({ limit: 100 })).length, 25);
    } finally {
      await server.close();
    }
  });

  test('remote-client runs on its own, starting and stopping a server of its own', async () => {
    const example = runExample('remote-client.ts');
    assert.equal(await example.exited, 0, example.stderr());
    assert.match(example.stdout(), /^iterated 25 pets in pages of 10$/m);
    assert.match(example.stdout(), /^error: 404 not_found$/m);
  });
});
