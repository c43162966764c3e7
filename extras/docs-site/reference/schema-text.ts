import type { OpenApiDocument } from '../openapi/index.js';
import { escapeHtml } from './html.js';
import type { JsonSchema, JsonValue } from '../openapi/types.js';

const COMPONENT_PREFIX = '#/components/schemas/';

/** How deep an example is built; the document's schemas nest three levels at most (Pets → Pet → PetStatus). */
const EXAMPLE_DEPTH = 6;

/** Whether a JSON value is an object (a schema, or an object of the document), not an array or a scalar. */
export function isJsonObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name of the component a schema refers to, when it is a `$ref` to `components.schemas`. */
export function componentNameOf(schema: JsonSchema): string | undefined {
  const reference = schema['$ref'];
  return typeof reference === 'string' && reference.startsWith(COMPONENT_PREFIX) ? reference.slice(COMPONENT_PREFIX.length) : undefined;
}

/** A schema with its `$ref` to a component followed (one step: the components refer to each other only by name). */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = componentNameOf(schema);
  return name === undefined ? schema : document.components.schemas[name] ?? schema;
}

/** A keyword's value when it is a number. */
function numberOf(schema: JsonSchema, keyword: string): number | undefined {
  const value = schema[keyword];
  return typeof value === 'number' ? value : undefined;
}

/** How a bound reads: the largest safe integers as the interface's ±(2^53 − 1). */
function boundText(value: number): string {
  if (value === Number.MAX_SAFE_INTEGER) return '2^53 − 1';
  if (value === -Number.MAX_SAFE_INTEGER) return '−(2^53 − 1)';
  return String(value);
}

/** The range a schema allows, from its minimum and maximum (of a number) or its lengths (of a string). */
function rangeText(schema: JsonSchema): string | undefined {
  const isString = schema['type'] === 'string';
  const low = numberOf(schema, isString ? 'minLength' : 'minimum');
  const high = numberOf(schema, isString ? 'maxLength' : 'maximum');
  const unit = isString ? ' characters' : '';
  if (low !== undefined && high !== undefined) return `${boundText(low)} to ${boundText(high)}${unit}`;
  if (low !== undefined) return `at least ${boundText(low)}${unit}`;
  return high === undefined ? undefined : `at most ${boundText(high)}${unit}`;
}

/**
 * A schema's type and constraints in a few words of HTML: `integer, 1 to 100, default 20`, or
 * `PetStatus: one of "available", …`, with a link to a component's own description.
 */
export function constraintsHtml(document: OpenApiDocument, schema: JsonSchema): string {
  const name = componentNameOf(schema);
  const resolved = resolveSchema(document, schema);
  const parts: string[] = [];
  if (name !== undefined) parts.push(`<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`);
  const { type, format } = resolved;
  if (typeof type === 'string' && name === undefined) parts.push(typeof format === 'string' ? `${type} (${escapeHtml(format)})` : type);
  const values = resolved['enum'];
  if (Array.isArray(values)) parts.push(`one of ${values.map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`).join(', ')}`);
  const range = rangeText(resolved);
  if (range !== undefined) parts.push(range);
  const { pattern } = resolved;
  if (typeof pattern === 'string') parts.push(`pattern <code>${escapeHtml(pattern)}</code>`);
  if ('const' in resolved) parts.push(`always <code>${escapeHtml(JSON.stringify(resolved['const']))}</code>`);
  if ('default' in resolved) parts.push(`default <code>${escapeHtml(JSON.stringify(resolved['default']))}</code>`);
  return parts.join(', ');
}

/**
 * A value a schema accepts, built from the schema alone: what the page shows where the document holds no example.
 * An object gets its properties; a number the smallest positive value its minimum allows; a string a name as long as its minimum length.
 */
export function exampleOf(document: OpenApiDocument, schema: JsonSchema, depth = 0): JsonValue {
  const resolved = resolveSchema(document, schema);
  const values = resolved['enum'];
  const given = resolved['const'] ?? resolved['default'] ?? (Array.isArray(values) ? values[0] : undefined);
  if (given !== undefined) return given;
  if (depth >= EXAMPLE_DEPTH) return null;
  const { type, items, properties } = resolved;
  if (type === 'array') return isJsonObject(items) ? [exampleOf(document, items, depth + 1)] : [];
  if (type === 'object' || isJsonObject(properties)) {
    return Object.fromEntries(propertiesOf(resolved).map((property) => [property.name, exampleOf(document, property.schema, depth + 1)]));
  }
  if (type === 'integer' || type === 'number') return Math.max(numberOf(resolved, 'minimum') ?? 1, 1);
  if (type === 'boolean') return true;
  return type === 'string' ? 'Rex'.padEnd(numberOf(resolved, 'minLength') ?? 0, 'x') : null;
}

/** The properties of an object schema, each with whether it is required, in the schema's order. */
export function propertiesOf(schema: JsonSchema): { name: string; schema: JsonSchema; isRequired: boolean }[] {
  const { properties, required } = schema;
  if (!isJsonObject(properties)) return [];
  const requiredNames = Array.isArray(required) ? required : [];
  return Object.entries(properties).flatMap(([name, property]) => (isJsonObject(property) ? [{ name, schema: property, isRequired: requiredNames.includes(name) }] : []));
}

/** One example of the document: a Media Type's, a Header's or a Parameter's `examples` entry [OpenAPI 3.1 §4.8.19]. */
export interface DocumentExample {
  readonly key: string;
  readonly summary: string | undefined;
  /** More about the example, in CommonMark: for the answer to a refused request, the request. */
  readonly description?: string;
  readonly value: JsonValue;
}

/** Whether a value is JSON, checked to a bounded depth (examples are small). */
function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth > 20 || typeof value !== 'object') return false;
  return Object.values(value).every((item: unknown) => isJsonValue(item, depth + 1));
}

/** The `examples` an object of the document holds (a Media Type, a Header, a Parameter), in order; none when it has none. */
export function examplesOf(holder: object): DocumentExample[] {
  const examples: unknown = Reflect.get(holder, 'examples');
  if (!isJsonObject(examples)) return [];
  return Object.entries(examples).flatMap(([key, example]) => {
    if (!isJsonObject(example) || !('value' in example)) return [];
    const { summary, description, value } = example;
    if (!isJsonValue(value)) return [];
    const found: DocumentExample = { key, summary: typeof summary === 'string' ? summary : undefined, value };
    return [typeof description === 'string' ? { ...found, description } : found];
  });
}
