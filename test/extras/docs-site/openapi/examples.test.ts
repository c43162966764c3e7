import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_CODES, GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from '../../../../lib/index.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { OpenApiDocument, OpenApiDocumentOptions } from '../../../../extras/docs-site/openapi/index.js';
import { operationsOf, refusedRequestsOf, requestKeysOf, responsesOf, schemaValidator, statusOfExample } from '../../../support/openapi-examples.js';
import { allowedMethods, DEFAULT_BODY_LIMIT, ROUTES } from '../../../../server/core/index.js';
import type { JsonValue } from '../../../../extras/docs-site/openapi/types.js';
import type { OpenApiExample } from '../../../../extras/docs-site/openapi/types.js';
import type { OpenApiResponse } from '../../../../extras/docs-site/openapi/types.js';

/** The documents checked: as the server serves it, without a body limit, and mounted under other base paths. */
const VARIANTS: Record<string, OpenApiDocumentOptions> = {
  served: { bodyLimit: DEFAULT_BODY_LIMIT },
  default: {},
  mounted: { basePath: '' },
  nested: { basePath: '/api/v1', bodyLimit: 1000 },
};

const DOCUMENTS: [string, OpenApiDocument][] = Object.entries(VARIANTS).map(([name, options]) => [name, createOpenApiDocument(options)]);

/** What the summary of an example says when no request alone produces its answer (a failing storage, a silent client). */
const NOT_REPLAYABLE = 'not replayable';

/** The headers the interface's learners most need examples of; every other header has them too. */
const HEADERS_WITH_EXAMPLES = ['Location', 'Link', 'Deprecation', 'Sunset', 'WWW-Authenticate', 'X-Request-Id', 'Allow'];

/** The Error codes a documented error response allows, or undefined for a response that is not an Error. */
function codesOf(response: OpenApiResponse): string[] | undefined {
  const allOf = response.content?.['application/json']?.schema['allOf'];
  if (!Array.isArray(allOf)) return undefined;
  const narrowed: unknown = allOf[1];
  const codes: unknown = typeof narrowed === 'object' && narrowed !== null ? Reflect.get(Reflect.get(Reflect.get(narrowed, 'properties'), 'code'), 'enum') : undefined;
  assert.ok(Array.isArray(codes) && codes.every((code) => typeof code === 'string'));
  return codes;
}

/** The JSON body examples of a response. */
function bodyExamples(response: OpenApiResponse | undefined): Record<string, OpenApiExample> {
  return response?.content?.['application/json']?.examples ?? {};
}

/** The fields of an Error example's value. */
function errorOf(example: OpenApiExample): { code: string; status: number; message: string } {
  const { value } = example;
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value));
  const { code, status, message } = value as { readonly [key: string]: JsonValue };
  assert.ok(typeof code === 'string' && typeof status === 'number' && typeof message === 'string', JSON.stringify(value));
  return { code, status, message };
}

function operationOf(document: OpenApiDocument, path: string, method: 'get' | 'post'): NonNullable<OpenApiDocument['paths'][string]['get']> {
  const found = document.paths[path]?.[method];
  assert.ok(found !== undefined, `${method} ${path}`);
  return found;
}

