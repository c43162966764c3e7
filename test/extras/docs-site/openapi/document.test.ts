import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { DEFAULT_LIMIT, ERROR_CODES, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, INTERFACE_VERSION, MAX_LIMIT, MAX_NAME_LENGTH, MIN_LIMIT, PET_STATUSES } from '../../../../lib/index.js';
import { NEW_PET_FIELDS, REQUIRED_NEW_PET_FIELDS } from '../../../../lib/validate.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { OpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { JsonValue } from '../../../../extras/docs-site/openapi/types.js';
import type { OpenApiOperation } from '../../../../extras/docs-site/openapi/types.js';
import type { OpenApiResponse } from '../../../../extras/docs-site/openapi/types.js';

/** Reads a nested value of a JSON document by keys, failing the test when one is missing. */
function at(value: JsonValue | undefined, ...keys: (string | number)[]): JsonValue {
  let current = value;
  for (const key of keys) {
    assert.ok(typeof current === 'object' && current !== null, `no ${String(key)} in ${JSON.stringify(current)}`);
    current = Array.isArray(current) ? (current as readonly JsonValue[])[Number(key)] : (current as { readonly [key: string]: JsonValue })[key];
  }
  assert.notEqual(current, undefined, `missing ${keys.join('.')}`);
  return current as JsonValue;
}

function operation(document: OpenApiDocument, path: string, method: 'get' | 'post'): OpenApiOperation {
  const found = document.paths[path]?.[method];
  assert.ok(found !== undefined, `${method} ${path} is documented`);
  return found;
}

/** The Error codes a documented error response allows. */
function codesOf(response: OpenApiResponse | undefined): JsonValue {
  return at(response?.content?.['application/json']?.schema, 'allOf', 1, 'properties', 'code', 'enum');
}

async function validate(document: OpenApiDocument): Promise<{ valid: boolean; version: string; errors: unknown }> {
  const validator = new Validator();
  // The validator wants a plain JSON object, as it would read from a file.
  const result = await validator.validate(JSON.parse(JSON.stringify(document)) as Record<string, unknown>);
  return { valid: result.valid, version: validator.version, errors: result.errors };
}

