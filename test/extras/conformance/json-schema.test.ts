import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { describe, test } from 'node:test';
import type { OpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import { schemaValidator } from '../../support/openapi-examples.js';
import { resolvePointer } from '../../../extras/conformance/json-schema.js';
import { validateJson } from '../../../extras/conformance/json-schema.js';

const DOCUMENT = {
  components: {
    schemas: {
      Status: { type: 'string', enum: ['available', 'pending', 'sold'] },
      Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 }, status: { $ref: '#/components/schemas/Status' } }, additionalProperties: false },
      Loop: { $ref: '#/components/schemas/Loop' },
      'a/b~c': { const: 1 },
    },
  },
};

const resolve = (ref: string): unknown => resolvePointer(DOCUMENT, ref);

function departures(schema: unknown, value: unknown): string[] {
  return validateJson(schema, value, { resolve }).map((departure) => `${departure.location} ${departure.message}`);
}

describe('validateJson()', () => {
  test('validateJson() checks each keyword the OpenAPI document uses, naming where and what was expected', () => {
    const cases: [unknown, unknown, string[]][] = [
      [{ type: 'integer' }, 1.5, ['body must be an integer, not 1.5']],
      [{ type: 'integer' }, 2, []],
      [{ type: ['string', 'null'] }, null, []],
      [{ type: 'object' }, [], ['body must be an object, not an array of 0']],
      [{ type: 'array' }, {}, ['body must be an array, not an object']],
      [{ type: 'number' }, 'x', ['body must be a number, not "x"']],
      [{ type: 'boolean' }, true, []],
      [{ enum: ['a', 'b'] }, 'c', ['body must be one of "a", "b", not "c"']],
      [{ enum: [1, 2, 3, 4, 5, 6, 7] }, 8, ['body must be one of 1, 2, 3, 4, 5, … (7 values), not 8']],
      [{ enum: [{ a: [1] }] }, { a: [1] }, []],
      [{ const: 'close' }, 'keep-alive', ['body must be "close", not "keep-alive"']],
      [{ minimum: 1, maximum: 100 }, 0, ['body must be at least 1, not 0']],
      [{ minimum: 1, maximum: 100 }, 101, ['body must be at most 100, not 101']],
      [{ minLength: 2, maxLength: 3 }, '😀', ['body must be at least 2 characters long, not 1']],
      [{ maxLength: 3 }, 'abcd', ['body must be at most 3 characters long, not 4']],
      [{ pattern: '\\S' }, '   ', ['body must match /\\S/, not "   "']],
      [{ pattern: '^Bearer realm=' }, 'Bearer realm="x"', []],
      [{ type: 'array', items: { type: 'integer' }, maxItems: 2 }, [1, 'x', 3], ['body must have at most 2 items, not 3', 'body[1] must be an integer, not "x"']],
      [{ required: ['id', 'name'] }, { id: 1 }, ['body.name is required']],
      [{ properties: { 'two words': { type: 'string' } } }, { 'two words': 1 }, ['body["two words"] must be a string, not 1']],
      [{ additionalProperties: false, properties: {} }, { extra: 1 }, ['body.extra is not a field of this object']],
      [{ additionalProperties: { type: 'string' } }, { extra: 1 }, ['body.extra must be a string, not 1']],
      [{ patternProperties: { '^/': { type: 'object' } }, additionalProperties: false }, { '/pets': 1, other: {} }, ['body["/pets"] must be an object, not 1', 'body.other is not a field of this object']],
      [{ allOf: [{ type: 'object' }, { required: ['code'] }] }, {}, ['body.code is required']],
      [{ $ref: '#/components/schemas/Pet' }, { id: 0, status: 'lost', colour: 'red' }, [
        'body.id must be at least 1, not 0',
        'body.status must be one of "available", "pending", "sold", not "lost"',
        'body.colour is not a field of this object',
      ]],
      [{ $ref: '#/components/schemas/a~1b~0c' }, 2, ['body must be 1, not 2']],
      [{ description: 'only annotations', format: 'int64', default: 3, examples: [1] }, 'anything', []],
    ];
    for (const [schema, value, expected] of cases) assert.deepEqual(departures(schema, value), expected, JSON.stringify(schema));
  });

  test('validateJson() reports at most 20 departures of a body with a million bad items', () => {
    const found = departures({ type: 'array', items: { type: 'integer' } }, Array.from({ length: 1_000_000 }, () => 'x'));
    assert.equal(found.length, 20);
  });

  test('validateJson() follows the schema, not the value, so a deeply nested body costs one level', () => {
    let value: unknown = [];
    for (let depth = 0; depth < 100_000; depth++) value = [value];
    assert.deepEqual(departures({ type: 'array', items: { type: 'integer' } }, value), ['body[0] must be an integer, not an array of 1']);
    assert.deepEqual(departures({ enum: [[[1]]] }, value), ['body must be one of [[1]], not an array of 1']);
  });

  test('validateJson() refuses a schema whose $ref does not resolve or loops', () => {
    assert.throws(() => departures({ $ref: '#/components/schemas/Missing' }, 1), /cannot resolve \$ref "#\/components\/schemas\/Missing"/);
    assert.throws(() => departures({ $ref: 'http://example.com/schema' }, 1), /cannot resolve/);
    assert.throws(() => departures({ $ref: '#/components/schemas/Loop' }, 1), /nest deeper than 32 levels/);
  });

  test('resolvePointer() reads own properties only', () => {
    assert.equal(resolvePointer(DOCUMENT, '#/components/schemas/toString'), undefined);
    assert.equal(resolvePointer(DOCUMENT, '#/components/__proto__'), undefined);
    assert.equal(resolvePointer(DOCUMENT, '#'), DOCUMENT);
  });
});

describe('validateJson() beside ajv', () => {
  test('validateJson() agrees with ajv (JSON Schema 2020-12) on every component schema of the served document, for valid and broken values', async () => {
    const document = JSON.parse(await readFile(resolvePath(import.meta.dirname, '../../../openapi.json'), 'utf8')) as OpenApiDocument;
    const check = schemaValidator(document);
    const rex = { id: 1, name: 'Rex', categoryId: 1 };
    const values: unknown[] = [
      rex, { ...rex, status: 'sold' }, { ...rex, id: 0 }, { ...rex, status: 'lost' }, { ...rex, extra: true }, { name: 'Rex', categoryId: 1 },
      { name: '', categoryId: 1 }, { name: 'x'.repeat(257), categoryId: 1 }, { name: 'Rex', categoryId: 1.5 }, { name: 'Rex' }, { name: 7, categoryId: 1 },
      'sold', 'lost', [], [rex], [rex, {}], { code: 'not_found', message: 'No pet', status: 404 }, { code: 'not_found', message: 'No pet' },
      { code: 'not_found', message: 'No pet', status: 404, details: [{ field: 'name', message: 'm' }] }, null, 42, true, {},
    ];
    let compared = 0;
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      for (const value of values) {
        const ours = validateJson(schema, value, { resolve: (ref) => resolvePointer(document, ref) });
        const theirs = check(schema, value);
        assert.equal(ours.length === 0, theirs.valid, `${name} ${JSON.stringify(value).slice(0, 80)}: ours ${JSON.stringify(ours)}, ajv ${theirs.errors}`);
        compared++;
      }
    }
    assert.ok(compared >= 100, `${compared} comparisons`);
  });
});
