import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PetIndex } from '../../../../lib/storage/memory/pet-index.js';
import type { Pet } from '../../../../lib/index.js';

describe('PetIndex', () => {
  test('PetIndex finds pets when ids have gaps', () => {
    const index = new PetIndex();
    const ids = [3, 4, 10, 11, 12, 50, 1000];
    for (const id of ids) index.append(Object.freeze({ id, name: `p${id}`, categoryId: 1, status: 'sold' }));
    for (const id of ids) assert.equal(index.get(id)?.id, id);
    for (const id of [0, 1, 2, 5, 13, 999, 1001, -4]) assert.equal(index.get(id), undefined);
    assert.deepEqual(index.list({ status: 'sold', after: 11, limit: 2 }).map((pet) => pet.id), [12, 50]);
    assert.equal(index.size, 7);
    assert.equal(index.lastId, 1000);
  });

  test('PetIndex refuses an id that is not above the last one', () => {
    const index = new PetIndex();
    const pet: Pet = { id: 5, name: 'a', categoryId: 1 };
    index.append(pet);
    assert.throws(() => index.append(pet), RangeError);
    assert.equal(new PetIndex().get(1), undefined);
  });
});