describe('createOpenApiDocument()', () => {
  const document = createOpenApiDocument({ bodyLimit: 65_536 });

  test('createOpenApiDocument() validates as OpenAPI 3.1, for the default and a mounted base path', async () => {
    for (const candidate of [document, createOpenApiDocument(), createOpenApiDocument({ basePath: '' }), createOpenApiDocument({ basePath: '/api/v1' })]) {
      const result = await validate(candidate);
      assert.deepEqual({ valid: result.valid, errors: result.errors }, { valid: true, errors: undefined });
      assert.equal(result.version, '3.1');
    }
  });

  test('createOpenApiDocument() names the interface version, the /v1 server and root-level bearer security [spec 1, 5, 9]', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, INTERFACE_VERSION);
    assert.equal(document.info.version, '1.0.0');
    assert.equal(document.servers[0]?.url, '/v1');
    assert.deepEqual(document.security, [{ bearerAuth: [] }]);
    assert.deepEqual({ ...document.components.securitySchemes['bearerAuth'], description: '' }, { type: 'http', scheme: 'bearer', description: '' });
    assert.equal(createOpenApiDocument({ basePath: '/api/v1' }).servers[0]?.url, '/api/v1');
    assert.equal(createOpenApiDocument({ basePath: '' }).servers[0]?.url, '.');
  });

  test('createOpenApiDocument() names the spec\'s operations, with getPet deprecated', () => {
    assert.equal(operation(document, '/pets', 'get').operationId, 'listPets');
    assert.equal(operation(document, '/pets', 'post').operationId, 'createPet');
    assert.equal(operation(document, '/pets/{petId}', 'get').operationId, 'getPet');
    assert.equal(operation(document, '/pets/{petId}', 'get').deprecated, true);
    assert.equal(operation(document, '/pets', 'get').deprecated, undefined);
    assert.deepEqual(operation(document, '/openapi.json', 'get').security, []);
  });

  test('createOpenApiDocument() has exactly the spec\'s three operations and the description\'s, each tagged with a tag the document defines', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).flatMap(([key, value]) => {
      return typeof value === 'object' && value !== null && 'responses' in value ? [[`${key} ${path}`, value.operationId, value.tags]] : [];
    }));
    assert.deepEqual(operations, [
      ['get /pets', 'listPets', ['pets']],
      ['post /pets', 'createPet', ['pets']],
      ['get /pets/{petId}', 'getPet', ['pets']],
      ['get /openapi.json', 'getOpenApiDescription', ['openapi']],
    ]);
    assert.deepEqual(document.tags.map((tag) => tag.name), ['openapi', 'pets']);
    for (const tag of document.tags) assert.ok(tag.description.length > 0, tag.name);
  });

  test('createOpenApiDocument() states HEAD and OPTIONS in each path\'s description and x-allow, not as operations', () => {
    const expected: Record<string, string> = { '/pets': 'GET, HEAD, POST, OPTIONS', '/pets/{petId}': 'GET, HEAD, OPTIONS', '/openapi.json': 'GET, HEAD, OPTIONS' };
    assert.deepEqual(Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [path, item['x-allow']])), expected);
    for (const [path, item] of Object.entries(document.paths)) {
      assert.ok(!('head' in item) && !('options' in item), path);
      assert.ok(item.description.includes('`HEAD` is answered as `GET` is'), path);
      assert.ok(item.description.includes(`\`OPTIONS\` is answered without a key: 204 with \`Allow: ${expected[path]}\``), path);
    }
    assert.match(document.info.description, /HEAD is answered wherever GET is/);
  });

  test('createOpenApiDocument() writes every summary as plain text, without Markdown', () => {
    const summaries: string[] = [];
    JSON.stringify(document, (key, value: unknown) => {
      if (key === 'summary' && typeof value === 'string') summaries.push(value);
      return value;
    });
    assert.ok(summaries.length > 50, `${summaries.length} summaries`);
    for (const summary of summaries) assert.doesNotMatch(summary, /[`*]|<[a-z]/i, summary);
  });

  test('createOpenApiDocument() declares no hop-by-hop header, which proxies drop (RFC 9110 §7.6.1)', () => {
    const declared = new Set<string>();
    JSON.stringify(document, (key, value: unknown) => {
      if (key === 'headers' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) declared.add(name.toLowerCase());
      return value;
    });
    assert.ok(declared.has('x-request-id'));
    for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection']) assert.ok(!declared.has(name), name);
  });

  test('createOpenApiDocument() takes the schemas from the constants the validators use', () => {
    const schemas = document.components.schemas;
    assert.deepEqual(at(schemas['PetStatus'], 'enum'), [...PET_STATUSES]);
    assert.deepEqual(Object.keys(at(schemas['NewPet'], 'properties') as object), [...NEW_PET_FIELDS]);
    assert.deepEqual(at(schemas['NewPet'], 'required'), [...REQUIRED_NEW_PET_FIELDS]);
    assert.equal(at(schemas['NewPet'], 'additionalProperties'), false);
    assert.equal(at(schemas['NewPet'], 'properties', 'name', 'maxLength'), MAX_NAME_LENGTH);
    assert.equal(at(schemas['NewPet'], 'properties', 'categoryId', 'maximum'), Number.MAX_SAFE_INTEGER);
    assert.deepEqual(Object.keys(at(schemas['Pet'], 'properties') as object), ['id', ...NEW_PET_FIELDS]);
    assert.deepEqual(at(schemas['Pets'], 'items'), { $ref: '#/components/schemas/Pet' });
    assert.deepEqual(at(schemas['Error'], 'properties', 'code', 'enum'), Object.keys(ERROR_CODES));
    assert.deepEqual(at(schemas['Error'], 'required'), ['code', 'message', 'status']);
    assert.equal(at(schemas['Error'], 'properties', 'details', 'type'), 'array');
  });

  test('createOpenApiDocument() documents limit as 1..100, default 20, with the clamping, and the status and after parameters [spec 4.1]', () => {
    const parameters = operation(document, '/pets', 'get').parameters ?? [];
    assert.deepEqual(parameters.map((parameter) => parameter.name), ['limit', 'status', 'after']);
    const [limit, status] = parameters;
    assert.deepEqual(limit?.schema, { type: 'integer', minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    assert.match(limit?.description ?? '', /clamped/);
    assert.deepEqual(status?.schema, { $ref: '#/components/schemas/PetStatus' });
  });

  test('createOpenApiDocument() documents the Location, Link and deprecation headers', () => {
    assert.equal(operation(document, '/pets', 'post').responses['201']?.headers?.['Location']?.required, true);
    assert.equal(operation(document, '/pets', 'get').responses['200']?.headers?.['Link']?.required, false);
    const getPet = operation(document, '/pets/{petId}', 'get');
    for (const status of ['200', '404', '500', '503']) {
      const headers = getPet.responses[status]?.headers ?? {};
      assert.deepEqual(headers['Deprecation']?.schema, { type: 'string', const: `@${GET_PET_DEPRECATED_AT}` }, status);
      assert.deepEqual(headers['Sunset']?.schema, { type: 'string', const: GET_PET_SUNSET }, status);
      assert.deepEqual(headers['Link']?.schema, { type: 'string', const: '</v1/pets>; rel="successor-version"' }, status);
    }
    // A 401 is sent before the operation is known; the 400 for a missing Host likewise.
    assert.equal(getPet.responses['401']?.headers?.['Deprecation'], undefined);
    assert.equal(getPet.responses['400']?.headers?.['Deprecation']?.required, false);
    assert.equal(operation(document, '/pets', 'get').responses['401']?.headers?.['WWW-Authenticate']?.required, true);
  });

  test('createOpenApiDocument() narrows each error response to the codes of its status', () => {
    for (const item of Object.values(document.paths)) {
      for (const method of ['get', 'post'] as const) {
        for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
          if (Number(status) < 400) continue;
          for (const code of codesOf(response) as string[]) assert.equal(ERROR_CODES[code as keyof typeof ERROR_CODES], Number(status), code);
        }
      }
    }
    assert.deepEqual(codesOf(operation(document, '/pets', 'post').responses['400']), ['bad_request', 'invalid_json', 'validation_failed', 'invalid_idempotency_key']);
    assert.deepEqual(['409', '422', '501'].map((status) => codesOf(operation(document, '/pets', 'post').responses[status] ?? { description: '' })), [
      ['idempotency_key_in_use'],
      ['idempotency_key_reused'],
      ['idempotency_unsupported'],
    ]);
  });

  test('createOpenApiDocument() documents every code of ERROR_CODES somewhere', () => {
    const documented = new Set<string>();
    const responses: OpenApiResponse[] = Object.values(document['x-shared-responses']);
    for (const item of Object.values(document.paths)) {
      for (const method of ['get', 'post'] as const) responses.push(...Object.values(item[method]?.responses ?? {}));
    }
    for (const response of responses) {
      if (response.content?.['application/json']?.schema['allOf'] !== undefined) for (const code of codesOf(response) as string[]) documented.add(code);
    }
    assert.deepEqual([...documented].sort(), Object.keys(ERROR_CODES).sort());
  });

  test('createOpenApiDocument() states the body limit only when given one', () => {
    assert.match(operation(document, '/pets', 'post').requestBody?.description ?? '', /at most 65536 bytes/);
    assert.match(operation(createOpenApiDocument(), '/pets', 'post').requestBody?.description ?? '', /the server's body limit/);
  });
});
