import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSameHeaders, createdCheck, errorCheck, missingHeaders, pageCheck, petCheck } from '../../bench/checks.js';
import type { Answer } from '../../bench/checks.js';
import type { CapturedAnswer } from '../../bench/servers/ceiling.js';
import { prefillPets } from '../../bench/servers/fixture.js';

const JSON_TYPE = ['Content-Type', 'application/json; charset=utf-8'];

function fixturePet(id: number): Record<string, unknown> {
  return { id, ...prefillPets()[id - 1] };
}

function answer(status: number, body: unknown, headers: string[] = JSON_TYPE): Answer {
  return { status, rawHeaders: headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

const FIRST_20 = Array.from({ length: 20 }, (_, index) => fixturePet(index + 1));

describe('the bench response checks', () => {
  test('pageCheck() accepts exactly the first pets of the prefill, with the status filter when given', () => {
    pageCheck(20).verify(answer(200, FIRST_20));
    const available = prefillPets().map((pet, index) => ({ id: index + 1, ...pet })).filter((pet) => pet.status === 'available').slice(0, 100);
    assert.equal(available.length, 100);
    pageCheck(100, 'available').verify(answer(200, available));
  });

  test('pageCheck() rejects a wrong status, a non-JSON type or body, and any page that is not the expected one', () => {
    const changed = FIRST_20.map((pet, index) => (index === 7 ? { ...pet, name: 'other' } : pet));
    const extraField = FIRST_20.map((pet, index) => (index === 0 ? { ...pet, extra: true } : pet));
    const cases: [string, Answer, RegExp][] = [
      ['status 201', answer(201, FIRST_20), /expected status 200, got 201/],
      ['text/plain', answer(200, FIRST_20, ['Content-Type', 'text/plain']), /JSON Content-Type/],
      ['no Content-Type', answer(200, FIRST_20, []), /JSON Content-Type/],
      ['a body that is not JSON', answer(200, '[{"id":1'), /not JSON/],
      ['19 pets', answer(200, FIRST_20.slice(1)), /first 20 pets/],
      ['one pet changed', answer(200, changed), /first 20 pets/],
      ['an extra field', answer(200, extraField), /first 20 pets/],
      ['the pets in another order', answer(200, [...FIRST_20].reverse()), /first 20 pets/],
    ];
    for (const [name, bad, message] of cases) assert.throws(() => pageCheck(20).verify(bad), message, name);
    assert.throws(() => pageCheck(100, 'available').verify(answer(200, FIRST_20)), /first 100 pets with status available/);
  });

  test('pageCheck() records Link and the headers of every answer as optional', () => {
    assert.deepEqual(pageCheck(20).optionalHeaders, ['Cache-Control', 'X-Content-Type-Options', 'X-Request-Id', 'Link']);
  });

  test('petCheck() accepts the prefilled pet of its id and rejects any other body', () => {
    petCheck(42).verify(answer(200, fixturePet(42)));
    petCheck(42).verifyHeaders(answer(200, fixturePet(42), []));
    assert.throws(() => petCheck(42).verify(answer(200, fixturePet(41))), /not pet 42/);
    assert.throws(() => petCheck(42).verify(answer(404, { code: 'not_found', message: 'x', status: 404 })), /expected status 200, got 404/);
    assert.deepEqual(petCheck(42).optionalHeaders, ['Cache-Control', 'X-Content-Type-Options', 'X-Request-Id', 'Deprecation', 'Sunset', 'Link']);
  });

  test('petCheck() refuses an id outside the prefill', () => {
    assert.throws(() => petCheck(1001), /pet 1001 is not among the 1000 prefilled pets/);
  });

  test('errorCheck() accepts an Error body of its status and rejects anything else', () => {
    errorCheck(401).verify(answer(401, { code: 'unauthorized', message: 'Missing key', status: 401 }));
    const cases: [string, Answer][] = [
      ['status 200', answer(200, { code: 'unauthorized', message: 'Missing key', status: 401 })],
      ['the body status differs', answer(401, { code: 'unauthorized', message: 'Missing key', status: 400 })],
      ['no code', answer(401, { message: 'Missing key', status: 401 })],
      ['a number message', answer(401, { code: 'unauthorized', message: 1, status: 401 })],
      ['fastify\'s own error shape', answer(401, { statusCode: 401, error: 'Unauthorized', message: 'Missing key' })],
      ['an array', answer(401, [])],
      ['null', answer(401, null)],
    ];
    for (const [name, bad] of cases) assert.throws(() => errorCheck(401).verify(bad), name);
    assert.ok(errorCheck(401).optionalHeaders.includes('WWW-Authenticate'));
    assert.ok(!errorCheck(404).optionalHeaders.includes('WWW-Authenticate'));
  });

  test('createdCheck() accepts the sent pet with a new id, and Location naming it in its header check, and rejects anything else', () => {
    const sent = { name: 'bench-pet', categoryId: 7, status: 'available' };
    const created = { id: 1001, ...sent };
    const good = answer(201, created, [...JSON_TYPE, 'Location', '/v1/pets/1001']);
    createdCheck(sent).verify(good);
    createdCheck(sent).verifyHeaders(good);
    createdCheck(sent).verify(answer(201, created));
    assert.throws(() => createdCheck(sent).verifyHeaders(answer(201, created)), /expected Location \/v1\/pets\/1001, got undefined/);
    assert.throws(() => createdCheck(sent).verifyHeaders(answer(201, created, [...JSON_TYPE, 'Location', '/v1/pets/1'])), /expected Location/);
    const cases: [string, Answer, RegExp][] = [
      ['status 200', answer(200, created, [...JSON_TYPE, 'Location', '/v1/pets/1001']), /expected status 201/],
      ['an id of the prefill', answer(201, { ...created, id: 1000 }, [...JSON_TYPE, 'Location', '/v1/pets/1000']), /no new integer id/],
      ['a string id', answer(201, { ...created, id: '1001' }, [...JSON_TYPE, 'Location', '/v1/pets/1001']), /no new integer id/],
      ['no body object', answer(201, 'null', [...JSON_TYPE, 'Location', '/v1/pets/1001']), /no new integer id/],
      ['another name', answer(201, { ...created, name: 'x' }, [...JSON_TYPE, 'Location', '/v1/pets/1001']), /not the one sent/],
    ];
    for (const [name, bad, message] of cases) assert.throws(() => createdCheck(sent).verify(bad), message, name);
  });

  test('missingHeaders() lists the optional headers an answer lacks, whatever their case', () => {
    const check = petCheck(42);
    const headers = ['cache-control', 'no-store', 'X-CONTENT-TYPE-OPTIONS', 'nosniff', 'Link', '</v1/pets>; rel="successor-version"'];
    assert.deepEqual(missingHeaders(check, answer(200, fixturePet(42), headers)), ['X-Request-Id', 'Deprecation', 'Sunset']);
  });
});

describe('checkSameHeaders()', () => {
  const captured: CapturedAnswer = {
    method: 'GET',
    target: '/v1/pets/42',
    status: 200,
    rawHeaders: ['Content-Type', 'application/json', 'X-Request-Id', 'FkgZlx7w_cMJWyAs-rw', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive'],
    body: '{"id":42}',
  };
  const withHeaders = (rawHeaders: string[], body = captured.body, status = 200): Answer => ({ status, rawHeaders, body });

  test('checkSameHeaders() accepts the same headers with another request id of the same shape and another date', () => {
    checkSameHeaders(captured, withHeaders(['Content-Type', 'application/json', 'X-Request-Id', 'abcdefghijklmn_--rx', 'Date', 'Tue, 24 Nov 2026 09:01:02 GMT', 'Connection', 'keep-alive']));
    checkSameHeaders(captured, withHeaders(['Content-Type', 'application/json', 'X-Request-Id', 'abcdefghijklmn_--4fti', 'Date', 'Tue, 24 Nov 2026 09:01:02 GMT', 'Connection', 'keep-alive']));
  });

  test('checkSameHeaders() rejects any other difference', () => {
    const cases: [string, Answer, RegExp][] = [
      ['another status', withHeaders(captured.rawHeaders, captured.body, 201), /expected status 200/],
      ['another body', withHeaders(captured.rawHeaders, '{"id":43}'), /body differs/],
      ['names in another order', withHeaders(['X-Request-Id', 'FkgZlx7w_cMJWyAs-rw', 'Content-Type', 'application/json', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive']), /header names differ/],
      ['a name in another case', withHeaders(['content-type', 'application/json', 'X-Request-Id', 'FkgZlx7w_cMJWyAs-rw', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive']), /header names differ/],
      ['a header missing', withHeaders(['Content-Type', 'application/json', 'X-Request-Id', 'FkgZlx7w_cMJWyAs-rw', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT']), /header names differ/],
      ['another value', withHeaders(['Content-Type', 'text/plain', 'X-Request-Id', 'FkgZlx7w_cMJWyAs-rw', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive']), /header content-type/],
      ['a request id without its counter', withHeaders(['Content-Type', 'application/json', 'X-Request-Id', 'FkgZlx7w_cMJWyAs-', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive']), /header x-request-id/],
      ['a request id of another shape', withHeaders(['Content-Type', 'application/json', 'X-Request-Id', 'FkgZlx7w_cMJWyAs+rw', 'Date', 'Mon, 23 Nov 2026 15:00:51 GMT', 'Connection', 'keep-alive']), /header x-request-id/],
      ['a date that is not an HTTP date', withHeaders(['Content-Type', 'application/json', 'X-Request-Id', 'FkgZlx7w_cMJWyAs-rw', 'Date', '2026-11-23T15:00:51Z', 'Connection', 'keep-alive']), /header date/],
    ];
    for (const [name, bad, message] of cases) assert.throws(() => checkSameHeaders(captured, bad), message, name);
  });
});
