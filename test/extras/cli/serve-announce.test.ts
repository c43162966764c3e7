import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from '../../support/http.js';
import { jsonLines, spawnServer } from '../../support/process.js';

test('serve prints the reference page\'s URL on the line after the API\'s, and logs it in the listening event', async () => {
  const server = spawnServer({ PETSTORE_API_KEYS: 'announce-key-0123456' });
  try {
    await server.ready;
    const match = /^Petstore listening on (http:\/\/\S+)\nReference page \(open it in a browser\): (http:\/\/\S+)\n/m.exec(server.stdout());
    assert.ok(match !== null, server.stdout());
    const [, url = '', page = ''] = match;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(page, `${url}/docs`);
    const reply = await call(server, 'GET', new URL(page).pathname);
    assert.equal(reply.status, 200);
    assert.match(reply.text, /<title>Petstore API reference/);
    const listening = jsonLines(server.stderr()).find((line) => line['msg'] === 'Server listening');
    assert.deepEqual([listening?.['url'], listening?.['referencePage']], [url, page]);
  } finally {
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  }
});
