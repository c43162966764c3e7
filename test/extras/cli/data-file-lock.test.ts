import assert from 'node:assert/strict';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { assertError, call } from '../../support/http.js';
import { runMain, spawnServer, startRefused, stopServer } from '../../support/process.js';
import type { ServerProcess } from '../../support/process.js';

const KEY = 'data-file-lock-key-8d2f41';
const POST = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const directory = await mkdtemp(join(tmpdir(), 'petstore-data-file-lock-'));
after(() => rm(directory, { recursive: true, force: true }));

async function create(server: ServerProcess, name: string): Promise<{ status: number; id: unknown }> {
  const reply = await call(server, 'POST', '/v1/pets', { headers: POST, body: JSON.stringify({ name, categoryId: 1 }) });
  const body: unknown = reply.json;
  return { status: reply.status, id: typeof body === 'object' && body !== null && 'id' in body ? body.id : undefined };
}

test('a server whose data file lock is removed answers creates with 503 and /readyz with 503, a second server is still refused since the first holds the file itself locked, and a restart loses nothing acknowledged', async () => {
  const dataFile = join(directory, 'pets.journal');
  const env = { PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile };
  const first = spawnServer(env);
  await first.ready;
  const refused = await runMain(env);
  assert.equal(refused.code, 2, 'a second server is refused while the first holds the file');
  assert.match(refused.stderr, /^petstore-reference: Data file .* is in use: .*\.lock is held by running process \d+/);

  const acknowledged: unknown[] = [];
  for (const name of ['One', 'Two']) {
    const created = await create(first, name);
    assert.equal(created.status, 201);
    acknowledged.push(created.id);
  }
  await unlink(`${dataFile}.lock`);
  try {
    const second = await startRefused(env);
    assert.equal(second.code, 2, 'a second server is refused by the lock on the file itself');
    assert.match(second.stderr, /^petstore-reference: Data file .* is in use: another process holds the file itself open and locked/);
    const displaced = await call(first, 'POST', '/v1/pets', { headers: POST, body: '{"name":"Lost","categoryId":1}' });
    assertError(displaced, 503, 'unavailable', /no longer prove that it alone writes its data file .*Creates stay refused until the server is restarted/);
    assertError(await call(first, 'GET', '/readyz'), 503, 'unavailable', /The single-writer lock .* was removed, so another process may open the file and write to it too/);
    assert.equal((await call(first, 'GET', '/v1/pets/1', { headers: POST })).status, 200, 'reads still answer');
  } finally {
    await stopServer(first);
  }
  assert.deepEqual(acknowledged, [1, 2]);
  const restarted = spawnServer(env);
  await restarted.ready;
  try {
    assert.equal((await create(restarted, 'Three')).id, 3, 'the refused create used no id that was stored');
    const list = await call(restarted, 'GET', '/v1/pets', { headers: POST });
    assert.deepEqual(list.json, [1, 2, 3].map((id, index) => ({ id, name: ['One', 'Two', 'Three'][index], categoryId: 1 })));
  } finally {
    await stopServer(restarted);
  }
});
