import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runConformance } from '../../../extras/conformance/index.js';
import type { Level } from '../../../extras/conformance/index.js';
import { startBaseline, startFastify } from './support/targets.js';
import type { Target } from './support/targets.js';

/**
 * The checks the two other implementations in bench/servers fail, as recorded in
 * docs/conformance-kit.md. When this changes, rerun `npm run conformance-table` and
 * update the table there with it.
 */
const DEPARTURES: Record<string, { start: () => Promise<Target>; failed: Record<Level, readonly string[]> }> = {
  'the bench baseline server': {
    start: startBaseline,
    failed: {
      // A status outside PetStatus is stored as sent.
      spec: ['create/invalid-status'],
      reference: [
        'auth/challenge/missing-key', 'auth/challenge/invalid-key', 'auth/scheme-case-insensitive', 'paging/link-next', 'paging/last-page',
        'create/invalid-status', 'create/unknown-field', 'create/every-violation-listed', 'create/unsupported-media-type', 'create/payload-too-large',
        // Neither bench server knows Idempotency-Key: each repeat stores another pet.
        'idempotency/replay', 'idempotency/key-reused', 'idempotency/concurrent', 'idempotency/malformed-key', 'get/invalid-pet-id', 'deprecation/getPet', 'deprecation/getPet-errors', 'http/method-not-allowed', 'http/head/listPets', 'http/head/getPet',
        'http/options', 'document/listPets', 'document/createPet', 'document/getPet',
      ],
    },
  },
  'the bench fastify server': {
    start: startFastify,
    failed: {
      // fastify's own validation errors lack the Error body's `status`, and ajv coerces a number `name` to a string.
      spec: [
        'create/missing-name', 'create/missing-category-id', 'create/invalid-name', 'create/invalid-category-id', 'create/fractional-category-id',
        'create/invalid-status', 'errors/status-matches',
      ],
      reference: [
        'auth/challenge/invalid-key', 'auth/scheme-case-insensitive', 'list/invalid-limit', 'list/invalid-status', 'paging/link-next', 'paging/last-page',
        'create/missing-name', 'create/missing-category-id', 'create/invalid-name', 'create/invalid-category-id', 'create/fractional-category-id',
        'create/invalid-status', 'create/unknown-field', 'create/every-violation-listed', 'create/invalid-json', 'create/unsupported-media-type',
        'create/payload-too-large', 'idempotency/replay', 'idempotency/key-reused', 'idempotency/concurrent', 'idempotency/malformed-key',
        'get/invalid-pet-id', 'deprecation/getPet', 'deprecation/getPet-errors', 'errors/status-matches',
        'http/method-not-allowed', 'http/options', 'http/unknown-path', 'document/listPets', 'document/createPet', 'document/getPet',
      ],
    },
  },
};

describe('the conformance kit against the other implementations in bench/servers', () => {
  for (const [name, { start, failed }] of Object.entries(DEPARTURES)) {
    test(`runConformance() against ${name} fails exactly the checks recorded in docs/conformance-kit.md, at both levels`, async () => {
      const target = await start();
      try {
        for (const level of ['spec', 'reference'] as const) {
          const results = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level });
          assert.deepEqual(results.filter((result) => result.outcome !== 'pass').map((result) => result.id), failed[level], level);
        }
      } finally {
        await target.close();
      }
    });
  }

  test('runConformance() finds the fastify server coercing a number `name` into a string instead of answering 400', async () => {
    const target = await startFastify();
    try {
      const [result] = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, only: ['create/invalid-name'] });
      assert.match(result?.failure?.received ?? '', /^201 .*"name":"42"/);
    } finally {
      await target.close();
    }
  });
});
