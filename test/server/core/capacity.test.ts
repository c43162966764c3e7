import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';

const API_KEY = 'test-key-0123456789';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const JSON_POST = { ...AUTH, 'content-type': 'application/json' };

test('createPet past the store\'s capacity answers 507 insufficient_storage with the Error body, and reads still answer 200', async () => {
  const options = { store: createPetstore({ capacity: { maxPets: 2 } }), apiKeys: [API_KEY] };
  for (const name of ['Rex', 'Tom']) assert.equal((await inject(options, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: JSON.stringify({ name, categoryId: 1 }) })).status, 201);
  const refused = await inject(options, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: '{"name":"Kit","categoryId":1}' });
  assert.equal(refused.status, 507);
  assert.equal(refused.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual(refused.json(), {
    code: 'insufficient_storage',
    message: "Cannot create pet: the store is full: it holds 2 pets, its capacity (`capacity.maxPets`). Reads still work; the operator can raise the capacity",
    status: 507,
  });
  const list = await inject(options, { url: '/v1/pets', headers: AUTH });
  assert.equal(list.status, 200);
  assert.deepEqual((list.json() as { name: string }[]).map((pet) => pet.name), ['Rex', 'Tom']);
  const one = await inject(options, { url: '/v1/pets/2', headers: AUTH });
  assert.equal(one.status, 200);
  assert.deepEqual(one.json(), { id: 2, name: 'Tom', categoryId: 1 });
});

test('createPet past the capacity still answers a bad body with its 400 first: the client\'s own mistake comes before the store\'s state', async () => {
  const options = { store: createPetstore({ capacity: { maxPets: 0 } }), apiKeys: [API_KEY] };
  const answer = await inject(options, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: '{"name":"","categoryId":1}' });
  assert.equal(answer.status, 400);
  assert.equal((answer.json() as { code: string }).code, 'validation_failed');
});
