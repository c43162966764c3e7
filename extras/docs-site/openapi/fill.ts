import { DEFAULT_LIMIT, ERROR_CODES, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, IN_FLIGHT_RETRY_AFTER, INTERFACE_VERSION } from '../../../lib/index.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH, MAX_LIMIT, MAX_NAME_LENGTH, MAX_SAFE_ID, MIN_LIMIT, NEW_PET_FIELDS, PET_STATUSES, REQUIRED_NEW_PET_FIELDS } from '../../../lib/index.js';
import { ORDER_OF_CHECKS, UNAVAILABLE_RETRY_AFTER } from '../../../server/core/index.js';
import DECISIONS from './decisions.json' with { type: 'json' };
import type { JsonValue } from './types.js';

/** What a placeholder of the data may be filled with, by its name. */
export type DataValues = Readonly<Record<string, JsonValue>>;

/** `{{NAME}}` in a string of the data, filled with the text of the value; `{ "$const": "NAME" }` is replaced by the value itself. */
const PLACEHOLDER = /\{\{([^}]+)\}\}/g;

/**
 * The package's public constants by the names the data's placeholders use: the limits, the versioning,
 * the error codes and the fields the validators apply, so no number of the data can disagree with them.
 */
export const CONSTANT_VALUES: DataValues = {
  MIN_LIMIT, MAX_LIMIT, DEFAULT_LIMIT, MAX_NAME_LENGTH, MAX_IDEMPOTENCY_KEY_LENGTH, MAX_SAFE_ID, MIN_SAFE_ID: -MAX_SAFE_ID,
  IN_FLIGHT_RETRY_AFTER, UNAVAILABLE_RETRY_AFTER, INTERFACE_VERSION, GET_PET_DEPRECATED_AT, GET_PET_SUNSET,
  DEPRECATED_AT_ISO: new Date(GET_PET_DEPRECATED_AT * 1000).toISOString().replace('.000Z', 'Z'),
  ERROR_CODES: Object.keys(ERROR_CODES), ERROR_STATUSES: [...new Set(Object.values(ERROR_CODES))], ERROR_CODE_COUNT: Object.keys(ERROR_CODES).length,
  PET_STATUSES: [...PET_STATUSES], NEW_PET_FIELDS: [...NEW_PET_FIELDS],
  REQUIRED_NEW_PET_FIELDS: [...REQUIRED_NEW_PET_FIELDS], PET_REQUIRED_FIELDS: ['id', ...REQUIRED_NEW_PET_FIELDS],
  ORDER_OF_CHECKS: ORDER_OF_CHECKS.map(([check]) => check).join(' → '),
};

/** The value of one placeholder; a name the values lack is a defect of the data, never silently left. */
function valueOf(name: string, values: DataValues): JsonValue {
  const value = values[name];
  if (value === undefined) throw new Error(`The docs site's data names {{${name}}}, which nothing fills`);
  return value;
}

/** The data with every placeholder filled from `values`. */
export function fillData(data: JsonValue, values: DataValues): JsonValue {
  if (typeof data === 'string') return data.replace(PLACEHOLDER, (_, name: string) => String(valueOf(name, values)));
  if (Array.isArray(data)) return data.map((item: JsonValue) => fillData(item, values));
  if (typeof data !== 'object' || data === null) return data;
  const entries = Object.entries(data);
  const [[key, name] = []] = entries;
  if (entries.length === 1 && key === '$const' && typeof name === 'string') return valueOf(name, values);
  return Object.fromEntries(entries.map(([field, value]) => [field, fillData(value, values)]));
}

/** A size in bytes as people read it: `65536 bytes (64 KiB)`. */
function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes} bytes (${bytes / 1024} KiB)` : `${bytes} bytes`;
}

/** What the document quotes of a decision where the interface is silent; extras/docs-site/reference/decisions.ts types the rest. */
export interface DecisionText {
  readonly id: string;
  readonly decision: string;
  readonly reason: string;
}

/** The decisions where the interface is silent (decisions.json), filled for a handler whose body limit is `bodyLimit`. */
export function filledDecisions(bodyLimit: number): readonly DecisionText[] {
  // decisions.json is checked data of this folder; test/extras/docs-site/openapi/data.test.ts holds its shape.
  return fillData(DECISIONS, { ...CONSTANT_VALUES, bodyLimitSize: sizeText(bodyLimit) }) as unknown as readonly DecisionText[];
}
