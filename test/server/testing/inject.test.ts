import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { createPetstore } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';
import { API_KEY, AUTH, JSON_POST } from '../../support/http.js';
import { buildPackage } from '../../support/runtimes.js';
import type { PackageBuild } from '../../support/runtimes.js';
import { docsSite } from '../../../extras/docs-site/index.js';

const run = promisify(execFile);

const REX = '{"name":"Rex","categoryId":1,"status":"available"}';

describe('inject()', () => {
  test('inject() with handler options answers createPet, listPets and getPet from the options\' store', async () => {
    const options = { store: createPetstore(), apiKeys: [API_KEY] };
    const created = await inject(options, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: REX });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['location'], '/v1/pets/1');
    assert.deepEqual(created.json(), { id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    const listed = await inject(options, { url: '/v1/pets', headers: AUTH });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json(), [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    const fetched = await inject(options, { url: '/v1/pets/1', headers: AUTH });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers['deprecation'], '@1767225600');
    assert.equal(fetched.body, '{"id":1,"name":"Rex","categoryId":1,"status":"available"}');
    assert.deepEqual(await options.store.listPets({}), [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
  });

  test('inject() with a fetch handler answers as the handler does, its headers keyed by lower-case name', async () => {
    const store = createPetstore();
    const handler = createFetchHandler({ store, apiKeys: [API_KEY] });
    const created = await inject(handler, { method: 'POST', url: '/v1/pets', headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' }, body: REX });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['location'], '/v1/pets/1');
    assert.deepEqual(created.json(), { id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    assert.ok(Object.keys(created.headers).every((name) => name === name.toLowerCase()), Object.keys(created.headers).join());
    assert.equal((await store.getPet(1)).name, 'Rex');
    const refused = await inject(handler, { url: '/v1/pets' });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['www-authenticate'], 'Bearer realm="petstore"');
    assert.deepEqual(refused.json(), { code: 'unauthorized', message: 'Send the API key as `Authorization: Bearer <API_KEY>`', status: 401 });
  });

  test('inject() takes request header names in any case and bodies as bytes, with handler options', async () => {
    const options = { store: createPetstore(), apiKeys: [API_KEY] };
    const answer = await inject(options, {
      method: 'POST',
      url: '/v1/pets',
      headers: { AUTHORIZATION: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
      body: new TextEncoder().encode('{"name":"Tom","categoryId":2}'),
    });
    assert.equal(answer.status, 201, answer.body);
    assert.deepEqual(answer.json(), { id: 1, name: 'Tom', categoryId: 2 });
  });

  for (const [door, makeTarget] of [
    ['handler options', () => ({ store: createPetstore(), apiKeys: [API_KEY], plugins: [docsSite()] })],
    ['a fetch handler', () => createFetchHandler({ store: createPetstore(), apiKeys: [API_KEY], plugins: [docsSite()] })],
  ] as const) {
    test(`inject() with ${door} serves an absolute URL and answers HEAD with the headers and no body`, async () => {
      const target = makeTarget();
      const answer = await inject(target, { method: 'HEAD', url: 'http://petstore.test/v1/openapi.json' });
      assert.equal(answer.status, 200);
      assert.equal(answer.body, '');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      const document = await inject(target, { url: 'http://petstore.test/v1/openapi.json' });
      assert.equal(answer.headers['content-length'], String(Buffer.byteLength(document.body)));
      assert.equal((document.json() as { openapi: string }).openapi, '3.1.0');
    });
  }
});

describe('petstore-reference/testing imported by a consumer', () => {
  let build: PackageBuild;
  before(async () => {
    build = await buildPackage();
  });
  after(() => build.remove());

  /** Runs a module in a child `node` started in the built package's directory, with no test runner's environment. */
  async function runModule(source: string): Promise<{ stdout: string; stderr: string }> {
    // NODE_TEST_CONTEXT, set by `node --test` for its children, would make node:test in the child report to this runner.
    // The reporter is named: the default one changed from TAP to spec in Node 23, and these tests read TAP's summary.
    return run(process.execPath, ['--test-reporter=tap', '--input-type=module', '--eval', source], { cwd: build.directory, env: { PATH: process.env['PATH'] ?? '' } });
  }

  test('petstore-reference/testing starts no test run when imported, though it re-exports the contract suite built on node:test', async () => {
    const { stdout, stderr } = await runModule([
      "const testing = await import('petstore-reference/testing');",
      "if (typeof testing.inject !== 'function' || typeof testing.runStorageContract !== 'function') process.exit(3);",
      "const answer = await testing.inject({ store: (await import('petstore-reference')).createPetstore(), apiKeys: ['k'] }, { url: '/v1/pets' });",
      'if (answer.status !== 401) process.exit(4);',
    ].join('\n'));
    assert.equal(stdout, '');
    assert.equal(stderr, '');
  });

  test('petstore-reference/testing starts a test run once runStorageContract is called, as the check above would see', async () => {
    const { stdout } = await runModule([
      "import { createMemoryStorage } from 'petstore-reference';",
      "import { runStorageContract } from 'petstore-reference/testing';",
      "runStorageContract('memory', { makeStorage: () => createMemoryStorage() });",
    ].join('\n'));
    assert.match(stdout, /^# tests [1-9]/m);
    assert.match(stdout, /^# fail 0$/m);
  });
});
