import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { cpuTicksOfStat, gaugeTable, geometricMean, processCpuMicroseconds, runNanosecondsOfSchedstat, summariseRoute, threadCores } from '../../bench/gauge-figures.js';

/** A /proc/<pid>/stat line of a node process, utime 1234 and stime 567 (fields 14 and 15). */
const STAT = '4242 (node) S 4241 4242 4242 0 -1 4194560 12345 0 0 0 1234 567 0 0 20 0 11 0 98765 1234567890 23456 18446744073709551615 1 1 0 0 0 0 0 16781312 134235650 0 0 0 17 0 0 0 0 0 0';

describe('cpuTicksOfStat()', () => {
  test('cpuTicksOfStat() adds utime and stime, fields 14 and 15 of proc(5)', () => {
    assert.equal(cpuTicksOfStat(STAT), 1234 + 567);
  });

  test('cpuTicksOfStat() counts the fields after the last `)`, whatever the command name holds', () => {
    assert.equal(cpuTicksOfStat(STAT.replace('(node)', '(a (b) c) 9 9 9)')), 1801);
  });

  test('cpuTicksOfStat() refuses a line that is not a stat line, quoting it', () => {
    for (const text of ['', 'node', '4242 (node) S 1 2 3', STAT.replace(' 1234 ', ' x ')]) {
      assert.throws(() => cpuTicksOfStat(text), /^Error: not a \/proc\/<pid>\/stat line \(utime and stime are fields 14 and 15\): /, text);
    }
  });
});

describe('runNanosecondsOfSchedstat()', () => {
  test('runNanosecondsOfSchedstat() gives the first field, the nanoseconds the thread has run', () => {
    assert.equal(runNanosecondsOfSchedstat('205883970 10919430 447\n'), 205_883_970);
  });

  test('runNanosecondsOfSchedstat() gives undefined where the kernel keeps no run time, so the caller reads /proc/<pid>/stat instead', () => {
    for (const text of ['0 0 1\n', '', 'x y z']) assert.equal(runNanosecondsOfSchedstat(text), undefined, JSON.stringify(text));
  });
});

// Linux's /proc: elsewhere the gauge cannot run, and these two are skipped.
describe('processCpuMicroseconds() and threadCores()', { skip: !existsSync('/proc/self/task') }, () => {
  test('processCpuMicroseconds() reads this process\'s CPU time, which grows as it works', async () => {
    const before = await processCpuMicroseconds(process.pid);
    const until = process.cpuUsage().user + 50_000;
    while (process.cpuUsage().user < until) Math.sqrt(Math.random());
    assert.ok((await processCpuMicroseconds(process.pid)) > before);
  });

  test('threadCores() lists every thread of this process with the cores it may run on', async () => {
    const cores = await threadCores(process.pid);
    assert.ok(cores.has(process.pid));
    for (const allowed of cores.values()) assert.match(allowed, /^[\d,-]+$/);
  });
});

describe('summariseRoute() and gaugeTable()', () => {
  test('summariseRoute() pairs the builds round by round and takes the median ratio, with its spread', () => {
    const summary = summariseRoute({ route: 'GET /v1/pets/42', current: [20, 22, 25], against: [20, 20, 20] });
    assert.deepEqual(summary, { route: 'GET /v1/pets/42', currentMicroseconds: 22, againstMicroseconds: 20, ratio: 20 / 22, lowest: 0.8, highest: 1, isSlower: true });
  });

  test('summariseRoute() flags a route only beyond 5 % more CPU per request', () => {
    assert.equal(summariseRoute({ route: 'r', current: [104.9], against: [100] }).isSlower, false);
    assert.equal(summariseRoute({ route: 'r', current: [105.1], against: [100] }).isSlower, true);
    assert.equal(summariseRoute({ route: 'r', current: [80], against: [100] }).isSlower, false);
  });

  test('summariseRoute() refuses a route no round measured on both builds', () => {
    assert.throws(() => summariseRoute({ route: 'GET /v1/pets', current: [10], against: [] }), /^Error: GET \/v1\/pets: no round measured both builds$/);
  });

  test('gaugeTable() gives a row per route, the flag, and the geometric mean of the ratios', () => {
    const table = gaugeTable([
      summariseRoute({ route: 'GET /v1/pets/42', current: [20], against: [20] }),
      summariseRoute({ route: 'GET /v1/pets without a key (401)', current: [20], against: [16] }),
    ], '762c6c9');
    assert.equal(table, [
      '| route | this build, µs/request | 762c6c9, µs/request | 762c6c9 / this build | rounds, lowest–highest | |',
      '|---|---:|---:|---:|---:|---|',
      '| `GET /v1/pets/42` | 20.0 | 20.0 | 1.000× | 1.00–1.00× |  |',
      '| `GET /v1/pets without a key (401)` | 20.0 | 16.0 | 0.800× | 0.80–0.80× | **slower by more than 5 %** |',
      `| **geometric mean** | | | **${geometricMean([1, 0.8]).toFixed(3)}×** | | |`,
    ].join('\n'));
    assert.equal(geometricMean([1, 0.8]).toFixed(3), '0.894');
  });
});
