import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { constraintsHtml, exampleOf, examplesOf, propertiesOf, resolveSchema } from '../../../../extras/docs-site/reference/schema-text.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { JsonSchema } from '../../../../extras/docs-site/openapi/types.js';

const DOCUMENT = createOpenApiDocument();

describe('the reference page\'s reading of schemas', () => {
  test('constraintsHtml() says a schema\'s type, format, range, enum, pattern, constant and default in words', () => {
    const cases: [JsonSchema, string][] = [
      [{ type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'integer, 1 to 100, default <code>20</code>'],
      [{ type: 'integer', format: 'int64', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, 'integer (int64), −(2^53 − 1) to 2^53 − 1'],
      [{ type: 'integer', minimum: 0 }, 'integer, at least 0'],
      [{ type: 'number', maximum: 5 }, 'number, at most 5'],
      [{ type: 'string', minLength: 1, maxLength: 256, pattern: '\\S' }, 'string, 1 to 256 characters, pattern <code>\\S</code>'],
      [{ type: 'string', maxLength: 3 }, 'string, at most 3 characters'],
      [{ type: 'string', const: 'close' }, 'string, always <code>&quot;close&quot;</code>'],
      [{ enum: ['a<b', 2] }, 'one of <code>&quot;a&lt;b&quot;</code>, <code>2</code>'],
      [{ $ref: '#/components/schemas/PetStatus' }, '<a href="#schema-PetStatus">PetStatus</a>, one of <code>&quot;available&quot;</code>, <code>&quot;pending&quot;</code>, <code>&quot;sold&quot;</code>'],
      [{ description: 'anything' }, ''],
    ];
    for (const [schema, expected] of cases) assert.equal(constraintsHtml(DOCUMENT, schema), expected, JSON.stringify(schema));
  });

  test('resolveSchema() follows a reference to a component and leaves anything else as it is', () => {
    assert.equal(resolveSchema(DOCUMENT, { $ref: '#/components/schemas/Pet' }), DOCUMENT.components.schemas['Pet']);
    for (const schema of [{ $ref: '#/components/schemas/Nothing' }, { $ref: 'https://example.com/schema' }, { type: 'string' }]) assert.equal(resolveSchema(DOCUMENT, schema), schema);
  });

  test('exampleOf() builds a value each schema accepts: constants, defaults, enums, objects, arrays and scalars', () => {
    const cases: [JsonSchema, unknown][] = [
      [{ $ref: '#/components/schemas/NewPet' }, { name: 'Rex', categoryId: 1, status: 'available' }],
      [{ $ref: '#/components/schemas/Pets' }, [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]],
      [{ const: 'close' }, 'close'],
      [{ type: 'integer', default: 20 }, 20],
      [{ enum: ['sold'] }, 'sold'],
      [{ type: 'integer', minimum: 7 }, 7],
      [{ type: 'integer', minimum: -5 }, 1],
      [{ type: 'number' }, 1],
      [{ type: 'boolean' }, true],
      [{ type: 'string', minLength: 6 }, 'Rexxxx'],
      [{ type: 'array' }, []],
      [{ type: 'object' }, {}],
      [{ properties: { a: { type: 'string' }, b: 'not a schema' } }, { a: 'Rex' }],
      [{ type: 'null' }, null],
      [{}, null],
    ];
    for (const [schema, expected] of cases) assert.deepEqual(exampleOf(DOCUMENT, schema), expected, JSON.stringify(schema));
  });

  test('exampleOf() stops at a bounded depth on a schema that nests without end', () => {
    const nested: JsonSchema = { type: 'array', items: { $ref: '#/components/schemas/Loop' } };
    const document = { ...DOCUMENT, components: { ...DOCUMENT.components, schemas: { ...DOCUMENT.components.schemas, Loop: nested } } };
    assert.deepEqual(exampleOf(document, nested), [[[[[[null]]]]]]);
  });

  test('examplesOf() reads the examples of a media type, header or parameter in order, and skips those that are not JSON examples', () => {
    const holder = {
      examples: {
        first: { summary: 'The first', value: { name: 'Rex' } },
        second: { value: 'no summary' },
        noValue: { summary: 'missing' },
        notAnObject: 'x',
        infinite: { value: Number.POSITIVE_INFINITY },
        withFunction: { value: { call: () => undefined } },
        deep: { value: JSON.parse('['.repeat(30) + ']'.repeat(30)) as unknown },
      },
    };
    assert.deepEqual(examplesOf(holder), [
      { key: 'first', summary: 'The first', value: { name: 'Rex' } },
      { key: 'second', summary: undefined, value: 'no summary' },
    ]);
    assert.deepEqual(examplesOf({}), []);
    assert.deepEqual(examplesOf({ examples: ['a list'] }), []);
  });

  test('propertiesOf() lists an object schema\'s properties with whether each is required, and none for other schemas', () => {
    const newPet = DOCUMENT.components.schemas['NewPet'];
    assert.ok(newPet !== undefined);
    assert.deepEqual(propertiesOf(newPet).map(({ name, isRequired }) => [name, isRequired]), [['name', true], ['categoryId', true], ['status', false]]);
    assert.deepEqual(propertiesOf({ type: 'string' }), []);
    assert.deepEqual(propertiesOf({ properties: { a: { type: 'string' }, b: true } }).map(({ name, isRequired }) => [name, isRequired]), [['a', false]]);
  });
});
