import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { HttpError } from '../../../server/core/http-error.js';
import { parseIdempotencyKey, replayHeaders, withRetryAfter } from '../../../server/core/idempotency-key.js';

function parsed(value: string | readonly string[] | undefined): string | undefined {
  return parseIdempotencyKey({ 'idempotency-key': value });
}

describe('parseIdempotencyKey()', () => {
  test('parseIdempotencyKey() answers undefined for a request without the header', () => {
    assert.equal(parseIdempotencyKey({}), undefined);
    assert.equal(parsed(undefined), undefined);
  });

  test('parseIdempotencyKey() reads a Structured Field String, its escapes and surrounding spaces (RFC 8941 §4.2.5)', () => {
    const cases: [string, string][] = [
      ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
      ['  "a b"\t', 'a b'],
      ['"say \\"hi\\" \\\\ bye"', 'say "hi" \\ bye'],
      ['" "', ' '],
      [`"${'x'.repeat(255)}"`, 'x'.repeat(255)],
      [`"${'\\"'.repeat(255)}"`, '"'.repeat(255)],
    ];
    for (const [value, key] of cases) assert.equal(parsed(value), key, value);
  });

  test('parseIdempotencyKey() reads a quoted key without escapes of any length from 1 to 255 as the key between the quotes', () => {
    for (let length = 1; length <= 255; length++) {
      const key = Array.from({ length }, (_, index) => String.fromCharCode(0x20 + ((index * 7) % 95))).join('').replaceAll('"', 'q').replaceAll('\\', 'b');
      assert.equal(parsed(`"${key}"`), key, `a key of ${length}`);
    }
    assert.throws(() => parsed(`"${'x'.repeat(256)}"`), /at most 255 characters long \(it has 256\)/);
  });

  test('parseIdempotencyKey() accepts an unquoted key of token characters as the same key as its quoted form', () => {
    for (const key of ['8e03978e-40d5-43e8-bc93-6894a57f9324', 'abc', 'a:b/c', "!#$%&'*+-.^_`|~", 'x'.repeat(255)]) {
      assert.equal(parsed(key), key);
      assert.equal(parsed(key), parsed(`"${key}"`));
    }
  });

  test('parseIdempotencyKey() rejects empty, malformed, too long and repeated keys with invalid_idempotency_key', () => {
    const cases: [string | readonly string[], RegExp][] = [
      ['', /must not be empty/],
      ['   ', /must not be empty/],
      ['""', /must not be empty/],
      ['"abc', /without its closing quote/],
      ['"a\\b"', /a backslash may only escape/],
      ['"a\\', /a backslash may only escape/],
      ['"tab\there"', /only printable ASCII/],
      ['"ü"', /only printable ASCII/],
      ['"abc"def', /one quoted string and nothing after it/],
      ['"abc";p=1', /one quoted string and nothing after it/],
      ['"abc", "def"', /more than once/],
      ['"abc" ,"def"', /more than once/],
      ['abc, def', /more than once/],
      ['abc,', /more than once/],
      [['"abc"', '"abc"'], /more than once/],
      ['a b', /must be a quoted string/],
      ['a"b', /must be a quoted string/],
      ['(abc)', /must be a quoted string/],
      ['ü', /must be a quoted string/],
      ['x'.repeat(256), /at most 255 characters long \(it has 256\)/],
      [`"${'x'.repeat(256)}"`, /at most 255 characters long \(it has 256\)/],
    ];
    for (const [value, pattern] of cases) {
      assert.throws(
        () => parsed(value),
        (error: unknown) => error instanceof PetstoreError && error.code === 'invalid_idempotency_key' && error.status === 400
          && error.message.startsWith('Cannot create pet: `Idempotency-Key` ') && pattern.test(error.message),
        JSON.stringify(value),
      );
    }
  });
});

describe('replayHeaders()', () => {
  test('replayHeaders() marks a replay with Idempotent-Replayed: true and adds nothing otherwise', () => {
    const pet = { id: 1, name: 'Rex', categoryId: 1 };
    assert.deepEqual(replayHeaders({ pet, isReplay: true }), ['Idempotent-Replayed', 'true']);
    assert.deepEqual(replayHeaders({ pet, isReplay: false }), []);
  });
});

describe('withRetryAfter()', () => {
  test('withRetryAfter() adds Retry-After to the engine\'s 409 for a key in flight and passes any other failure through', () => {
    assert.throws(
      () => withRetryAfter(new PetstoreError('idempotency_key_in_use', 'busy')),
      (error: unknown) => error instanceof HttpError && error.code === 'idempotency_key_in_use' && error.message === 'busy' && error.headers.join() === 'Retry-After,1',
    );
    const other = new PetstoreError('idempotency_key_reused', 'reused');
    assert.throws(() => withRetryAfter(other), (error: unknown) => error === other);
    const unexpected = new Error('disk');
    assert.throws(() => withRetryAfter(unexpected), (error: unknown) => error === unexpected);
  });
});
