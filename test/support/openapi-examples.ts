import assert from 'node:assert/strict';
// The named export: under NodeNext the default import of this CommonJS module types as the module, not the class.
import { Ajv2020 } from 'ajv/dist/2020.js';
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
