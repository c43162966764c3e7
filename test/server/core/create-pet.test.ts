import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AUTH, JSON_POST, assertError } from '../../support/http.js';
import { call, createTestCore } from '../../support/inject.js';
import type { TestCore } from '../../support/inject.js';

describe('POST /v1/pets (createPet)', () => {
  let core: TestCore;
  before(async () => {
    core = createTestCore({ bodyLimit: 1024 });
  });

  test('createPet answers 201 with the Pet, a Location and the JSON headers', async () => {
    const reply = await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":7,"status":"available"}' });
    assert.equal(reply.status, 201);
    const pet = reply.json as { id: number };
    assert.deepEqual(pet, { id: pet.id, name: 'Rex', categoryId: 7, status: 'available' });
    assert.equal(reply.headers.location, `/v1/pets/${pet.id}`);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(reply.headers['cache-control'], 'no-store');
    assert.equal(reply.headers['x-content-type-options'], 'nosniff');
    assert.equal(reply.headers.deprecation, undefined);
    const fetched = await call(core, 'GET', reply.headers.location ?? '', { headers: AUTH });
    assert.deepEqual(fetched.json, pet);
  });

  test('createPet stores no default status', async () => {
    const reply = await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Tom","categoryId":1}' });
    assert.equal(reply.status, 201);
    assert.equal(reply.text, `{"id":${(reply.json as { id: number }).id},"name":"Tom","categoryId":1}`);
  });

  test('createPet accepts application/json with parameters, in any case', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', ' application/json ']) {
      const reply = await call(core, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': contentType }, body: '{"name":"Ct","categoryId":1}' });
      assert.equal(reply.status, 201, contentType);
    }
  });

  test('createPet answers 415 with Accept-Post for any other media type', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'application/json-patch+json', 'json', undefined]) {
      const headers: Record<string, string> = { ...AUTH };
      if (contentType !== undefined) headers['content-type'] = contentType;
      const reply = await call(core, 'POST', '/v1/pets', { headers, body: '{"name":"x","categoryId":1}' });
      assertError(reply, 415, 'unsupported_media_type', /Content-Type: application\/json/);
      assert.equal(reply.headers['accept-post'], 'application/json');
    }
  });

  test('createPet answers 400 invalid_json for empty, malformed and non-UTF-8 bodies', async () => {
    const bodies: [string | Buffer, RegExp][] = [
      ['', /empty/],
      ['{', /^Cannot create pet: the body is not valid JSON \(the body ends before the JSON value is complete, at line 1, column 2\)$/],
      ["{'name':'x'}", /^Cannot create pet: the body is not valid JSON \(unexpected `'` where a property name in double quotes was expected, at line 1, column 2\)$/],
      ['{"name":"x","categoryId":1}trailing', /^Cannot create pet: the body is not valid JSON \(unexpected `t` after the JSON value; send one value only, at line 1, column 28\)$/],
      [Buffer.from([0x7b, 0x22, 0x6e, 0xff, 0x22, 0x7d]), /not valid UTF-8/],
      [Buffer.from([0xc3, 0x28]), /not valid UTF-8/],
      [Buffer.from([0xed, 0xa0, 0x80]), /not valid UTF-8/],
    ];
    for (const [body, message] of bodies) {
      const reply = await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body });
      assertError(reply, 400, 'invalid_json', message);
    }
  });

  test('createPet ignores a UTF-8 byte order mark (RFC 8259 §8.1)', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Bom","categoryId":1}')]);
    const reply = await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body });
    assert.equal(reply.status, 201);
    assert.equal((reply.json as { name: string }).name, 'Bom');
  });

  test('createPet answers 400 validation_failed with every problem in details', async () => {
    const reply = await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"","categoryId":"1","status":"lost","id":5}' });
    const body = assertError(reply, 400, 'validation_failed');
    assert.deepEqual(body.details?.map((detail) => detail.field).sort(), ['categoryId', 'id', 'name', 'status']);
  });

  test('createPet rejects non-object JSON and prototype keys', async () => {
    for (const body of ['[]', 'null', '"pet"', '42', '{"__proto__":{"name":"x","categoryId":1}}', '{"name":"x","categoryId":1,"constructor":{}}']) {
      assertError(await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body }), 400, 'validation_failed');
    }
  });

  test('createPet creates nothing for any rejected request', async () => {
    const before = (await core.store.listPets({ limit: 100 })).length;
    await call(core, 'POST', '/v1/pets', { headers: { 'content-type': 'application/json' }, body: '{"name":"NoAuth","categoryId":1}' });
    await call(core, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'text/plain' }, body: '{"name":"Wrong","categoryId":1}' });
    await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Bad","categoryId":1.5}' });
    assert.equal((await core.store.listPets({ limit: 100 })).length, before);
  });

  test('createPet answers 415 for a content-coded body, naming the coding it accepts (RFC 9110 §8.4)', async () => {
    for (const coding of ['gzip', 'br', 'deflate, gzip']) {
      const reply = await call(core, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'content-encoding': coding }, body: '{"name":"Coded","categoryId":1}' });
      assertError(reply, 415, 'unsupported_media_type', /without a content coding/);
      assert.equal(reply.headers['accept-encoding'], 'identity');
    }
    const identity = await call(core, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'content-encoding': 'Identity' }, body: '{"name":"Plain","categoryId":1}' });
    assert.equal(identity.status, 201);
  });

  test('createPet checks auth before the media type, and the media type before the body', async () => {
    assertError(await call(core, 'POST', '/v1/pets', { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(5000) }), 401, 'unauthorized');
    assertError(await call(core, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'x'.repeat(5000) }), 415, 'unsupported_media_type');
    assertError(await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: 'x'.repeat(5000) }), 413, 'payload_too_large');
    assertError(await call(core, 'POST', '/v1/pets', { headers: JSON_POST, body: 'x' }), 400, 'invalid_json');
  });
});
