import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capacityOf, oldSpaceFor, petMemoryBudget } from '../../../extras/cli/open-storage.js';

const MEBIBYTE = 1_048_576;

test('petMemoryBudget() gives pets 70% of the old space less 32 MiB, and nothing below 46 MiB', () => {
  for (const [oldSpace, budget] of [[4096, 2835.2], [1024, 684.8], [64, 12.8], [32, 0]] as const) {
    assert.equal(Math.round((petMemoryBudget(oldSpace * MEBIBYTE) / MEBIBYTE) * 10) / 10, budget, String(oldSpace));
  }
});

test('oldSpaceFor() names an old space whose budget holds the pets, and no smaller one does', () => {
  for (const petBytes of [1, 22 * MEBIBYTE, 1_000 * MEBIBYTE]) {
    const oldSpace = oldSpaceFor(petBytes);
    assert.ok(petMemoryBudget(oldSpace * MEBIBYTE) >= petBytes, String(petBytes));
    assert.ok(petMemoryBudget((oldSpace - 1) * MEBIBYTE) < petBytes, String(petBytes));
  }
});

test('capacityOf() bounds the memory of the in-memory and file storages, adds --max-pets, and leaves PostgreSQL unbounded', () => {
  const oldSpace = 1024 * MEBIBYTE;
  assert.deepEqual(capacityOf({}, oldSpace), { maxBytes: petMemoryBudget(oldSpace) });
  assert.deepEqual(capacityOf({ dataFile: 'pets.journal', maxPets: 10 }, oldSpace), { maxBytes: petMemoryBudget(oldSpace), maxPets: 10 });
  assert.equal(capacityOf({ databaseUrl: 'postgres://127.0.0.1/x' }, oldSpace), undefined);
});
