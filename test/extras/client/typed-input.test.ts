import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreClient } from '../../../extras/client/index.js';

/**
 * A misspelled field in the client's createPet. The `@ts-expect-error` line is the test: `npm test`
 * type-checks this file first, and fails with "Unused '@ts-expect-error' directive" the day such a
 * call compiles. Never called: it would send a request.
 */
function clientWithTypo(client: PetstoreClient): Promise<unknown> {
  // @ts-expect-error `nmae` is not a field of NewPet
  return client.createPet({ nmae: 'Typo', categoryId: 1 });
}

test('PetstoreClient.createPet() takes a NewPet: a misspelled field is a compile error', () => {
  const client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused', fetch: () => Promise.reject(new Error('not sent')) });
  assert.equal(typeof clientWithTypo, 'function', 'the client\'s signature is checked by the type-check above');
  assert.ok(client instanceof PetstoreClient);
});