describe('createOpenApiDocument() examples', () => {
  test('createOpenApiDocument() gives every request body, response body, parameter and header examples, each with a summary and a value', () => {
    for (const [name, document] of DOCUMENTS) {
      const headersSeen = new Set<string>();
      for (const { where, response } of responsesOf(document)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {})) {
          const examples = Object.entries(content.examples ?? {});
          assert.ok(examples.length > 0, `${name}: ${where} ${mediaType} has no example`);
          for (const [key, example] of examples) {
            assert.ok(example.summary.length > 0, `${name}: ${where} ${key}`);
            assert.notEqual(example.value, undefined, `${name}: ${where} ${key}`);
          }
        }
        for (const [header, definition] of Object.entries(response.headers ?? {})) {
          const examples = Object.values(definition.examples ?? {});
          assert.ok(examples.length > 0, `${name}: ${where} ${header} has no example`);
          for (const example of examples) assert.equal(typeof example.value, 'string', `${name}: ${where} ${header}`);
          headersSeen.add(header);
        }
      }
      for (const header of HEADERS_WITH_EXAMPLES) assert.ok(headersSeen.has(header), `${name}: ${header}`);
      for (const { path, method, operation, parameters } of operationsOf(document)) {
        if (operation.requestBody !== undefined) assert.ok(Object.keys(bodyExamples({ description: '', content: operation.requestBody.content })).length > 0, `${name}: ${method} ${path} body`);
        for (const parameter of parameters) assert.ok(Object.keys(parameter.examples ?? {}).length > 0, `${name}: ${method} ${path} ${parameter.name}`);
      }
    }
  });

  test('createOpenApiDocument()\'s response and header examples validate against their schemas (ajv, JSON Schema 2020-12)', () => {
    for (const [name, document] of DOCUMENTS) {
      const check = schemaValidator(document);
      for (const { where, response } of responsesOf(document)) {
        for (const content of Object.values(response.content ?? {})) {
          for (const [key, example] of Object.entries(content.examples ?? {})) {
            const { valid, errors } = check(content.schema, example.value);
            assert.ok(valid, `${name}: ${where} example ${key}: ${errors}`);
          }
        }
        for (const [header, definition] of Object.entries(response.headers ?? {})) {
          for (const [key, example] of Object.entries(definition.examples ?? {})) {
            const { valid, errors } = check(definition.schema, example.value);
            assert.ok(valid, `${name}: ${where} ${header} example ${key}: ${errors}`);
          }
        }
      }
    }
  });

  test('createOpenApiDocument()\'s request examples all validate against their schemas, and none is refused with a 400', () => {
    for (const [name, document] of DOCUMENTS) {
      const check = schemaValidator(document);
      let checked = 0;
      for (const operation of operationsOf(document)) {
        const body = operation.operation.requestBody?.content['application/json'];
        for (const key of requestKeysOf(operation)) {
          const status = statusOfExample(operation.operation, key);
          assert.ok(status !== undefined && status !== 400, `${name}: ${operation.method} ${operation.path}: the request example ${key} is answered with ${status}`);
          const bodyExample = body?.examples?.[key];
          if (body !== undefined && bodyExample !== undefined) assert.ok(check(body.schema, bodyExample.value).valid, `${name}: ${operation.path} body ${key}`);
          for (const parameter of operation.parameters) {
            const example = parameter.examples?.[key];
            if (example !== undefined) assert.ok(check(parameter.schema, example.value).valid, `${name}: ${operation.path} ${parameter.name} ${key}`);
          }
          checked++;
        }
      }
      // listPets' three queries, getPet's one id, createPet's two bodies and its body with an Idempotency-Key.
      assert.equal(checked, 8, name);
    }
  });

  test('createOpenApiDocument()\'s refused requests are what the schemas refuse, each answered under its key by its operation\'s 400, whose example describes the request', () => {
    for (const [name, document] of DOCUMENTS) {
      const check = schemaValidator(document);
      const base = VARIANTS[name]?.basePath ?? '/v1';
      const refused = refusedRequestsOf(document, base);
      assert.deepEqual(refused.map((request) => `${request.operationId} ${request.key}`), [
        'listPets limitNotInteger', 'listPets unknownStatus', 'createPet missingName', 'createPet wrongStatus', 'createPet severalProblems', 'getPet notInteger',
      ], name);
      for (const request of refused) {
        const operation = operationsOf(document).find((candidate) => candidate.operation.operationId === request.operationId);
        assert.ok(operation !== undefined, request.operationId);
        const sent: boolean[] = [];
        const body = operation.operation.requestBody?.content['application/json'];
        if (request.body !== undefined && body !== undefined) sent.push(check(body.schema, request.body).valid);
        for (const [parameterName, value] of Object.entries(request.parameters)) {
          const parameter = operation.parameters.find((candidate) => candidate.name === parameterName);
          assert.ok(parameter !== undefined, `${request.key}: ${parameterName}`);
          sent.push(check(parameter.schema, value).valid);
        }
        // The lesson: what the schema refuses, the server refuses with a 400.
        assert.ok(sent.length > 0 && sent.includes(false), `${name}: ${request.key} validates`);
        assert.equal(statusOfExample(operation.operation, request.key), 400, `${name}: ${request.key}`);
        const answer = bodyExamples(operation.operation.responses['400'])[request.key];
        const line = `${request.method} ${base}${request.target}`;
        const expected = request.body === undefined ? `The request: \`${line}\`.` : `The request: \`${line}\` with the body \`${JSON.stringify(request.body)}\`.`;
        assert.deepEqual({ summary: answer?.summary, description: answer?.description }, { summary: request.summary, description: expected }, `${name}: ${request.key}`);
      }
    }
  });

  test('createOpenApiDocument() gives each Error response one example per code it allows, with that code and the response\'s status', () => {
    for (const [name, document] of DOCUMENTS) {
      for (const { where, status, response } of responsesOf(document)) {
        const codes = codesOf(response);
        if (codes === undefined) continue;
        const errors = Object.values(bodyExamples(response)).map(errorOf);
        assert.deepEqual([...new Set(errors.map((error) => error.code))].sort(), [...codes].sort(), `${name}: ${where}`);
        for (const error of errors) {
          assert.ok(codes.includes(error.code), `${name}: ${where} ${error.code}`);
          const statusOfCode = new Map<string, number>(Object.entries(ERROR_CODES)).get(error.code);
          assert.equal(error.status, status ?? statusOfCode, `${name}: ${where} ${error.code}`);
          assert.equal(error.status, statusOfCode, `${name}: ${where} ${error.code}`);
        }
      }
    }
  });

  test('createOpenApiDocument() answers each createPet body example under its own key with a 201, and each refused body with a 400 validation_failed', () => {
    const document = createOpenApiDocument();
    const createPet = operationOf(document, '/pets', 'post');
    const requests = Object.keys(createPet.requestBody?.content['application/json']?.examples ?? {});
    assert.deepEqual(requests, ['valid', 'withoutStatus', 'withKey']);
    assert.deepEqual(Object.keys(bodyExamples(createPet.responses['201'])), ['valid', 'withoutStatus', 'withKey', 'replayed']);
    assert.deepEqual(bodyExamples(createPet.responses['201'])['replayed']?.value, bodyExamples(createPet.responses['201'])['withKey']?.value);
    assert.deepEqual(Object.keys(createPet.responses['201']?.headers?.['Idempotent-Replayed']?.examples ?? {}), ['replayed']);
    assert.deepEqual(createPet.parameters?.map((parameter) => [parameter.name, parameter.in, Object.keys(parameter.examples ?? {})]), [['Idempotency-Key', 'header', ['withKey']]]);
    const rejected = bodyExamples(createPet.responses['400']);
    for (const key of ['missingName', 'wrongStatus', 'severalProblems']) assert.equal(errorOf(rejected[key] ?? { summary: '', value: null }).code, 'validation_failed', key);
    assert.deepEqual(rejected['severalProblems']?.value, {
      code: 'validation_failed',
      message: 'Cannot create pet: 3 problems, first: `id` is not a field of NewPet (allowed: `name`, `categoryId`, `status`)',
      status: 400,
      details: [
        { field: 'id', message: '`id` is not a field of NewPet (allowed: `name`, `categoryId`, `status`)' },
        { field: 'name', message: '`name` must not be empty' },
        { field: 'categoryId', message: '`categoryId` must be an integer, not a string' },
      ],
    });
    assert.deepEqual(bodyExamples(createPet.responses['201'])['withoutStatus']?.value, { id: 5, name: 'Milo', categoryId: 1 });
  });

  test('createOpenApiDocument() takes the header examples from the versioning constants and the base path', () => {
    const document = createOpenApiDocument({ basePath: '/api/v1' });
    const getPet = operationOf(document, '/pets/{petId}', 'get');
    for (const status of ['200', '400', '404']) {
      const headers = getPet.responses[status]?.headers ?? {};
      assert.deepEqual(Object.values(headers['Deprecation']?.examples ?? {}).map((example) => example.value), [`@${GET_PET_DEPRECATED_AT}`], status);
      assert.deepEqual(Object.values(headers['Sunset']?.examples ?? {}).map((example) => example.value), [GET_PET_SUNSET], status);
      assert.deepEqual(Object.values(headers['Link']?.examples ?? {}).map((example) => example.value), ['</api/v1/pets>; rel="successor-version"'], status);
    }
    assert.equal(GET_PET_SUNSET, 'Thu, 05 Dec 2030 00:00:00 GMT');
    const created = operationOf(document, '/pets', 'post').responses['201']?.headers?.['Location']?.examples ?? {};
    assert.deepEqual(Object.values(created).map((example) => example.value), ['/api/v1/pets/5', '/api/v1/pets/5', '/api/v1/pets/5', '/api/v1/pets/5']);
    const next = operationOf(document, '/pets', 'get').responses['200']?.headers?.['Link']?.examples ?? {};
    assert.deepEqual(Object.fromEntries(Object.entries(next).map(([key, example]) => [key, example.value])), {
      firstPage: '</api/v1/pets?limit=2&after=2>; rel="next"',
      available: '</api/v1/pets?limit=1&after=1&status=available>; rel="next"',
    });
    const challenges = operationOf(document, '/pets', 'get').responses['401']?.headers?.['WWW-Authenticate']?.examples ?? {};
    assert.deepEqual(Object.keys(challenges), Object.keys(bodyExamples(operationOf(document, '/pets', 'get').responses['401'])));
  });

  test('createOpenApiDocument() states the HTTP layer\'s default body limit in the 413 example when given none', () => {
    const tooLarge = (options: OpenApiDocumentOptions): JsonValue | undefined => bodyExamples(operationOf(createOpenApiDocument(options), '/pets', 'post').responses['413'])['tooLarge']?.value;
    assert.deepEqual(tooLarge({}), tooLarge({ bodyLimit: DEFAULT_BODY_LIMIT }));
    assert.deepEqual(tooLarge({ bodyLimit: 1000 }), { code: 'payload_too_large', message: 'Cannot create pet: the body must be at most 1000 bytes', status: 413 });
  });

  test('createOpenApiDocument() marks as not replayable exactly the answers no request produces: 500, 503 and 408', () => {
    for (const [name, document] of DOCUMENTS) {
      const marked = new Set<string>();
      for (const { response } of responsesOf(document)) {
        for (const example of Object.values(bodyExamples(response))) if (example.summary.includes(NOT_REPLAYABLE)) marked.add(errorOf(example).code);
      }
      assert.deepEqual([...marked].sort(), ['internal_error', 'request_timeout', 'unavailable'], name);
    }
  });

  test('createOpenApiDocument() states the Allow of each route of the route table, in x-allow, in the path\'s description and in the 405 example', () => {
    for (const [name, document] of DOCUMENTS) {
      for (const route of ROUTES) {
        const item = document.paths[route.path];
        assert.equal(item?.['x-allow'], allowedMethods(route), `${name}: ${route.path}`);
        assert.ok(item?.description.includes(`\`Allow: ${allowedMethods(route)}\``), `${name}: ${route.path}`);
      }
      const pets = ROUTES.find((route) => route.path === '/pets');
      assert.ok(pets !== undefined);
      const allow = document['x-shared-responses']['MethodNotAllowed']?.headers?.['Allow']?.examples?.['deletePets'];
      assert.equal(allow?.value, allowedMethods(pets), name);
    }
  });

  test('the example validator rejects examples that are wrong, so the checks above can fail', () => {
    const document = createOpenApiDocument();
    const check = schemaValidator(document);
    const createPet = operationOf(document, '/pets', 'post');
    const created = createPet.responses['201']?.content?.['application/json'];
    const rejected = createPet.responses['400']?.content?.['application/json'];
    const deprecation = operationOf(document, '/pets/{petId}', 'get').responses['200']?.headers?.['Deprecation'];
    assert.ok(created !== undefined && rejected !== undefined && deprecation !== undefined);
    const pet = { id: 5, name: 'Bella', categoryId: 2, status: 'pending' };
    const error = { code: 'validation_failed', message: 'Cannot create pet: `name` is required', status: 400 };
    assert.equal(check(created.schema, pet).valid, true);
    assert.equal(check(rejected.schema, error).valid, true);
    const wrong: [string, ReturnType<typeof check>][] = [
      ['an id sent as a string', check(created.schema, { ...pet, id: '4' })],
      ['a status outside PetStatus', check(created.schema, { ...pet, status: 'lost' })],
      ['a Pet without its id', check(created.schema, { name: 'Bella', categoryId: 2 })],
      ['an Error of another status', check(rejected.schema, { ...error, status: 401 })],
      ['an Error code of another status', check(rejected.schema, { ...error, code: 'not_found' })],
      ['an Error without a message', check(rejected.schema, { code: 'validation_failed', status: 400 })],
      ['another Deprecation date', check(deprecation.schema, '@0')],
    ];
    for (const [what, result] of wrong) assert.equal(result.valid, false, what);
  });
});
