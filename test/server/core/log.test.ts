import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';
import { API_KEY, AUTH } from '../../support/http.js';
import { describeError } from '../../../server/core/log.js';
import type { LogEntry } from '../../../server/core/log.js';
import { failingStorage } from '../../support/failing-storage.js';


describe('the core\'s log', () => {
  test('log receives a 500\'s detail as an error entry with the request\'s id and stack; the client gets neither', async () => {
    const entries: LogEntry[] = [];
    const options = { store: createPetstore({ storage: failingStorage(new Error('disk controller on fire')) }), apiKeys: [API_KEY], log: (entry: LogEntry) => void entries.push(entry) };
    const answer = await inject(options, { url: '/v1/pets', headers: { ...AUTH, 'x-request-id': 'failing-1' } });
    assert.equal(answer.status, 500);
    assert.doesNotMatch(answer.body, /fire/);
    assert.equal(entries.length, 1);
    const [entry] = entries;
    assert.deepEqual({ ...entry, error: undefined }, { level: 'error', msg: 'Unexpected error; answered 500 internal_error', requestId: 'failing-1', error: undefined });
    assert.match(String(entry?.['error']), /^Error: disk controller on fire\n\s+at /);
  });

  test('log receives a storage failure behind a 503 as a warning with its cause and the request\'s id', async () => {
    const entries: LogEntry[] = [];
    const down = new PetstoreError('unavailable', 'The database is unreachable; try again later', { cause: new Error('ECONNREFUSED 10.0.0.5:5432') });
    const options = { store: createPetstore({ storage: failingStorage(down) }), apiKeys: [API_KEY], log: (entry: LogEntry) => void entries.push(entry) };
    const answer = await inject(options, { url: '/v1/pets/1', headers: AUTH });
    assert.equal(answer.status, 503);
    assert.equal(entries.length, 1);
    const [entry] = entries;
    assert.equal(entry?.level, 'warn');
    assert.equal(entry?.requestId, answer.headers['x-request-id']);
    assert.equal(entry?.['error'], 'The database is unreachable; try again later');
    assert.match(String(entry?.['cause']), /ECONNREFUSED 10\.0\.0\.5:5432/);
  });

  test('log receives nothing for expected errors (400, 401, 404, 405) nor for a 503 without a cause', async () => {
    const entries: LogEntry[] = [];
    const log = (entry: LogEntry): void => void entries.push(entry);
    const healthy = { store: createPetstore(), apiKeys: [API_KEY], log };
    for (const request of [{ url: '/v1/pets?limit=x', headers: AUTH }, { url: '/v1/pets' }, { url: '/v1/pets/9', headers: AUTH }, { method: 'PUT', url: '/v1/pets', headers: AUTH }]) {
      assert.ok((await inject(healthy, request)).status >= 400);
    }
    const bare = { store: createPetstore({ storage: failingStorage(new PetstoreError('unavailable', 'down')) }), apiKeys: [API_KEY], log };
    assert.equal((await inject(bare, { url: '/v1/pets', headers: AUTH })).status, 503);
    assert.deepEqual(entries, []);
  });

  test('logError still receives the error when no log is given, and log takes its place when both are', async () => {
    const thrown = new Error('bug');
    const errors: unknown[] = [];
    const entries: LogEntry[] = [];
    const store = createPetstore({ storage: failingStorage(thrown) });
    await inject({ store, apiKeys: [API_KEY], logError: (error: unknown) => void errors.push(error) }, { url: '/v1/pets', headers: AUTH });
    assert.ok(errors.length === 1 && errors[0] === thrown);
    await inject({ store, apiKeys: [API_KEY], logError: (error: unknown) => void errors.push(error), log: (entry: LogEntry) => void entries.push(entry) }, { url: '/v1/pets', headers: AUTH });
    assert.deepEqual([errors.length, entries.length], [1, 1]);
  });

  test('describeError() gives a stack, any other value as text, and survives a value that cannot be turned into text', () => {
    assert.match(describeError(new TypeError('wrong')), /^TypeError: wrong\n/);
    assert.equal(describeError('plain'), 'plain');
    assert.equal(describeError(42), '42');
    assert.equal(describeError({ toString: () => { throw new Error('no'); } }), 'a value that cannot be turned into text');
    const stackless = new Error('no stack');
    delete stackless.stack;
    assert.equal(describeError(stackless), 'Error: no stack');
  });
});
