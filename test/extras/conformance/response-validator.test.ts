import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createResponseValidator, validateResponse } from '../../../extras/conformance/index.js';
import type { Departure } from '../../../extras/conformance/index.js';
import { createPetstore } from '../../../lib/index.js';
import { createOpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import { inject } from '../../../server/testing/index.js';
import { ANNOTATION_KEYWORDS } from '../../../extras/conformance/json-schema.js';
import { ASSERTION_KEYWORDS } from '../../../extras/conformance/json-schema.js';
import { createValidatorFor } from '../../../extras/conformance/response-validator.js';

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'validator-1' };
const DEPRECATION = { Deprecation: '@1767225600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', Link: '</v1/pets>; rel="successor-version"' };

function where(departures: readonly Departure[]): string[] {
  return departures.map((departure) => `${departure.location} ${departure.message}`);
}

/** A schema and the schemas nested in it. */
function collectSchemas(schema: unknown, found: Record<string, unknown>[]): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const object = schema as Record<string, unknown>;
  found.push(object);
  for (const [key, child] of Object.entries(object)) {
    if (key === 'items' || key === 'additionalProperties' || key === 'not') collectSchemas(child, found);
    if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(child)) for (const part of child) collectSchemas(part, found);
    if (key === 'properties' && typeof child === 'object' && child !== null) for (const property of Object.values(child)) collectSchemas(property, found);
  }
}

/** Every schema of a document: each `schema` of a parameter, header or media type, and each component schema. */
function schemasOf(node: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (typeof node !== 'object' || node === null) return found;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'schema') collectSchemas(child, found);
    else if (key === 'schemas' && typeof child === 'object' && child !== null) for (const schema of Object.values(child)) collectSchemas(schema, found);
    else schemasOf(child, found);
  }
  return found;
}

