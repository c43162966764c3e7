import assert from 'node:assert/strict';
import { ERROR_CODES, PetstoreError } from '../../lib/index.js';
import type { ErrorCode } from '../../lib/index.js';

/** Asserts that `action` rejects with a PetstoreError of this code (and its status) whose message matches every pattern; returns it. */
export async function rejection(action: () => Promise<unknown>, code: ErrorCode, ...patterns: RegExp[]): Promise<PetstoreError> {
  try {
    await action();
  } catch (error) {
    assert.ok(error instanceof PetstoreError, `expected a PetstoreError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.status, ERROR_CODES[code]);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return error;
  }
  assert.fail(`expected a ${code} rejection`);
}

/** Runs `body` and returns what it threw, failing the test when it did not throw a PetstoreError. */
export async function failure(body: () => Promise<unknown>): Promise<PetstoreError> {
  try {
    await body();
  } catch (error) {
    assert.ok(error instanceof PetstoreError, `a PetstoreError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a PetstoreError');
}
