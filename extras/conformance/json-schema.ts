/** One way an answer departs from what is expected of it: where, and what was expected there. */
export interface Departure {
  /** `status`, `header Location`, `body`, `body[0].id`, … */
  readonly location: string;
  readonly message: string;
}

/** Resolves a local `$ref` such as `#/components/schemas/Pet` against the document it belongs to. */
export type RefResolver = (ref: string) => unknown;

/**
 * The keywords validateJson checks: exactly those the project's OpenAPI document uses, which
 * test/extras/conformance/response-validator.test.ts holds it to; a document that starts using another fails there first.
 */
export const ASSERTION_KEYWORDS = [
  '$ref', 'type', 'enum', 'const', 'required', 'properties', 'patternProperties', 'additionalProperties', 'items', 'maxItems',
  'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'allOf',
] as const;

/** Keywords that only annotate (JSON Schema 2020-12 §7.7: `format` too, by default), so validateJson ignores them. */
export const ANNOTATION_KEYWORDS = [
  'description', 'title', 'format', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', '$comment', '$schema', '$id',
] as const;

/** At most this many departures are collected from one value, however broken it is. */
const MAX_DEPARTURES = 20;

/** Deepest nesting of schemas (through `$ref`s too) followed; deeper means a cycle in the document. */
const MAX_SCHEMA_DEPTH = 32;

/** What validating one value carries along. */
interface Validation {
  readonly resolve: RefResolver;
  readonly departures: Departure[];
}

/** A JSON Schema object, as far as this validator reads one. */
type Schema = Readonly<Record<string, unknown>>;

