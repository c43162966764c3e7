import assert from 'node:assert/strict';
// The named export: under NodeNext the default import of this CommonJS module types as the module, not the class.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { NewPet } from '../../lib/index.js';
import type { OpenApiDocument } from '../../extras/docs-site/openapi/index.js';
import type { JsonSchema } from '../../extras/docs-site/openapi/types.js';
import type { JsonValue } from '../../extras/docs-site/openapi/types.js';
import type { OpenApiMethod } from '../../extras/docs-site/openapi/types.js';
import type { OpenApiOperation } from '../../extras/docs-site/openapi/types.js';
import type { OpenApiParameter } from '../../extras/docs-site/openapi/types.js';
import type { OpenApiResponse } from '../../extras/docs-site/openapi/types.js';

/** The methods of a path item, in the order the document lists them. */
export const METHODS: readonly OpenApiMethod[] = ['get', 'post'];

/** One operation of a document, with the parameters of its path item before its own. */
export interface DocumentedOperation {
  path: string;
  method: OpenApiMethod;
  operation: OpenApiOperation;
  parameters: OpenApiParameter[];
}

/** Every operation of a document, in document order. */
export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation !== undefined) operations.push({ path, method, operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])] });
    }
  }
  return operations;
}

/** A response of the document: where it is, its status (undefined in `x-shared-responses`, where the Error body says it) and itself. */
export interface DocumentedResponse {
  where: string;
  status: number | undefined;
  response: OpenApiResponse;
}

/** Every response of a document: each status of each operation, then the shared ones. */
export function responsesOf(document: OpenApiDocument): DocumentedResponse[] {
  const responses: DocumentedResponse[] = [];
  for (const { path, method, operation } of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses)) responses.push({ where: `${method} ${path} ${status}`, status: Number(status), response });
  }
  for (const [name, response] of Object.entries(document['x-shared-responses'])) responses.push({ where: `x-shared-responses.${name}`, status: undefined, response });
  return responses;
}

/** The status under whose JSON body an operation keeps the example `key`, if any. */
export function statusOfExample(operation: OpenApiOperation, key: string): number | undefined {
  const statuses = Object.entries(operation.responses).filter(([, response]) => response.content?.['application/json']?.examples?.[key] !== undefined);
  assert.ok(statuses.length <= 1, `the example ${key} answers under ${statuses.length} statuses`);
  return statuses[0] === undefined ? undefined : Number(statuses[0][0]);
}

/** The keys of the request examples of an operation: its body's, and its parameters'. */
export function requestKeysOf(operation: DocumentedOperation): string[] {
  const keys = new Set(Object.keys(operation.operation.requestBody?.content['application/json']?.examples ?? {}));
  for (const parameter of operation.parameters) for (const key of Object.keys(parameter.examples ?? {})) keys.add(key);
  return [...keys];
}

/** The pets every example of the document assumes: created in this order into an empty store, so they hold ids 1 to 4. */
export const EXAMPLE_PETS: readonly NewPet[] = [
  { name: 'Rex', categoryId: 1, status: 'available' },
  { name: 'Tom', categoryId: 2, status: 'sold' },
  { name: 'Nemo', categoryId: 3 },
  { name: 'Luna', categoryId: 1, status: 'available' },
];

/**
 * A request the server refuses with a 400, which the document shows beside its answer (in the
 * description of the answer's example) but never as a request example: tools that replay request
 * examples (Dredd, Schemathesis, Prism) take those for valid requests.
 */
export interface RefusedRequest {
  operationId: string;
  /** The key of its answer among the examples of the operation's 400. */
  key: string;
  summary: string;
  method: string;
  /** The request target below the base path, query included, as sent: `/pets?limit=ten`. */
  target: string;
  /** The query and path parameters it sends, by name. */
  parameters: Record<string, string>;
  /** The JSON body it sends, if any. */
  body?: JsonValue;
}

/** How the example of a 400 states the refused request it answers. */
const REQUEST_STATED = /^The request: `(GET|POST) ([^`]+)`(?: with the body `(.+)`)?\.$/;

/** The refused requests a document states in the examples of its operations' 400 answers, in document order, below `basePath`. */
export function refusedRequestsOf(document: OpenApiDocument, basePath = '/v1'): RefusedRequest[] {
  const refused: RefusedRequest[] = [];
  for (const { path, operation } of operationsOf(document)) {
    for (const [key, example] of Object.entries(operation.responses['400']?.content?.['application/json']?.examples ?? {})) {
      const [, method = '', line = '', body] = REQUEST_STATED.exec(example.description ?? '') ?? [];
      if (line === '') continue;
      assert.ok(line.startsWith(`${basePath}/`), `${key}: ${line} is below ${basePath}`);
      const target = line.slice(basePath.length);
      const url = new URL(target, 'http://example.invalid');
      const template = new RegExp(`^${path.replace(/\{([^}]+)\}/g, '(?<$1>[^/]+)')}$`);
      const parameters = { ...Object.fromEntries(url.searchParams), ...template.exec(url.pathname)?.groups };
      const request: RefusedRequest = { operationId: operation.operationId ?? '', key, summary: example.summary, method, target, parameters };
      refused.push(body === undefined ? request : { ...request, body: JSON.parse(body) as JsonValue });
    }
  }
  return refused;
}

/** Where the component schemas are registered with ajv. */
const COMPONENTS_ID = 'urn:petstore:components';

/** A value of a schema with its `#/components/schemas/…` references pointing at the registered components. */
function rewriteValue(value: JsonValue): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  if (isJsonArray(value)) return value.map(rewriteValue);
  return rewriteSchema(value);
}

/** Array.isArray for the document's read-only arrays, which it does not narrow. */
function isJsonArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** A schema with its `#/components/schemas/…` references pointing at the registered components. */
function rewriteSchema(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).map(([keyword, value]) => [
    keyword,
    keyword === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`) : rewriteValue(value),
  ]));
}

/** Answers whether a value validates against a schema of the document, and why not. */
export type SchemaCheck = (schema: JsonSchema, value: unknown) => { valid: boolean; errors: string };

/**
 * A JSON Schema 2020-12 validator (ajv's 2020 build) for the schemas of one document, its component
 * schemas registered so `$ref`s resolve. Strict mode stays on, with the formats OpenAPI names
 * (`int64`, `uri-reference`) defined; `strictTypes` is off because OpenAPI's narrowing schemas
 * (`allOf: [{$ref: Error}, {properties: …}]`) leave `type` to the referenced schema.
 */
export function schemaValidator(document: OpenApiDocument): SchemaCheck {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  ajv.addFormat('uri-reference', { type: 'string', validate: (text: string) => URL.canParse(text, 'http://base.invalid/') && !/\s/.test(text) });
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteSchema(document.components.schemas) });
  const compiled = new Map<JsonSchema, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(rewriteSchema(schema));
      compiled.set(schema, validate);
    }
    const valid = validate(value);
    // No schema of the document is `$async`, so ajv answers synchronously.
    assert.equal(typeof valid, 'boolean');
    return { valid: valid === true, errors: ajv.errorsText(validate.errors) };
  };
}
