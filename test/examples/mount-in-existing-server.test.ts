import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startHost } from '../../examples/mount-in-existing-server.js';
import { call } from '../support/http.js';
import { runExample } from './run-example.js';

const KEY = 'example-key-0123456789';

describe('examples/mount-in-existing-server.ts', () => {
  test('mount-in-existing-server serves the host route, the Petstore under /v1 and the host fallback', async () => {
    const host = await startHost({ apiKeys: [KEY] });
    try {
      assert.equal((await call(host, 'GET', '/status')).text, 'host ok\n');
      const created = await call(host, 'POST', '/v1/pets', { headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
      assert.equal(created.status, 201);
      assert.equal(created.headers['location'], '/v1/pets/1');
      assert.equal((await call(host, 'GET', '/v1/pets')).status, 401);
      const fallback = await call(host, 'GET', '/elsewhere');
      assert.deepEqual([fallback.status, fallback.text], [404, 'not a host route\n']);
    } finally {
      await host.close();
    }
  });

  test('mount-in-existing-server runs on PORT=0 and stops on SIGTERM', async () => {
    const example = runExample('mount-in-existing-server.ts', { PORT: '0', PETSTORE_API_KEY: KEY });
    const [, origin = ''] = await example.waitFor(/host listening on (http:\/\/\S+)/);
    assert.equal((await call({ origin }, 'GET', '/status')).status, 200);
    assert.equal((await call({ origin }, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${KEY}` } })).text, '[]');
    example.child.kill('SIGTERM');
    assert.equal(await example.exited, 0);
  });
});
