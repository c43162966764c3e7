import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore, ERROR_CODES, isUnexpectedError, PetstoreError, toErrorBody } from '../../lib/index.js';

describe('errors', () => {
  test('PetstoreError carries the code, message and the status of its code', () => {
    const error = new PetstoreError('not_found', 'Pet 3 was not found');
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'PetstoreError');
    assert.deepEqual(error.toJSON(), { code: 'not_found', message: 'Pet 3 was not found', status: 404 });
  });

  test('a client error (4xx) carries no stack frames, a server error (5xx) keeps them, and the stack limit is left as it was', async () => {
    const frames = (error: Error): number => (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length;
    const limit = Error.stackTraceLimit;
    for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
      const error = new PetstoreError(code, 'what happened');
      assert.equal(frames(error), ERROR_CODES[code] < 500 ? 0 : Math.min(limit, frames(new Error('here'))), code);
      assert.match(error.stack ?? '', /^PetstoreError: what happened/);
      assert.equal(Error.stackTraceLimit, limit);
    }
    const notFound = await createPetstore().getPet(1).catch((error: unknown) => error);
    assert.ok(notFound instanceof PetstoreError && notFound.code === 'not_found' && frames(notFound) === 0);
  });

  test('PetstoreError includes details in its body only when given', () => {
    const error = new PetstoreError('validation_failed', 'bad', { details: [{ field: 'name', message: '`name` is required' }] });
    assert.deepEqual(JSON.parse(JSON.stringify(error)), { code: 'validation_failed', message: 'bad', status: 400, details: [{ field: 'name', message: '`name` is required' }] });
  });

  test('PetstoreError keeps a cause for the log', () => {
    const cause = new Error('disk full');
    assert.equal(new PetstoreError('unavailable', 'Storage refuses writes', { cause }).cause, cause);
  });

  test('ERROR_CODES maps every code to an HTTP error status', () => {
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      assert.match(code, /^[a-z_]+$/);
      assert.ok(status >= 400 && status <= 599, code);
    }
  });

  test('toErrorBody() exposes expected errors and hides everything else behind internal_error', () => {
    assert.deepEqual(toErrorBody(new PetstoreError('unavailable', 'Storage refuses writes')), { code: 'unavailable', message: 'Storage refuses writes', status: 503 });
    for (const thrown of [new TypeError('secret detail'), 'a string', undefined, new PetstoreError('internal_error', 'Storage defect: secret')]) {
      const body = toErrorBody(thrown);
      assert.equal(body.code, 'internal_error');
      assert.equal(body.status, 500);
      assert.doesNotMatch(body.message, /secret/);
    }
  });

  test('toErrorBody() keeps the message of an internal_error marked exposesMessage, which is still logged as unexpected', () => {
    const setupMistake = new PetstoreError('internal_error', 'Mount the handler before the body parser', { exposesMessage: true });
    assert.deepEqual(toErrorBody(setupMistake), { code: 'internal_error', message: 'Mount the handler before the body parser', status: 500 });
    assert.equal(isUnexpectedError(setupMistake), true);
  });

  test('isUnexpectedError() is true for anything that should be logged', () => {
    assert.equal(isUnexpectedError(new PetstoreError('not_found', 'x')), false);
    assert.equal(isUnexpectedError(new PetstoreError('unavailable', 'x')), false);
    assert.equal(isUnexpectedError(new PetstoreError('internal_error', 'x')), true);
    assert.equal(isUnexpectedError(new RangeError('x')), true);
  });
});
