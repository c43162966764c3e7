import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freezePet } from '../../../lib/validate.js';
import type { Pet } from '../../../lib/index.js';
import { DEFAULT_JSON_CACHE_BYTES, PageJsonCache, PetJsonCache } from '../../../server/core/pet-json.js';

/** The longest JSON a valid pet makes: one emoji, which keeps the text two bytes a character, and 255 control characters, each escaped as six. */
const WORST_NAME = `😀${'\u0001'.repeat(255)}`;

function worstPets(count: number): Pet[] {
  return Array.from({ length: count }, (_, index) => freezePet(index + 1, { name: WORST_NAME, categoryId: -(2 ** 53 - 1), status: 'available' }));
}

test('PetJsonCache stays within its byte bound with the longest escaped names, and still answers each pet\'s JSON', () => {
  const cache = new PetJsonCache(50_000, { maxBytes: 1_048_576 });
  const pets = worstPets(1_200);
  for (const pet of pets) assert.equal(cache.pet(pet), JSON.stringify(pet));
  assert.ok(cache.bytes <= 1_048_576, `${cache.bytes} bytes`);
  assert.ok(cache.bytes > 1_048_576 / 4, `${cache.bytes} bytes: the cache keeps something`);
  for (const pet of pets.slice(-10)) assert.equal(cache.pet(pet), JSON.stringify(pet));
});

test('PageJsonCache and PetJsonCache stay within their default byte bounds with 1,200 pets of escaped names and 1,024 full pages', () => {
  const json = new PetJsonCache();
  const pages = new PageJsonCache(json);
  const pets = worstPets(1_200);
  for (let after = 0; after < 1_024; after++) {
    const page = pets.slice(after, after + 100);
    const body = pages.body(`:${after}:100`, page, true);
    if (after % 100 === 0) assert.equal(new TextDecoder().decode(body as Uint8Array), JSON.stringify(page));
  }
  assert.ok(json.bytes <= DEFAULT_JSON_CACHE_BYTES, `pets: ${json.bytes} bytes`);
  assert.ok(pages.bytes <= DEFAULT_JSON_CACHE_BYTES, `pages: ${pages.bytes} bytes`);
  assert.ok(pages.bytes > DEFAULT_JSON_CACHE_BYTES / 4, `pages: ${pages.bytes} bytes: the cache keeps something`);
});

test('PageJsonCache reuses a kept page\'s bytes while the same pets come back, and rebuilds it when they differ', () => {
  const pages = new PageJsonCache(new PetJsonCache(), { maxEntries: 4 });
  const pets = worstPets(3);
  const first = pages.body('key', pets.slice(0, 2), true);
  assert.equal(pages.body('key', pets.slice(0, 2), true), first);
  assert.notEqual(pages.body('key', pets.slice(1, 3), true), first);
  assert.equal(pages.body('tail', pets.slice(2), false), JSON.stringify(pets.slice(2)));
  for (let index = 0; index < 6; index++) pages.body(`other ${index}`, pets, true);
  assert.notEqual(pages.body('key', pets.slice(1, 3), true), first);
});

test('PetJsonCache keeps no text larger than half its byte bound, and serves it all the same', () => {
  const cache = new PetJsonCache(10, { maxBytes: 200 });
  const [pet] = worstPets(1) as [Pet];
  assert.equal(cache.pet(pet), JSON.stringify(pet));
  assert.equal(cache.bytes, 0);
  assert.equal(cache.pets([]), '[]');
});
