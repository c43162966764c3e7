import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runConformance } from '../../../extras/conformance/index.js';
import { createMemoryStorage, createPetstore } from '../../../lib/index.js';
import type { InsertOnceResult, PetStorage } from '../../../lib/index.js';
import type { FetchHandler } from './support/serve-fetch.js';
import { startFetchTarget } from './support/targets.js';

/** How many creates `idempotency/concurrent` sends at once. */
const SENDS = 6;

/**
 * A server whose storage holds the first create of a key until every create of the concurrent check
 * has reached the server, so the others are answered 409 while it is in flight; `change409` may
 * break those answers.
 */
async function startSlowTarget(change409: (response: Response) => Response = (response) => response) {
  const inner = createMemoryStorage();
  let arrived = 0;
  let release = (): void => undefined;
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const storage: PetStorage = {
    ...inner,
    async insertOnce(pet, idempotency): Promise<InsertOnceResult> {
      if (idempotency.key.endsWith('-key-concurrent')) await allArrived;
      return (inner.insertOnce as NonNullable<PetStorage['insertOnce']>)(pet, idempotency);
    },
  };
  const wrap = (handler: FetchHandler): FetchHandler => async (request) => {
    if (request.headers.get('idempotency-key')?.endsWith('-key-concurrent"') === true && ++arrived === SENDS) release();
    const response = await handler(request);
    return response.status === 409 ? change409(response) : response;
  };
  return startFetchTarget(wrap, createPetstore({ storage }));
}

describe('idempotency/concurrent against a server that answers 409 while a key is in flight', () => {
  test('runConformance() passes idempotency/concurrent when the other sends are answered 409 with Retry-After', async () => {
    const target = await startSlowTarget();
    try {
      const [result] = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level: 'reference', only: ['idempotency/concurrent'] });
      assert.equal(result?.outcome, 'pass', result?.detail);
      // The sends before the last are 409s for sure; the last may arrive after the first create is done, and get its replay.
      assert.match(result.detail, /^[12] answers with pet \d+, [45] with 409$/);
    } finally {
      await target.close();
    }
  });

  test('runConformance() fails idempotency/concurrent when a 409 comes without Retry-After', async () => {
    const target = await startSlowTarget((response) => {
      const headers = new Headers(response.headers);
      headers.delete('retry-after');
      return new Response(response.body, { status: response.status, headers });
    });
    try {
      const [result] = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level: 'reference', only: ['idempotency/concurrent'] });
      assert.equal(result?.outcome, 'fail', result?.detail);
      assert.match(result.failure?.expected ?? '', /409 with code idempotency_key_in_use and Retry-After in seconds/);
    } finally {
      await target.close();
    }
  });
});