/** Whether a value is an object that is neither null nor an array. */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short rendering of a received value for a message: never long, never the whole of an untrusted body. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isObject(value)) return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The location of a property below `location`: `body.id`, or `body["two words"]`. */
function propertyLocation(location: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${location}.${key}` : `${location}[${JSON.stringify(key.slice(0, 60))}]`;
}

function depart(validation: Validation, location: string, message: string): void {
  if (validation.departures.length < MAX_DEPARTURES) validation.departures.push({ location, message });
}

/** Equality of JSON values; recursion follows the expected value, which comes from the schema, never the received one alone. */
function jsonEqual(expected: unknown, received: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(received) && received.length === expected.length && expected.every((item, index) => jsonEqual(item, received[index]));
  }
  if (isObject(expected)) {
    if (!isObject(received)) return false;
    const keys = Object.keys(expected);
    return Object.keys(received).length === keys.length && keys.every((key) => Object.hasOwn(received, key) && jsonEqual(expected[key], received[key]));
  }
  return expected === received;
}

/** Whether a value has one JSON Schema type. */
function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'array': return Array.isArray(value);
    case 'object': return isObject(value);
    default: return false;
  }
}

/** `type`: false (and a departure) when the value has none of the types named. */
function checkType(schema: Schema, value: unknown, location: string, validation: Validation): boolean {
  const { type } = schema;
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  if (types.some((candidate) => hasType(value, candidate))) return true;
  const named = types.map((candidate) => (candidate === 'integer' || candidate === 'object' || candidate === 'array' ? `an ${candidate}` : `a ${String(candidate)}`));
  depart(validation, location, `must be ${named.join(' or ')}, not ${describeValue(value)}`);
  return false;
}

/** `enum` and `const`. */
function checkValue(schema: Schema, value: unknown, location: string, validation: Validation): void {
  const allowed: unknown = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((candidate: unknown) => jsonEqual(candidate, value))) {
    const shown = allowed.slice(0, 5).map((candidate: unknown) => JSON.stringify(candidate)).join(', ');
    depart(validation, location, `must be one of ${shown}${allowed.length > 5 ? `, … (${allowed.length} values)` : ''}, not ${describeValue(value)}`);
  }
  if (Object.hasOwn(schema, 'const') && !jsonEqual(schema['const'], value)) {
    depart(validation, location, `must be ${JSON.stringify(schema['const'])}, not ${describeValue(value)}`);
  }
}

/** One numeric bound: `keyword` holds when `holds(value, bound)`. */
function checkBound(schema: Schema, keyword: string, holds: (value: number, bound: number) => boolean, words: string, value: number, location: string, validation: Validation): void {
  const bound = schema[keyword];
  if (typeof bound === 'number' && !holds(value, bound)) depart(validation, location, `must be ${words} ${bound}, not ${describeValue(value)}`);
}

/** `minimum` and `maximum`. */
function checkNumber(schema: Schema, value: number, location: string, validation: Validation): void {
  checkBound(schema, 'minimum', (number, bound) => number >= bound, 'at least', value, location, validation);
  checkBound(schema, 'maximum', (number, bound) => number <= bound, 'at most', value, location, validation);
}

/** Compiled patterns, by source. */
const patterns = new Map<string, RegExp>();

/** `minLength`, `maxLength` (in code points, as JSON Schema counts) and `pattern` (ECMA-262, unanchored). */
function checkString(schema: Schema, value: string, location: string, validation: Validation): void {
  const { minLength, maxLength, pattern } = schema;
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    let length = 0;
    for (const _ of value) length++;
    if (typeof minLength === 'number' && length < minLength) depart(validation, location, `must be at least ${minLength} characters long, not ${length}`);
    if (typeof maxLength === 'number' && length > maxLength) depart(validation, location, `must be at most ${maxLength} characters long, not ${length}`);
  }
  if (typeof pattern === 'string' && !compiled(pattern).test(value)) depart(validation, location, `must match /${pattern}/, not ${describeValue(value)}`);
}

/** `items` and `maxItems`: each item is checked against the one item schema, one level deeper in the schema. */
function checkArray(schema: Schema, value: readonly unknown[], location: string, validation: Validation, depth: number): void {
  const { items, maxItems } = schema;
  if (typeof maxItems === 'number' && value.length > maxItems) depart(validation, location, `must have at most ${maxItems} items, not ${value.length}`);
  if (!isObject(items)) return;
  for (let index = 0; index < value.length && validation.departures.length < MAX_DEPARTURES; index++) {
    checkSchema(items, value[index], `${location}[${index}]`, validation, depth + 1);
  }
}

/** A compiled `pattern` or `patternProperties` key (ECMA-262, unanchored); the document's are few and fixed. */
function compiled(pattern: string): RegExp {
  let expression = patterns.get(pattern);
  if (expression === undefined) {
    expression = new RegExp(pattern, 'u');
    patterns.set(pattern, expression);
  }
  return expression;
}

/** The schemas that apply to one property: its `properties` entry and every matching `patternProperties` entry. */
function propertySchemas(schema: Schema, key: string): Schema[] {
  const applying: Schema[] = [];
  const { properties, patternProperties } = schema;
  if (isObject(properties) && Object.hasOwn(properties, key) && isObject(properties[key])) applying.push(properties[key]);
  if (isObject(patternProperties)) {
    for (const [pattern, child] of Object.entries(patternProperties)) if (isObject(child) && compiled(pattern).test(key)) applying.push(child);
  }
  return applying;
}

/** `required`, `properties`, `patternProperties`, `additionalProperties`. */
function checkObject(schema: Schema, value: Readonly<Record<string, unknown>>, location: string, validation: Validation, depth: number): void {
  const { required, additionalProperties } = schema;
  if (Array.isArray(required)) {
    for (const name of required) {
      if (typeof name === 'string' && !Object.hasOwn(value, name)) depart(validation, propertyLocation(location, name), 'is required');
    }
  }
  for (const key of Object.keys(value)) {
    if (validation.departures.length >= MAX_DEPARTURES) return;
    const applying = propertySchemas(schema, key);
    for (const child of applying) checkSchema(child, value[key], propertyLocation(location, key), validation, depth + 1);
    if (applying.length > 0) continue;
    if (additionalProperties === false) depart(validation, propertyLocation(location, key), 'is not a field of this object');
    else if (isObject(additionalProperties)) checkSchema(additionalProperties, value[key], propertyLocation(location, key), validation, depth + 1);
  }
}

/** Checks a value against one schema; recursion follows the schema, so it is bounded by the schema's depth. */
function checkSchema(schema: Schema, value: unknown, location: string, validation: Validation, depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH) throw new TypeError(`validateJson: schemas nest deeper than ${MAX_SCHEMA_DEPTH} levels at ${location}; is a $ref cyclic?`);
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = validation.resolve(ref);
    if (!isObject(target)) throw new TypeError(`validateJson: cannot resolve $ref ${JSON.stringify(ref)}`);
    checkSchema(target, value, location, validation, depth + 1);
  }
  const { allOf } = schema;
  if (Array.isArray(allOf)) for (const part of allOf) if (isObject(part)) checkSchema(part, value, location, validation, depth + 1);
  if (!checkType(schema, value, location, validation)) return;
  checkValue(schema, value, location, validation);
  if (typeof value === 'number') checkNumber(schema, value, location, validation);
  else if (typeof value === 'string') checkString(schema, value, location, validation);
  else if (Array.isArray(value)) checkArray(schema, value, location, validation, depth);
  else if (isObject(value)) checkObject(schema, value, location, validation, depth);
}

/**
 * The departures of a JSON value from a JSON Schema 2020-12 schema, for the keywords in
 * ASSERTION_KEYWORDS (annotations and `format` are ignored). At most 20 are reported. A `$ref` that
 * does not resolve, or schemas nested deeper than 32 levels, are defects of the schema and throw.
 */
export function validateJson(schema: unknown, value: unknown, options: { resolve: RefResolver; location?: string }): Departure[] {
  const validation: Validation = { resolve: options.resolve, departures: [] };
  if (isObject(schema)) checkSchema(schema, value, options.location ?? 'body', validation, 0);
  return validation.departures;
}

/** Resolves a JSON Pointer fragment (`#/components/schemas/Pet`, RFC 6901) against a document, through own properties only. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let target: unknown = document;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(target) || !Object.hasOwn(target, key)) return undefined;
    target = target[key];
  }
  return target;
}
