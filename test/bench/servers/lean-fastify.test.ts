import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { missingHeaders, requestAnswer } from '../../../bench/checks.js';
import { SCENARIOS } from '../../../bench/http.js';
import type { Scenario } from '../../../bench/http.js';
import { rawHeaderOf } from '../../../bench/servers/ceiling.js';
import { createLeanFastifyServer } from '../../../bench/servers/fastify.js';

function scenario(path: string, overrides: Partial<Scenario> = {}): Scenario {
  return { name: path, method: 'GET', path, isAuthenticated: true, expectedStatus: 200, check: { verify: () => undefined, verifyHeaders: () => undefined, optionalHeaders: [] }, ...overrides };
}

describe('the lean fastify server', () => {
  let app: FastifyInstance;
  let origin: string;
  before(async () => {
    app = createLeanFastifyServer();
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());

  test('createLeanFastifyServer() passes every bench scenario\'s check, sending none of the project\'s optional headers', async () => {
    for (const benchScenario of SCENARIOS) {
      const answer = await requestAnswer(origin, benchScenario);
      benchScenario.check.verify(answer);
      benchScenario.check.verifyHeaders(answer);
      assert.deepEqual(missingHeaders(benchScenario.check, answer), benchScenario.check.optionalHeaders, benchScenario.name);
    }
  });

  test('createLeanFastifyServer() sends fastify\'s default headers only, and Location on 201', async () => {
    const names = (rawHeaders: string[]): string[] => rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase()).sort();
    const listed = await requestAnswer(origin, scenario('/v1/pets?limit=1'));
    assert.deepEqual(names(listed.rawHeaders), ['connection', 'content-length', 'content-type', 'date', 'keep-alive']);
    const created = await requestAnswer(origin, scenario('/v1/pets', { method: 'POST', body: '{"name":"a","categoryId":1}' }));
    assert.equal(created.status, 201);
    assert.deepEqual(names(created.rawHeaders), ['connection', 'content-length', 'content-type', 'date', 'keep-alive', 'location']);
  });

  test('createLeanFastifyServer() lists by a plain loop: the status filter, the limit, and new pets at the end', async () => {
    const sold = await requestAnswer(origin, scenario('/v1/pets?limit=2&status=sold'));
    assert.equal(sold.status, 200);
    assert.deepEqual(JSON.parse(sold.body), [
      { id: 3, name: 'pet-000002', categoryId: 2, status: 'sold' },
      { id: 6, name: 'pet-000005', categoryId: 5, status: 'sold' },
    ]);
    const all = JSON.parse((await requestAnswer(origin, scenario('/v1/pets?limit=100'))).body) as unknown[];
    assert.equal(all.length, 100);
  });

  test('createLeanFastifyServer() answers 404 with an Error body for an unknown pet, and 401 for a wrong key', async () => {
    const missing = await requestAnswer(origin, scenario('/v1/pets/999999'));
    assert.equal(missing.status, 404);
    assert.deepEqual(JSON.parse(missing.body), { code: 'not_found', message: 'Pet not found', status: 404 });
    const refused = await requestAnswer(origin, scenario('/v1/pets/1', { isAuthenticated: false }));
    assert.equal(refused.status, 401);
    assert.deepEqual(JSON.parse(refused.body), { code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
  });

  test('createLeanFastifyServer() refuses a limit out of range through its schema, and drops a body\'s unknown field as fastify\'s ajv does', async () => {
    const outOfRange = await requestAnswer(origin, scenario('/v1/pets?limit=101'));
    assert.equal(outOfRange.status, 400);
    assert.match(outOfRange.body, /limit/);
    const unknownField = await requestAnswer(origin, scenario('/v1/pets', { method: 'POST', body: '{"name":"b","categoryId":2,"owner":"x"}' }));
    assert.equal(unknownField.status, 201);
    const id = Number(rawHeaderOf(unknownField.rawHeaders, 'location')?.replace('/v1/pets/', ''));
    assert.deepEqual(JSON.parse(unknownField.body), { id, name: 'b', categoryId: 2 });
  });
});
