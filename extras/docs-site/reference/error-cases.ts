import { isJsonObject } from './schema-text.js';
import type { JsonSchema, OpenApiResponse } from '../openapi/types.js';

/** One Error `code` a response can carry, and when, as the document's description of the response says. */
export interface ErrorCaseText {
  readonly code: string;
  /** The sentence after "`code`: " in the response's description; undefined when it has none. */
  readonly when: string | undefined;
}

/** The codes an Error schema narrows `code` to: `allOf: [Error, { properties: { code: { enum } } }]`. */
function narrowedCodes(schema: JsonSchema): string[] {
  const parts = schema['allOf'];
  if (!Array.isArray(parts)) return [];
  for (const part of parts) {
    if (!isJsonObject(part) || !isJsonObject(part['properties'])) continue;
    const code = part['properties']['code'];
    const values = isJsonObject(code) ? code['enum'] : undefined;
    if (Array.isArray(values)) return values.filter((value): value is string => typeof value === 'string');
  }
  return [];
}

/**
 * The Error codes of a response, from its schema, each with the sentence of the description that
 * says when it is sent (the document writes "`code`: when." for each). Empty for a success.
 */
export function errorCasesOf(response: OpenApiResponse): ErrorCaseText[] {
  const schema = response.content?.['application/json']?.schema;
  const codes = schema === undefined ? [] : narrowedCodes(schema);
  const { description } = response;
  const starts = codes.map((code) => ({ code, start: description.indexOf(`\`${code}\`: `) }));
  return starts.map(({ code, start }) => {
    // What follows "`code`: " up to the next code's sentence, wherever the description lists it.
    const end = Math.min(description.length, ...starts.map((other) => other.start).filter((other) => other > start));
    return { code, when: start === -1 ? undefined : description.slice(start + code.length + 4, end).trim() };
  });
}