describe('validateResponse()', () => {
  test('validateResponse() finds no departure in what the server answers to each operation', async () => {
    const options = { store: createPetstore(), apiKeys: ['validator-key-0123456789'] };
    const auth = { authorization: 'Bearer key' };
    const exchanges: [string, Parameters<typeof inject>[1]][] = [
      ['createPet', { method: 'POST', url: '/v1/pets', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1,"status":"sold"}' }],
      ['createPet', { method: 'POST', url: '/v1/pets', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":7}' }],
      ['createPet', { method: 'POST', url: '/v1/pets', headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' }],
      ['listPets', { url: '/v1/pets?limit=1', headers: auth }],
      ['listPets', { url: '/v1/pets?limit=x', headers: auth }],
      ['listPets', { url: '/v1/pets' }],
      ['getPet', { url: '/v1/pets/1', headers: auth }],
      ['getPet', { url: '/v1/pets/99', headers: auth }],
      ['getPet', { url: '/v1/pets/x', headers: { authorization: 'Bearer wrong' } }],
    ];
    for (const [operationId, request] of exchanges) {
      const answer = await inject(options, request);
      assert.deepEqual(validateResponse(operationId, answer.status, answer.headers, answer.body === '' ? undefined : answer.json()), [], `${operationId} ${answer.status} ${answer.body}`);
    }
  });

  test('validateResponse() reports an undocumented status, naming the documented ones', () => {
    assert.match(where(validateResponse('getPet', 418, JSON_TYPE, {}))[0] ?? '', /^status 418 is not documented for getPet \(documented: 200, 400, 401, 404, 500, 503\)$/);
  });

  test('validateResponse() reports missing required headers and headers not matching their schema', () => {
    const pet = { id: 1, name: 'Rex', categoryId: 1 };
    assert.deepEqual(where(validateResponse('getPet', 200, JSON_TYPE, pet)), [
      'header Deprecation is required but was not sent',
      'header Sunset is required but was not sent',
      'header Link is required but was not sent',
    ]);
    assert.deepEqual(where(validateResponse('getPet', 200, { ...JSON_TYPE, ...DEPRECATION, Deprecation: 'true' }, pet)), ['header Deprecation must be "@1767225600", not "true"']);
    assert.deepEqual(where(validateResponse('listPets', 401, JSON_TYPE, { code: 'unauthorized', message: 'no', status: 401 })), ['header WWW-Authenticate is required but was not sent']);
    assert.deepEqual(where(validateResponse('listPets', 200, { 'Content-Type': 'application/json' }, [])), ['header X-Request-Id is required but was not sent']);
    assert.match(where(validateResponse('listPets', 200, { ...JSON_TYPE, 'X-Request-Id': 'two words' }, []))[0] ?? '', /^header X-Request-Id must match/);
  });

  test('validateResponse() reports bodies that depart from the schemas, the narrowed Error included', () => {
    const challenge = { ...JSON_TYPE, 'WWW-Authenticate': 'Bearer realm="petstore"' };
    assert.deepEqual(where(validateResponse('listPets', 200, JSON_TYPE, [{ id: '1', name: 'Rex', categoryId: 1, colour: 'red' }])), [
      'body[0].id must be an integer, not "1"',
      'body[0].colour is not a field of this object',
    ]);
    assert.deepEqual(where(validateResponse('listPets', 401, challenge, { code: 'not_found', message: 'no', status: 404 })), [
      'body.code must be one of "unauthorized", not "not_found"',
      'body.status must be 401, not 404',
    ]);
    assert.deepEqual(where(validateResponse('createPet', 201, { ...JSON_TYPE, Location: '/v1/pets/1' }, { name: 'Rex', categoryId: 1 })), ['body.id is required']);
  });

  test('validateResponse() reports a body of another media type, a missing body, and takes headers in any case', () => {
    const id = { 'x-request-id': 'validator-2' };
    assert.deepEqual(where(validateResponse('listPets', 200, { 'content-type': 'text/plain', ...id }, [])), ['header Content-Type must be application/json, not "text/plain"']);
    assert.deepEqual(where(validateResponse('listPets', 200, id, [])), ['header Content-Type must be application/json, not absent']);
    assert.deepEqual(where(validateResponse('listPets', 200, { 'CONTENT-TYPE': 'Application/JSON', 'X-REQUEST-ID': 'validator-3' }, undefined)), ['body must be application/json, but none was sent']);
    assert.deepEqual(validateResponse('listPets', 200, new Headers({ 'content-type': 'application/json', ...id }), []), []);
  });

  test('validateResponse() refuses an operationId the document does not have', () => {
    assert.throws(() => validateResponse('deletePet', 200, {}, undefined), /the OpenAPI document has no operation "deletePet"/);
  });

  test('createResponseValidator() expects the Link of a server at another base path', () => {
    const pet = { id: 1, name: 'Rex', categoryId: 1 };
    const atRoot = createResponseValidator({ basePath: '' });
    assert.deepEqual(atRoot('getPet', 200, { ...JSON_TYPE, ...DEPRECATION, Link: '</pets>; rel="successor-version"' }, pet), []);
    assert.deepEqual(where(atRoot('getPet', 200, { ...JSON_TYPE, ...DEPRECATION }, pet)), ['header Link must be "</pets>; rel=\\"successor-version\\"", not "</v1/pets>; rel=\\"successor-version\\""']);
  });

  test('createValidatorFor() finds operations and responses through $refs, status classes and default', () => {
    const validate = createValidatorFor({
      paths: {
        '/things': { $ref: '#/components/pathItems/Things' },
        '/other': { get: { responses: { default: { description: 'anything' } } } },
      },
      components: {
        pathItems: { Things: { put: { operationId: 'putThing', responses: { '2XX': { $ref: '#/components/responses/Ok' } } } } },
        responses: { Ok: { description: 'ok', headers: { ETag: { $ref: '#/components/headers/ETag' } }, content: { '*/*': { schema: { type: 'string' } } } } },
        headers: { ETag: { required: true, schema: { type: 'string', pattern: '^"' } } },
      },
    });
    assert.deepEqual(where(validate('putThing', 204, { ETag: 'x' }, 'text')), ['header ETag must match /^"/, not "x"']);
    assert.deepEqual(where(validate('putThing', 200, { ETag: '"1"', 'Content-Type': 'text/plain' }, 1)), ['body must be a string, not 1']);
    assert.deepEqual(where(validate('putThing', 404, {}, undefined)), ['status 404 is not documented for putThing (documented: 2XX)']);
    assert.throws(() => validate('getOther', 200, {}, undefined), /no operation "getOther"/);
  });

  test('the OpenAPI document uses only schema keywords that validateJson checks or ignores as annotations', () => {
    const known = new Set<string>([...ASSERTION_KEYWORDS, ...ANNOTATION_KEYWORDS]);
    const used = new Set(schemasOf(createOpenApiDocument()).flatMap((schema) => Object.keys(schema)));
    assert.ok(used.has('$ref') && used.has('additionalProperties') && used.has('pattern'), [...used].join(', '));
    assert.deepEqual([...used].filter((keyword) => !known.has(keyword)), []);
  });
});
