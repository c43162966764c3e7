import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLogLimiter, observeStorage, REPEAT_INTERVAL, STORAGE_RECOVERED_MSG } from '../../../extras/cli/log-limiter.js';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG } from '../../../server/core/index.js';
import type { LogEntry } from '../../../server/core/index.js';
import { inject } from '../../../server/testing/index.js';
import { API_KEY, JSON_POST } from '../../support/http.js';

/** A scheduler run by hand: `tick()` runs what was due at the end of the current interval, as the clock passing it would. */
function manualSchedule(): { schedule: (callback: () => void, ms: number) => void; tick: () => void; pending: () => number[] } {
  let due: { callback: () => void; ms: number }[] = [];
  return {
    schedule: (callback, ms) => void due.push({ callback, ms }),
    tick() {
      const now = due;
      due = [];
      for (const { callback } of now) callback();
    },
    pending: () => due.map(({ ms }) => ms),
  };
}

function storageFailure(requestId: string): LogEntry {
  return { level: 'warn', msg: STORAGE_FAILED_MSG, requestId, error: 'The data file cannot be written', cause: 'Error: ENOSPC: no space left on device\n    at write' };
}

describe('createLogLimiter()', () => {
  test('createLogLimiter() writes a repeated failure in full once, then one count per interval while it repeats, and in full again after a quiet interval', () => {
    const written: LogEntry[] = [];
    const clock = manualSchedule();
    const { log } = createLogLimiter((entry) => void written.push(entry), { schedule: clock.schedule });
    for (let index = 1; index <= 500; index++) log(storageFailure(`r-${index}`));
    assert.deepEqual(written, [storageFailure('r-1')], 'the first failure, with its cause');
    assert.deepEqual(clock.pending(), [REPEAT_INTERVAL]);
    clock.tick();
    for (let index = 501; index <= 700; index++) log(storageFailure(`r-${index}`));
    clock.tick();
    clock.tick();
    log(storageFailure('r-new'));
    const summary = { level: 'warn', msg: 'The same failure repeated; not logged one by one', failure: STORAGE_FAILED_MSG, intervalSeconds: 10 };
    assert.deepEqual(written, [
      storageFailure('r-1'),
      { ...summary, more: 499, lastRequestId: 'r-500' },
      { ...summary, more: 200, lastRequestId: 'r-700' },
      storageFailure('r-new'),
    ]);
    assert.equal(REPEAT_INTERVAL, 10_000);
  });

  test('createLogLimiter() passes every other event through, and counts each kind of failure apart', () => {
    const written: LogEntry[] = [];
    const clock = manualSchedule();
    const { log } = createLogLimiter((entry) => void written.push(entry), { schedule: clock.schedule, interval: 5000 });
    const bug: LogEntry = { level: 'error', msg: UNEXPECTED_ERROR_MSG, requestId: 'b-1', error: 'TypeError: x is undefined\n    at y' };
    for (let index = 0; index < 3; index++) {
      log(storageFailure(`s-${index}`));
      log({ ...bug, requestId: `b-${index}` });
      log({ level: 'info', msg: 'Storage note', note: `note ${index}` });
    }
    assert.deepEqual(written.map((entry) => entry.msg), [STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG, 'Storage note', 'Storage note', 'Storage note']);
    clock.tick();
    assert.deepEqual(written.slice(5).map((entry) => [entry.msg, entry['failure'], entry['more'], entry['intervalSeconds'], entry.level]), [
      ['The same failure repeated; not logged one by one', STORAGE_FAILED_MSG, 2, 5, 'warn'],
      ['The same failure repeated; not logged one by one', UNEXPECTED_ERROR_MSG, 2, 5, 'error'],
    ]);
  });

  test('createLogLimiter().flush() writes the count held so far, as at shutdown, and nothing when there is none', () => {
    const written: LogEntry[] = [];
    const clock = manualSchedule();
    const limiter = createLogLimiter((entry) => void written.push(entry), { schedule: clock.schedule });
    limiter.flush();
    assert.equal(written.length, 0);
    for (let index = 1; index <= 4; index++) limiter.log(storageFailure(`r-${index}`));
    limiter.flush();
    assert.deepEqual(written.map((entry) => entry['more']), [undefined, 3]);
    clock.tick();
    limiter.log(storageFailure('r-5'));
    assert.deepEqual(written.map((entry) => entry.requestId), ['r-1', undefined, 'r-5'], 'after a flushed, quiet interval the next one is written in full');
  });

  test('createLogLimiter() ends an interval by its own timer when none is given', async () => {
    const written: LogEntry[] = [];
    const { log } = createLogLimiter((entry) => void written.push(entry), { interval: 1 });
    log(storageFailure('r-1'));
    log(storageFailure('r-2'));
    // A later timer fires after the limiter's, whatever the load: timers run in the order they fall due.
    await new Promise((done) => setTimeout(done, 20));
    assert.deepEqual(written.map((entry) => [entry.requestId ?? entry['lastRequestId'], entry['more']]), [['r-1', undefined], ['r-2', 1]]);
  });

  test('createLogLimiter() over a core whose storage is full: 300 failed creates write one line with the cause and one count', async () => {
    const written: LogEntry[] = [];
    const clock = manualSchedule();
    const { log } = createLogLimiter((entry) => void written.push(entry), { schedule: clock.schedule });
    const full = new PetstoreError('unavailable', 'The data file cannot be written; try again later', { cause: Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }) });
    const storage: PetStorage = { insert: () => Promise.reject(full), get: async () => undefined, list: async () => [] };
    const options = { store: createPetstore({ storage }), apiKeys: [API_KEY], log };
    for (let index = 0; index < 300; index++) {
      const answer = await inject(options, { method: 'POST', url: '/v1/pets', headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' });
      assert.equal(answer.status, 503);
    }
    clock.tick();
    assert.equal(written.length, 2);
    assert.match(String(written[0]?.['cause']), /ENOSPC: no space left on device/);
    assert.deepEqual([written[1]?.msg, written[1]?.['more']], ['The same failure repeated; not logged one by one', 299]);
  });

  test('createLogLimiter() writes each new cause of storage failures in full, even while another cause repeats, and counts each cause apart', () => {
    const written: LogEntry[] = [];
    const clock = manualSchedule();
    const { log } = createLogLimiter((entry) => void written.push(entry), { schedule: clock.schedule });
    const failure = (requestId: string, causeCode: string): LogEntry => ({ ...storageFailure(requestId), error: `Cannot store the pet: PostgreSQL is unavailable (${causeCode}: …)`, causeCode });
    for (let index = 0; index < 50; index++) log(failure(`refused-${index}`, 'ECONNREFUSED'));
    log(failure('lock-0', '55P03'));
    log(failure('lock-1', '55P03'));
    log(failure('refused-50', 'ECONNREFUSED'));
    assert.deepEqual(written.map((entry) => [entry.requestId, entry['causeCode']]), [['refused-0', 'ECONNREFUSED'], ['lock-0', '55P03']], 'the lock timeout reaches the log while the refusals repeat');
    clock.tick();
    assert.deepEqual(written.slice(2).map((entry) => [entry['causeCode'], entry['more'], entry['lastRequestId']]), [['ECONNREFUSED', 50, 'refused-50'], ['55P03', 1, 'lock-1']]);
  });

  test('createLogLimiter().storageAnswered() ends a storage outage with one event giving its length, its failures and their causes, after the counts held', () => {
    const written: LogEntry[] = [];
    const clock = manualSchedule();
    let time = 1_000_000;
    const limiter = createLogLimiter((entry) => void written.push(entry), { schedule: clock.schedule, now: () => time });
    limiter.storageAnswered();
    assert.equal(written.length, 0, 'no outage, no event');
    for (let index = 0; index < 3; index++) limiter.log({ ...storageFailure(`r-${index}`), causeCode: '57P01' });
    time += 4_500;
    limiter.log({ ...storageFailure('r-3'), causeCode: 'ECONNREFUSED' });
    time += 7_250;
    limiter.storageAnswered();
    limiter.storageAnswered();
    assert.deepEqual(written.map((entry) => [entry.msg, entry['causeCode'] ?? entry['causeCodes'], entry['more']]), [
      [STORAGE_FAILED_MSG, '57P01', undefined],
      [STORAGE_FAILED_MSG, 'ECONNREFUSED', undefined],
      ['The same failure repeated; not logged one by one', '57P01', 2],
      [STORAGE_RECOVERED_MSG, ['57P01', 'ECONNREFUSED'], undefined],
    ]);
    assert.deepEqual(written.at(-1), { level: 'info', msg: 'The storage recovered', outageSeconds: 11.75, failures: 4, causeCodes: ['57P01', 'ECONNREFUSED'] });
    limiter.log({ ...storageFailure('r-4'), causeCode: '57P01' });
    assert.equal(written.at(-1)?.requestId, 'r-4', 'the next outage is written in full from its first failure');
  });

  test('observeStorage() passes every answer through and tells the limiter, and keeps what the storage has', async () => {
    let answers = 0;
    const pet = { id: 1, name: 'Rex', categoryId: 1 };
    const storage: PetStorage = {
      insert: async () => pet, get: async () => pet, list: async () => [pet], checkReady: async () => undefined, usage: () => ({ pets: 1, bytes: 8 }),
    };
    const observed = observeStorage(storage, { storageAnswered: () => void answers++ });
    assert.deepEqual([await observed.insert(pet), await observed.get(1), await observed.list({ status: undefined, after: 0, limit: 1 })], [pet, pet, [pet]]);
    await observed.checkReady?.();
    assert.equal(answers, 4);
    assert.equal(observed.insertOnce, undefined, 'a storage without insertOnce stays without it');
    assert.deepEqual(observed.usage?.(), storage.usage?.());
    await assert.rejects(observeStorage({ ...storage, get: () => Promise.reject(new Error('down')) }, { storageAnswered: () => void answers++ }).get(1), /down/);
    assert.equal(answers, 4, 'a failure is no answer');
  });
});
