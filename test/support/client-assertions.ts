import assert from 'node:assert/strict';
import { PetstoreClientError } from '../../extras/client/index.js';
import { failure } from './assertions.js';

/** Runs a client call and returns what it threw, failing the test when it did not throw a PetstoreClientError. */
export async function clientFailure(body: () => Promise<unknown>): Promise<PetstoreClientError> {
  const error = await failure(body);
  assert.ok(error instanceof PetstoreClientError, `a PetstoreClientError, not ${String(error)}`);
  return error;
}
