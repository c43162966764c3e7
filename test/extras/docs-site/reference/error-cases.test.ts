import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCasesOf } from '../../../../extras/docs-site/reference/error-cases.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { JsonSchema } from '../../../../extras/docs-site/openapi/types.js';
import type { OpenApiResponse } from '../../../../extras/docs-site/openapi/types.js';

/** An Error response whose code is narrowed to `codes`, with this description. */
function errorResponse(description: string, schema: JsonSchema): OpenApiResponse {
  return { description, content: { 'application/json': { schema } } };
}

const NARROWED: JsonSchema = { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: ['bad_request', 'invalid_parameter'] }, status: { const: 400 } } }] };

test('errorCasesOf() pairs each code a response narrows to with the sentence its description gives it', () => {
  const response = errorResponse('`bad_request`: No `Host` header. `invalid_parameter`: `limit` is malformed: not a number.', NARROWED);
  assert.deepEqual(errorCasesOf(response), [
    { code: 'bad_request', when: 'No `Host` header.' },
    { code: 'invalid_parameter', when: '`limit` is malformed: not a number.' },
  ]);
  const document = createOpenApiDocument();
  const notFound = document.paths['/pets/{petId}']?.get?.responses['404'];
  assert.ok(notFound !== undefined);
  assert.deepEqual(errorCasesOf(notFound), [{ code: 'not_found', when: 'No animal has this id [spec 4.3].' }]);
});

test('errorCasesOf() keeps a code its description does not explain, and finds none in a success or an unnarrowed schema', () => {
  assert.deepEqual(errorCasesOf(errorResponse('Something went wrong.', NARROWED)), [{ code: 'bad_request', when: undefined }, { code: 'invalid_parameter', when: undefined }]);
  assert.deepEqual(errorCasesOf({ description: 'A page of animals.' }), []);
  for (const schema of [{ $ref: '#/components/schemas/Pet' }, { allOf: 'no' }, { allOf: [1, { properties: 'no' }, { properties: { code: 'no' } }] }, { allOf: [{ properties: { code: { enum: [1, 'unauthorized'] } } }] }]) {
    const expected = JSON.stringify(schema).includes('unauthorized') ? [{ code: 'unauthorized', when: undefined }] : [];
    assert.deepEqual(errorCasesOf(errorResponse('x', schema)), expected, JSON.stringify(schema));
  }
});
