import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { apiKeyFault, createRequestCore, MIN_API_KEY_LENGTH, TOKEN68_RULE } from '../../../server/core/index.js';
import type { LogEntry } from '../../../server/core/index.js';
import { createPetstore } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';

const OLD_KEY = 'old-key-3c1d9a0b7e';
const NEW_KEY = 'new-key-8e2f4b6d1a';

function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}

/** The statuses of one listPets per key, in order. */
async function statusesFor(options: Parameters<typeof inject>[0], keys: readonly string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const key of keys) statuses.push((await inject(options, { url: '/v1/pets', headers: bearer(key) })).status);
  return statuses;
}

describe('keys that change while the core serves', () => {
  test('an apiKeys function is asked on every request: a key added works at once, a removed one stops at once', async () => {
    let keys: readonly string[] = [OLD_KEY];
    const options = { store: createPetstore(), apiKeys: () => keys };
    assert.deepEqual(await statusesFor(options, [OLD_KEY, NEW_KEY]), [200, 401]);
    keys = [OLD_KEY, NEW_KEY];
    assert.deepEqual(await statusesFor(options, [OLD_KEY, NEW_KEY]), [200, 200]);
    keys = [NEW_KEY];
    assert.deepEqual(await statusesFor(options, [OLD_KEY, NEW_KEY]), [401, 200]);
  });

  test('an apiKeys function that returns an unusable list keeps the keys in force and logs why once, never quoting a key', async () => {
    const entries: LogEntry[] = [];
    const refused = [NEW_KEY, 'has white space'];
    let keys: readonly string[] = [OLD_KEY];
    const options = { store: createPetstore(), apiKeys: () => keys, log: (entry: LogEntry) => void entries.push(entry) };
    assert.deepEqual(await statusesFor(options, [OLD_KEY]), [200]);
    for (const unusable of [[], refused, ['']]) {
      keys = unusable;
      assert.deepEqual(await statusesFor(options, [OLD_KEY, NEW_KEY, OLD_KEY]), [200, 401, 200], JSON.stringify(unusable));
    }
    assert.deepEqual(entries.map((entry) => [entry.level, entry.msg]), Array.from({ length: 3 }, () => ['warn', 'The API keys function returned a list that cannot be used; the keys in force stay']));
    assert.deepEqual(entries.map((entry) => entry['problem']), [
      '`apiKeys` must list at least one key',
      `every API key must be ${TOKEN68_RULE}`,
      `every API key must be ${TOKEN68_RULE}`,
    ]);
    keys = [NEW_KEY];
    assert.deepEqual(await statusesFor(options, [OLD_KEY, NEW_KEY]), [401, 200]);
    assert.deepEqual(entries.at(-1), { level: 'debug', msg: 'API keys changed', keys: 1 });
    const logged = JSON.stringify(entries);
    for (const key of [OLD_KEY, NEW_KEY, 'has white space']) assert.ok(!logged.includes(key), `${key} is not logged`);
  });

  test('an apiKeys function that returns a new array with the same keys changes nothing and logs nothing', async () => {
    const entries: LogEntry[] = [];
    const options = { store: createPetstore(), apiKeys: () => [OLD_KEY, NEW_KEY], log: (entry: LogEntry) => void entries.push(entry) };
    assert.deepEqual(await statusesFor(options, [OLD_KEY, NEW_KEY, 'other']), [200, 200, 401]);
    assert.deepEqual(entries, []);
  });

  test('an apiKeys function that throws keeps the keys in force, logged once until it answers again', async () => {
    const entries: LogEntry[] = [];
    let isFailing = false;
    const options = { store: createPetstore(), log: (entry: LogEntry) => void entries.push(entry), apiKeys: () => {
      if (isFailing) throw new Error('key file unreadable');
      return [OLD_KEY];
    } };
    assert.deepEqual(await statusesFor(options, [OLD_KEY]), [200]);
    isFailing = true;
    assert.deepEqual(await statusesFor(options, [OLD_KEY, OLD_KEY, NEW_KEY]), [200, 200, 401]);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.level, 'warn');
    assert.match(String(entries[0]?.['error']), /key file unreadable/);
  });

  test('createFetchHandler() refuses an apiKeys function whose first list is unusable, naming itself', () => {
    assert.throws(() => createFetchHandler({ store: createPetstore(), apiKeys: () => [] }), /^TypeError: createFetchHandler: `apiKeys` must list at least one key$/);
    assert.throws(() => createFetchHandler({ store: createPetstore(), apiKeys: ['a b'] }), /^TypeError: createFetchHandler: every API key must be/);
  });

  test('every door refuses a key shorter than MIN_API_KEY_LENGTH (16), the one rule the command line applies too, and takes one of exactly 16', () => {
    assert.equal(MIN_API_KEY_LENGTH, 16);
    const short = 'k'.repeat(MIN_API_KEY_LENGTH - 1);
    const refusal = /every API key must be at least 16 characters long, or it is easy to guess$/;
    assert.throws(() => createFetchHandler({ store: createPetstore(), apiKeys: [short] }), refusal);
    assert.throws(() => createRequestCore({ store: createPetstore(), apiKeys: ['a-long-enough-key-01', short] }), refusal);
    assert.doesNotThrow(() => createFetchHandler({ store: createPetstore(), apiKeys: ['k'.repeat(MIN_API_KEY_LENGTH)] }));
    assert.deepEqual([short, 'k'.repeat(16), 'a b', 'k'.repeat(4097), 7].map(apiKeyFault), ['short', undefined, 'character', 'long', 'character']);
  });
});
