import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { API_KEY, assertError } from '../../support/http.js';
import { call, createTestCore } from '../../support/inject.js';
import type { TestCore } from '../../support/inject.js';
import { createAuthenticator, MAX_TOKEN_LENGTH } from '../../../server/core/auth.js';

describe('bearer authentication', () => {
  let core: TestCore;
  before(async () => {
    core = createTestCore({ apiKeys: [API_KEY, 'second-key-0123456789'] });
  });

  test('every operation answers 401 without a key, with a Bearer challenge', async () => {
    for (const [method, path] of [['GET', '/v1/pets'], ['POST', '/v1/pets'], ['GET', '/v1/pets/1'], ['HEAD', '/v1/pets'], ['GET', '/v1/unknown']] as const) {
      const reply = await call(core, method, path);
      assert.equal(reply.status, 401, `${method} ${path}`);
      assert.equal(reply.headers['www-authenticate'], 'Bearer realm="petstore"');
      if (method !== 'HEAD') assertError(reply, 401, 'unauthorized', /Authorization: Bearer/);
    }
  });

  test('another scheme or an empty token is a missing credential', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer    ', `Token ${API_KEY}`, API_KEY, `Bearer:${API_KEY}`]) {
      const reply = await call(core, 'GET', '/v1/pets', { headers: { authorization } });
      assertError(reply, 401, 'unauthorized');
      assert.equal(reply.headers['www-authenticate'], 'Bearer realm="petstore"', authorization);
    }
  });

  test('a token matching no key is a 401 with error="invalid_token", whatever its characters', async () => {
    for (const token of ['wrong', `${API_KEY}x`, API_KEY.slice(0, -1), 'a'.repeat(MAX_TOKEN_LENGTH), 'ünïcödé', '"quoted"', '../../etc']) {
      const reply = await call(core, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${token}` } });
      assertError(reply, 401, 'unauthorized', /not a valid API key/);
      assert.equal(reply.headers['www-authenticate'], 'Bearer realm="petstore", error="invalid_token"');
      assert.ok(!reply.text.includes(token.slice(0, 20)) || token.length < 4, 'the token is not echoed');
    }
  });

  test('a token longer than MAX_TOKEN_LENGTH is a 401 with error="invalid_token" saying it was not checked, space-padded or not', async () => {
    for (const authorization of [`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`, `Bearer ${'a'.repeat(16_000)}`, `Bearer ${' '.repeat(100)}${'a'.repeat(MAX_TOKEN_LENGTH + 1)}${' '.repeat(100)}`]) {
      const reply = await call(core, 'GET', '/v1/pets', { headers: { authorization } });
      assertError(reply, 401, 'unauthorized', new RegExp(`longer than ${MAX_TOKEN_LENGTH} characters, so it is no API key; it was not checked`));
      assert.equal(reply.headers['www-authenticate'], 'Bearer realm="petstore", error="invalid_token"');
    }
  });

  test('the scheme name is case-insensitive (RFC 9110 §11.1)', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const reply = await call(core, 'GET', '/v1/pets', { headers: { authorization: `${scheme} ${API_KEY}` } });
      assert.equal(reply.status, 200, scheme);
    }
  });

  test('each configured key is accepted, so keys can be rotated', async () => {
    for (const key of [API_KEY, 'second-key-0123456789']) {
      assert.equal((await call(core, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status, 200);
    }
  });

  test('an accepted key stays accepted and a rejected one stays rejected on repeat', async () => {
    for (let round = 0; round < 3; round++) {
      assert.equal((await call(core, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${API_KEY}` } })).status, 200);
      assert.equal((await call(core, 'GET', '/v1/pets', { headers: { authorization: 'Bearer nope' } })).status, 401);
    }
  });

  test('createAuthenticator() accepts each of keys of different lengths and only them: no prefix, extension, zero padding or one-character change passes', () => {
    // Every key is 16 characters or more (MIN_API_KEY_LENGTH): the same 11 before each.
    const prefixed = (text: string): string => `key-0123456${text}`;
    const keys = ['short', 'a-much-longer-key', 'short2'].map(prefixed);
    const authenticate = createAuthenticator(keys);
    for (const key of keys) assert.equal(authenticate(`Bearer ${key}`), 'accepted', key);
    const near = ['shor', 'shortt', 'short\u0000', 'short\u0000\u0000\u0000', 'a-much-longer-ke', 'a-much-longer-keyy', 'b-much-longer-key', 'a-much-longer-kez', 'short3', 'Short'].map(prefixed);
    for (const token of near) assert.equal(authenticate(`Bearer ${token}`), 'invalid', JSON.stringify(token));
  });

  test('the key never appears in a response', async () => {
    const replies = await Promise.all([
      call(core, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${API_KEY}` } }),
      call(core, 'POST', '/v1/pets', { headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body: '{' }),
      call(core, 'GET', '/v1/pets/x', { headers: { authorization: `Bearer ${API_KEY}` } }),
    ]);
    for (const reply of replies) {
      assert.ok(!reply.text.includes(API_KEY));
      assert.ok(!JSON.stringify(reply.headers).includes(API_KEY));
    }
  });
});

describe('createAuthenticator()', () => {
  test('createAuthenticator() refuses an empty key list and unusable keys', () => {
    assert.throws(() => createAuthenticator([]), TypeError);
    for (const key of ['', 'has space', 'tab\tkey', 'new\nline']) assert.throws(() => createAuthenticator([key]), TypeError, JSON.stringify(key));
    assert.throws(() => createAuthenticator(['k'.repeat(MAX_TOKEN_LENGTH + 1)]), /at most 4096 characters/);
    assert.equal(createAuthenticator(['k'.repeat(MAX_TOKEN_LENGTH)])(`Bearer ${'k'.repeat(MAX_TOKEN_LENGTH)}`), 'accepted');
  });

  test('createAuthenticator() answers `oversized` for a token past MAX_TOKEN_LENGTH, before hashing it, however many spaces surround it', () => {
    const authenticate = createAuthenticator(['key-1-0123456789']);
    assert.equal(authenticate(`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`), 'oversized');
    assert.equal(authenticate(`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH)}`), 'invalid');
    assert.equal(authenticate(`Bearer ${' '.repeat(30)}key-1-0123456789${' '.repeat(30)}`), 'accepted');
    assert.equal(authenticate(`Bearer ${' '.repeat(16_000)}key-1-0123456789`), 'oversized');
  });

  test('createAuthenticator() keeps working past its memory of accepted headers', () => {
    const keys = Array.from({ length: 300 }, (_, index) => `key-0123456789-${index}`);
    const authenticate = createAuthenticator(keys);
    for (const key of keys) assert.equal(authenticate(`Bearer ${key}`), 'accepted');
    for (const key of keys) assert.equal(authenticate(`bearer ${key}`), 'accepted');
    assert.equal(authenticate('Bearer key-0123456789-300'), 'invalid');
    assert.equal(authenticate(undefined), 'missing');
  });
});
