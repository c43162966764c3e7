import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { entityTagOf, matchesIfNoneMatch } from '../../../extras/docs-site/conditional.js';

describe('conditional GET', () => {
  test('entityTagOf() is the quoted base64url SHA-256 of the UTF-8 bytes, so equal texts share it and any change moves it', () => {
    for (const text of ['', 'abc', '{"é":"😀"}', 'x'.repeat(70_000)]) {
      assert.equal(entityTagOf(text), `"${createHash('sha256').update(text, 'utf8').digest('base64url')}"`, text.slice(0, 20));
    }
    assert.notEqual(entityTagOf('<p>a</p>'), entityTagOf('<p>b</p>'));
  });

  test('matchesIfNoneMatch() compares weakly, reads lists and *, and matches nothing it cannot read (RFC 9110 §13.1.2)', () => {
    const tag = '"abc123"';
    const cases: [string | undefined, boolean][] = [
      [undefined, false],
      ['"abc123"', true],
      ['W/"abc123"', true],
      ['"other", W/"abc123"', true],
      ['"other","abc123"', true],
      ['  *  ', true],
      ['"other"', false],
      ['abc123', false],
      ['"abc1234"', false],
      ['W/"abc12"', false],
      ['', false],
      ['"', false],
    ];
    for (const [header, expected] of cases) assert.equal(matchesIfNoneMatch(header, tag), expected, String(header));
    assert.equal(matchesIfNoneMatch('"abc123"', 'W/"abc123"'), true, 'a weak tag of ours matches too');
  });
});
