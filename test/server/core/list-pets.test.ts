import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AUTH, assertError } from '../../support/http.js';
import { call, createTestCore } from '../../support/inject.js';
import type { TestCore } from '../../support/inject.js';

interface ListedPet { id: number; status?: string }

describe('GET /v1/pets (listPets)', () => {
  let core: TestCore;
  const statuses = ['available', 'pending', 'sold', undefined] as const;
  before(async () => {
    core = createTestCore();
    for (let index = 0; index < 150; index++) {
      const status = statuses[index % 4];
      await core.store.createPet(status === undefined ? { name: `pet ${index}`, categoryId: 1 } : { name: `pet ${index}`, categoryId: 1, status });
    }
  });

  async function list(query: string): Promise<ListedPet[]> {
    const reply = await call(core, 'GET', `/v1/pets${query}`, { headers: AUTH });
    assert.equal(reply.status, 200, reply.text);
    return reply.json as ListedPet[];
  }

  test('listPets answers a JSON array of 20 pets in ascending id order by default', async () => {
    const reply = await call(core, 'GET', '/v1/pets', { headers: AUTH });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(reply.headers['cache-control'], 'no-store');
    const pets = reply.json as ListedPet[];
    assert.deepEqual(pets.map((pet) => pet.id), Array.from({ length: 20 }, (_, index) => index + 1));
    assert.equal(reply.headers.deprecation, undefined);
  });

  test('listPets clamps limit to 1..100', async () => {
    const cases: [string, number][] = [['0', 1], ['1', 1], ['-5', 1], ['-0', 1], ['100', 100], ['101', 100], ['1000', 100], ['99999999999999999999999999', 100], ['007', 7]];
    for (const [limit, expected] of cases) assert.equal((await list(`?limit=${limit}`)).length, expected, limit);
  });

  test('listPets rejects a malformed, empty or repeated limit with invalid_parameter naming it', async () => {
    for (const query of ['?limit=abc', '?limit=1.5', '?limit=', '?limit', '?limit=1e2', '?limit=+5', '?limit=%20', '?limit=5&limit=6', '?limit=0x10', '?limit=%zz']) {
      assertError(await call(core, 'GET', `/v1/pets${query}`, { headers: AUTH }), 400, 'invalid_parameter', /`limit`/);
    }
  });

  test('listPets filters by status', async () => {
    for (const status of ['available', 'pending', 'sold']) {
      const pets = await list(`?status=${status}&limit=100`);
      assert.equal(pets.length, 38 - (status === 'available' ? 0 : status === 'pending' ? 0 : 1));
      for (const pet of pets) assert.equal(pet.status, status);
    }
  });

  test('listPets rejects an unknown, empty or repeated status', async () => {
    for (const query of ['?status=adopted', '?status=Available', '?status=', '?status=sold&status=sold', '?status=sold%00']) {
      assertError(await call(core, 'GET', `/v1/pets${query}`, { headers: AUTH }), 400, 'invalid_parameter', /`status`/);
    }
  });

  test('listPets accepts percent-encoded parameter names and values', async () => {
    assert.equal((await list('?%6Cimit=3&status=%73old')).length, 3);
  });

  test('listPets returns only ids above `after`; a negative after starts at the beginning', async () => {
    assert.deepEqual((await list('?after=145')).map((pet) => pet.id), [146, 147, 148, 149, 150]);
    assert.deepEqual(await list('?after=150'), []);
    assert.deepEqual((await list('?after=-7&limit=2')).map((pet) => pet.id), [1, 2]);
    assert.deepEqual(await list('?after=9007199254740991'), []);
  });

  test('listPets rejects a malformed `after` or one beyond the safe-integer range', async () => {
    for (const query of ['?after=x', '?after=1.0', '?after=', '?after=9007199254740992', '?after=-9007199254740992', '?after=1&after=2']) {
      assertError(await call(core, 'GET', `/v1/pets${query}`, { headers: AUTH }), 400, 'invalid_parameter', /`after`/);
    }
  });

  test('listPets ignores unknown parameters', async () => {
    assert.equal((await list('?offset=5&page=2&foo&=&limit=4')).length, 4);
  });

  test('listPets links to the next page only when more pets match (RFC 8288)', async () => {
    const first = await call(core, 'GET', '/v1/pets?limit=60', { headers: AUTH });
    assert.equal(first.headers.link, '</v1/pets?limit=60&after=60>; rel="next"');
    const filtered = await call(core, 'GET', '/v1/pets?limit=2&status=sold', { headers: AUTH });
    assert.equal(filtered.headers.link, '</v1/pets?limit=2&after=7&status=sold>; rel="next"');
    const clamped = await call(core, 'GET', '/v1/pets?limit=1000', { headers: AUTH });
    assert.equal(clamped.headers.link, '</v1/pets?limit=100&after=100>; rel="next"');
    const last = await call(core, 'GET', '/v1/pets?limit=100&after=100', { headers: AUTH });
    assert.equal(last.headers.link, undefined);
    assert.equal((last.json as ListedPet[]).length, 50);
  });

  test('listPets pages through every pet exactly once by following the Link header', async () => {
    const seen: number[] = [];
    let path: string | undefined = '/v1/pets?limit=33';
    while (path !== undefined) {
      const reply = await call(core, 'GET', path, { headers: AUTH });
      seen.push(...(reply.json as ListedPet[]).map((pet) => pet.id));
      path = /^<([^>]+)>; rel="next"$/.exec(reply.headers.link ?? '')?.[1];
    }
    assert.deepEqual(seen, Array.from({ length: 150 }, (_, index) => index + 1));
  });

  test('listPets answers HEAD with the headers of GET and no body', async () => {
    const get = await call(core, 'GET', '/v1/pets?limit=3', { headers: AUTH });
    const head = await call(core, 'HEAD', '/v1/pets?limit=3', { headers: AUTH });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers.link, get.headers.link);
  });

  test('listPets and getPet answer every pet exactly, whatever the JSON cache has had to drop', async () => {
    const small = createTestCore({ jsonCacheSize: 4 });
    const created: unknown[] = [];
    for (let index = 0; index < 12; index++) {
      const reply = await call(small, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: `cached ${index}`, categoryId: index }) });
      created.push(reply.json);
    }
    for (let round = 0; round < 2; round++) {
      assert.deepEqual((await call(small, 'GET', '/v1/pets?limit=100', { headers: AUTH })).json, created);
      for (const [index, pet] of created.entries()) assert.deepEqual((await call(small, 'GET', `/v1/pets/${index + 1}`, { headers: AUTH })).json, pet);
    }
  });

  test('listPets answers a page correctly while it fills up and after it is full', async () => {
    const growing = createTestCore();
    const expected: unknown[] = [];
    for (let index = 0; index < 8; index++) {
      const reply = await call(growing, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: `grow ${index}`, categoryId: 1, status: 'sold' }) });
      expected.push(reply.json);
      for (const query of ['?limit=5', '?limit=5&status=sold', '?limit=3&after=2']) {
        const all = query.includes('after=2') ? expected.slice(2, 5) : expected.slice(0, 5);
        const listed = await call(growing, 'GET', `/v1/pets${query}`, { headers: AUTH });
        assert.deepEqual(listed.json, all, `${query} after ${index + 1} creates`);
      }
    }
  });

  test('listPets rebuilds a full page when the store returns other pets for the same query', async () => {
    const { createPetstore } = await import('../../../lib/index.js');
    let offset = 0;
    const pet = (id: number): { id: number; name: string; categoryId: number } => Object.freeze({ id, name: `pet ${id}`, categoryId: 1 });
    const storage = {
      insert: async () => pet(1),
      get: async () => undefined,
      // Like a database that was emptied and refilled: the same query now finds other pets.
      list: async (query: { limit: number }) => Array.from({ length: query.limit }, (_, index) => pet(offset + index + 1)),
    };
    const shifting = createTestCore({ store: createPetstore({ storage }) });
    const first = await call(shifting, 'GET', '/v1/pets?limit=3', { headers: AUTH });
    assert.deepEqual((first.json as { id: number }[]).map((listed) => listed.id), [1, 2, 3]);
    offset = 10;
    const second = await call(shifting, 'GET', '/v1/pets?limit=3', { headers: AUTH });
    assert.deepEqual((second.json as { id: number }[]).map((listed) => listed.id), [11, 12, 13]);
  });

  test('listPets stays correct across more distinct full pages than it keeps', async () => {
    // `after=-N` all mean "from the start" but are distinct queries: 600 of them outgrow the page memory.
    for (let batch = 0; batch < 12; batch++) {
      const replies = await Promise.all(Array.from({ length: 50 }, (_, index) => call(core, 'GET', `/v1/pets?limit=2&after=-${batch * 50 + index + 1}`, { headers: AUTH })));
      for (const reply of replies) assert.deepEqual((reply.json as ListedPet[]).map((pet) => pet.id), [1, 2]);
    }
    assert.deepEqual((await list('?limit=2&after=-1')).map((pet) => pet.id), [1, 2]);
  });

  test('listPets answers [] on an empty store', async () => {
    const empty = createTestCore();
    const reply = await call(empty, 'GET', '/v1/pets', { headers: AUTH });
    assert.equal(reply.text, '[]');
    assert.equal(reply.headers.link, undefined);
  });
});
