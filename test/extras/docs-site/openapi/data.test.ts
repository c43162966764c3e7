import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_LIMIT, ERROR_CODES, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, IN_FLIGHT_RETRY_AFTER, INTERFACE_VERSION, MAX_IDEMPOTENCY_KEY_LENGTH } from '../../../../lib/index.js';
import { MAX_LIMIT, MAX_NAME_LENGTH, MAX_SAFE_ID, MIN_LIMIT, PET_STATUSES, REQUIRED_NEW_PET_FIELDS } from '../../../../lib/index.js';
import { DEFAULT_BODY_LIMIT, UNAVAILABLE_RETRY_AFTER } from '../../../../server/core/index.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { OpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import { CONSTANT_VALUES, fillData } from '../../../../extras/docs-site/openapi/fill.js';
import TEMPLATE from '../../../../extras/docs-site/openapi/openapi.template.json' with { type: 'json' };
import DECISIONS from '../../../../extras/docs-site/openapi/decisions.json' with { type: 'json' };
import { referenceDecisions } from '../../../../extras/docs-site/reference/decisions.js';

const DATA = resolve(import.meta.dirname, '..', '..', '..', '..', 'extras', 'docs-site', 'openapi');

/** Text with the numbers removed that no constant of the package names: `100-continue`, SHA-256, `1e2` as 100, and the most entries of `details` (20, not exported). */
function withoutOtherNumbers(text: string): string {
  return text.replaceAll('100-continue', '').replaceAll('SHA-256', '').replaceAll('`1e2` and `-0` are the integers 1, 100 and 0', '').replaceAll('(at most 20)', '').replaceAll('at most 20, then one summary entry', '');
}

/** Where a value stands alone in a text (not inside a longer number or word), with the text around it, or undefined. */
function standingAlone(text: string, value: string | number): string | undefined {
  const escaped = String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`(?<![\\w.])${escaped}(?![\\w.])`).exec(text);
  return found === null ? undefined : text.slice(Math.max(0, found.index - 60), found.index + 60);
}

/** The value at a path of keys inside a JSON value, or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? Reflect.get(inner, key) : undefined), value);
}

/** The parts of a document the limits show in: the list's parameters, the schemas, createPet's and getPet's texts. */
function limitsOf(document: OpenApiDocument): Record<string, unknown> {
  const list = document.paths['/pets']?.get;
  const create = document.paths['/pets']?.post;
  const parameter = (name: string): unknown => list?.parameters?.find((candidate) => candidate.name === name)?.schema;
  const { schemas } = document.components;
  return {
    limit: parameter('limit'),
    after: parameter('after'),
    name: at(schemas, 'NewPet', 'properties', 'name'),
    categoryId: at(schemas, 'Pet', 'properties', 'categoryId'),
    id: at(schemas, 'Pet', 'properties', 'id'),
    pageSize: schemas['Pets']?.['maxItems'],
    version: document.info.version,
    keyText: `${create?.parameters?.[0]?.description ?? ''} ${create?.responses['400']?.description ?? ''}`,
    retryAfter: [create?.responses['409']?.headers?.['Retry-After']?.examples?.['keyInFlight']?.value, create?.responses['503']?.headers?.['Retry-After']?.examples?.['storageOutage']?.value],
  };
}

