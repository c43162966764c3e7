import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base64Of, base64UrlOf } from '../../../server/core/base64.js';

const encoder = new TextEncoder();

describe('base64', () => {
  test('base64Of() encodes the test vectors of RFC 4648 §10, with padding', () => {
    const vectors = [['', ''], ['f', 'Zg=='], ['fo', 'Zm8='], ['foo', 'Zm9v'], ['foob', 'Zm9vYg=='], ['fooba', 'Zm9vYmE='], ['foobar', 'Zm9vYmFy']];
    for (const [text, encoded] of vectors) assert.equal(base64Of(encoder.encode(text)), encoded, text);
  });

  test('base64UrlOf() writes - and _ for + and / and drops the padding (RFC 4648 §5)', () => {
    assert.equal(base64UrlOf(new Uint8Array([0xfb, 0xff, 0xbf])), '-_-_');
    assert.equal(base64Of(new Uint8Array([0xfb, 0xff, 0xbf])), '+/+/');
    assert.equal(base64UrlOf(new Uint8Array([0xff])), '_w');
    assert.equal(base64UrlOf(new Uint8Array(0)), '');
  });
});
