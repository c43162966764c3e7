import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { integerFromDatabase, keyedPetFromRow, petFromRow } from '../../../extras/postgres/rows.js';

function isDefect(pattern: RegExp): (error: unknown) => boolean {
  return (error) => error instanceof PetstoreError && error.code === 'internal_error' && pattern.test(error.message);
}

test('integerFromDatabase() converts bigint text, numbers and bigints within the safe range', () => {
  const cases: [unknown, number][] = [
    ['1', 1],
    ['-42', -42],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    [7, 7],
    [8n, 8],
  ];
  for (const [value, expected] of cases) assert.equal(integerFromDatabase(value, 'id'), expected);
});

test('integerFromDatabase() refuses values a JSON number cannot carry exactly', () => {
  const cases: [unknown, string][] = [
    ['9007199254740992', '9007199254740992'],
    ['-9007199254740993', '-9007199254740993'],
    ['99999999999999999999', '99999999999999999999'],
    [9007199254740992n, '9007199254740992'],
    [1.5, '1.5'],
    ['1.5', '1.5'],
    ['', 'holds ""'],
    [' 1', '" 1"'],
    ['0x10', '0x10'],
    [null, 'object'],
    [undefined, 'undefined'],
  ];
  for (const [value, shown] of cases) {
    assert.throws(() => integerFromDatabase(value, 'category_id'), isDefect(/`category_id`/), `refuses ${String(value)}`);
    assert.throws(() => integerFromDatabase(value, 'category_id'), (error: unknown) => error instanceof Error && error.message.includes(shown));
  }
});

test('petFromRow() builds a frozen pet and leaves a NULL status absent', () => {
  const pet = petFromRow({ id: '5', name: 'Rex', category_id: '-3', status: null });
  assert.deepEqual(pet, { id: 5, name: 'Rex', categoryId: -3 });
  assert.equal(Object.hasOwn(pet, 'status'), false);
  assert.ok(Object.isFrozen(pet));
  assert.deepEqual(petFromRow({ id: '6', name: 'Tom', category_id: '0', status: 'sold' }), { id: 6, name: 'Tom', categoryId: 0, status: 'sold' });
});

test('petFromRow() refuses rows that break the schema', () => {
  const cases: [unknown, RegExp][] = [
    [undefined, /row object, got undefined/],
    [null, /row object, got null/],
    [{ id: '0', name: 'Rex', category_id: '1', status: null }, /`id` holds 0/],
    [{ id: '9007199254740993', name: 'Rex', category_id: '1', status: null }, /`id` holds "9007199254740993"/],
    [{ id: '1', name: 12, category_id: '1', status: null }, /`name` holds number/],
    [{ id: '1', name: 'Rex', category_id: '1', status: 'lost' }, /`status` holds "lost"/],
    [{ id: '1', name: 'Rex', category_id: '1' }, /`status` holds undefined/],
  ];
  for (const [row, pattern] of cases) assert.throws(() => petFromRow(row), isDefect(pattern), `refuses ${JSON.stringify(row)}`);
});

test('keyedPetFromRow() gives the pet and the fingerprint stored with its key, and refuses a row without a fingerprint', () => {
  const row = { id: '7', name: 'Rex', category_id: '1', status: null, idempotency_fingerprint: '{"categoryId":1,"name":"Rex"}' };
  assert.deepEqual(keyedPetFromRow(row), { pet: { id: 7, name: 'Rex', categoryId: 1 }, fingerprint: '{"categoryId":1,"name":"Rex"}' });
  for (const [fingerprint, shown] of [[null, 'NULL'], [undefined, 'undefined'], [5, 'number']] as const) {
    assert.throws(
      () => keyedPetFromRow({ ...row, idempotency_fingerprint: fingerprint }),
      (error: unknown) => error instanceof PetstoreError && error.code === 'internal_error' && error.message.includes(`\`idempotency_fingerprint\` of pet 7 holds ${shown}`),
    );
  }
});