describe('the docs site\'s data', () => {
  test('createOpenApiDocument() states the limits, versioning and error codes of the package\'s public constants', () => {
    const document = createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT });
    const limits = limitsOf(document);
    assert.deepEqual(limits['limit'], { type: 'integer', minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    assert.deepEqual(limits['after'], { type: 'integer', format: 'int64', minimum: -MAX_SAFE_ID, maximum: MAX_SAFE_ID });
    assert.equal(at(limits, 'name', 'maxLength'), MAX_NAME_LENGTH);
    assert.deepEqual([at(limits, 'categoryId', 'minimum'), at(limits, 'categoryId', 'maximum')], [-MAX_SAFE_ID, MAX_SAFE_ID]);
    assert.equal(at(limits, 'id', 'maximum'), MAX_SAFE_ID);
    assert.equal(limits['pageSize'], MAX_LIMIT);
    assert.equal(limits['version'], INTERFACE_VERSION);
    assert.ok(String(limits['keyText']).includes(`1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`) && String(limits['keyText']).includes(`longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`));
    assert.deepEqual(limits['retryAfter'], [String(IN_FLIGHT_RETRY_AFTER), String(UNAVAILABLE_RETRY_AFTER)]);
    const { schemas } = document.components;
    assert.deepEqual(at(schemas, 'Error', 'properties', 'code', 'enum'), Object.keys(ERROR_CODES));
    assert.deepEqual(schemas['PetStatus']?.['enum'], [...PET_STATUSES]);
    assert.deepEqual(schemas['Pet']?.['required'], ['id', ...REQUIRED_NEW_PET_FIELDS]);
    const deprecation = document.paths['/pets/{petId}']?.get?.responses['200']?.headers;
    assert.deepEqual([deprecation?.['Deprecation']?.schema['const'], deprecation?.['Sunset']?.schema['const']], [`@${GET_PET_DEPRECATED_AT}`, GET_PET_SUNSET]);
  });

  test('the docs site\'s data types no limit by hand: each value of a public constant is a placeholder the package fills', async () => {
    const text = withoutOtherNumbers((await Promise.all(['openapi.template.json', 'decisions.json'].map((file) => readFile(join(DATA, file), 'utf8')))).join('\n'));
    const typed: [string, string | number][] = [
      ['DEFAULT_LIMIT', DEFAULT_LIMIT], ['MAX_LIMIT', MAX_LIMIT], ['MAX_NAME_LENGTH', MAX_NAME_LENGTH], ['MAX_IDEMPOTENCY_KEY_LENGTH', MAX_IDEMPOTENCY_KEY_LENGTH],
      ['MAX_SAFE_ID', MAX_SAFE_ID], ['DEFAULT_BODY_LIMIT', DEFAULT_BODY_LIMIT], ['GET_PET_DEPRECATED_AT', GET_PET_DEPRECATED_AT], ['GET_PET_SUNSET', GET_PET_SUNSET],
      ['INTERFACE_VERSION', INTERFACE_VERSION],
    ];
    for (const [name, value] of typed) assert.equal(standingAlone(text, value), undefined, `${name} (${value}) is typed in the data instead of {{${name}}}`);
    // The scan can fail: the filled document states every one of them.
    const filled = withoutOtherNumbers(JSON.stringify(createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT })));
    for (const [name, value] of typed) assert.notEqual(standingAlone(filled, value), undefined, name);
  });

  test('the docs site\'s data follows a changed constant: filled with other values, the document and the decisions state those everywhere', () => {
    const changed = { ...CONSTANT_VALUES, MIN_LIMIT: 2, MAX_LIMIT: 7, DEFAULT_LIMIT: 5, MAX_NAME_LENGTH: 9, MAX_IDEMPOTENCY_KEY_LENGTH: 11, MAX_SAFE_ID: 99, MIN_SAFE_ID: -99 };
    const filledDecisions = fillData(DECISIONS, { ...changed, bodyLimitSize: '1000 bytes' });
    assert.ok(Array.isArray(filledDecisions));
    const quoted = Object.fromEntries(filledDecisions.flatMap((decision) => ['decision', 'reason'].map((field) => [`${String(at(decision, 'id'))}.${field}`, at(decision, field)])));
    const values = { ...changed, ...quoted, basePath: '/v1', serverUrl: '/v1', bodyLimitText: '1000 bytes', exampleBodyLimit: 1000 };
    const document = fillData(TEMPLATE, values) as unknown as OpenApiDocument;
    const limits = limitsOf(document);
    assert.deepEqual(limits['limit'], { type: 'integer', minimum: 2, maximum: 7, default: 5 });
    assert.equal(at(limits, 'name', 'maxLength'), 9);
    assert.equal(limits['pageSize'], 7);
    assert.ok(String(limits['keyText']).includes('1 to 11 characters') && String(limits['keyText']).includes('longer than 11 characters'));
    const text = JSON.stringify(document);
    assert.ok(text.includes('(2 to 7; others are clamped)'));
    for (const old of [MAX_LIMIT, MAX_NAME_LENGTH, MAX_IDEMPOTENCY_KEY_LENGTH, MAX_SAFE_ID]) assert.equal(standingAlone(withoutOtherNumbers(text), old), undefined, `${old} is left`);
    assert.ok(text.includes('clamped into 2..7') && text.includes('1 to 9 code points'), 'the document quotes the decisions with the changed limits');
    const decisionText = JSON.stringify(filledDecisions);
    assert.ok(decisionText.includes('`limit` outside 2..7') && decisionText.includes('Paging past the first 7'));
  });

  test('fillData() fills text, replaces a {"$const": name} by the value itself, and throws for a name nothing fills', () => {
    assert.deepEqual(fillData({ text: 'at most {{N}} of {{M}}', value: { $const: 'N' }, list: [{ $const: 'L' }, 'plain', 3, null, true] }, { N: 7, M: 'many', L: ['a'] }), {
      text: 'at most 7 of many', value: 7, list: [['a'], 'plain', 3, null, true],
    });
    assert.deepEqual(fillData({ $const: 'N', other: 1 }, { N: 7 }), { $const: 'N', other: 1 });
    assert.throws(() => fillData('{{MISSING}}', {}), { message: 'The docs site\'s data names {{MISSING}}, which nothing fills' });
    assert.throws(() => fillData({ $const: 'MISSING' }, {}), { message: 'The docs site\'s data names {{MISSING}}, which nothing fills' });
  });

  test('referenceDecisions() reads every decision of decisions.json with its texts, and states the body limit it is given', () => {
    for (const decision of referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT })) {
      assert.match(decision.id, /^decision-[a-z-]+$/);
      for (const text of [decision.question, decision.decision, decision.reason, decision.spec]) assert.ok(typeof text === 'string' && text !== '' && !text.includes('{{'), decision.id);
      assert.ok(Array.isArray(decision.operations), decision.id);
    }
    const bodyLimit = (limit: number): string | undefined => referenceDecisions({ bodyLimit: limit }).find((decision) => decision.id === 'decision-body-limit')?.decision;
    assert.match(bodyLimit(65_536) ?? '', /^A body may hold at most 65536 bytes \(64 KiB\);/);
    assert.match(bodyLimit(1000) ?? '', /^A body may hold at most 1000 bytes;/);
  });
});
