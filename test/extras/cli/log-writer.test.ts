import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLogWriter } from '../../../extras/cli/log-writer.js';
import { LOG_LEVELS } from '../../../extras/cli/settings.js';
import type { LogLevel } from '../../../server/node/index.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');

/** A writer at this level and the lines it wrote, parsed. */
function writer(level: LogLevel): { log: ReturnType<typeof createLogWriter>; lines: () => Record<string, unknown>[]; raw: string[] } {
  const raw: string[] = [];
  const log = createLogWriter({ level, write: (line) => raw.push(line), now: () => NOW });
  return { log, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogWriter()', () => {
  test('createLogWriter() writes one JSON line per event: time, level, msg, requestId, then the other fields', () => {
    const { log, raw } = writer('debug');
    log({ msg: 'request failed', level: 'error', error: 'Error: boom\n    at x', requestId: 'abc-1', status: 500 });
    log({ level: 'info', msg: 'Server listening', url: 'http://127.0.0.1:1/v1' });
    assert.deepEqual(raw, [
      '{"time":"2026-03-01T12:00:00.000Z","level":"error","msg":"request failed","requestId":"abc-1","error":"Error: boom\\n    at x","status":500}\n',
      '{"time":"2026-03-01T12:00:00.000Z","level":"info","msg":"Server listening","url":"http://127.0.0.1:1/v1"}\n',
    ]);
  });

  test('createLogWriter() writes the events of its level and the more severe ones only', () => {
    for (const level of LOG_LEVELS) {
      const { log, lines } = writer(level);
      for (const each of LOG_LEVELS) log({ level: each, msg: each });
      assert.deepEqual(lines().map((line) => line['msg']), LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1), level);
    }
  });

  test('createLogWriter() keeps its own time, writes an Error as its stack and a bigint as digits', () => {
    const { log, lines } = writer('info');
    const error = new Error('disk on fire');
    log({ level: 'warn', msg: 'Storage note', time: 'forged', error, big: 12n });
    const [line] = lines();
    assert.equal(line?.['time'], NOW.toISOString());
    assert.equal(line?.['error'], error.stack);
    assert.equal(line?.['big'], '12');
  });

  test('createLogWriter() still writes an event whose fields JSON cannot hold, without them', () => {
    const { log, lines } = writer('info');
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    log({ level: 'warn', msg: 'odd', requestId: 'r', cycle });
    const [line] = lines();
    assert.equal(line?.['msg'], 'odd');
    assert.equal(line?.['requestId'], 'r');
    assert.match(String(line?.['logError']), /^fields not serialisable: /);
    assert.equal(line?.['cycle'], undefined);
  });

  test('createLogWriter() defaults to the system clock', () => {
    const raw: string[] = [];
    createLogWriter({ level: 'info', write: (line) => raw.push(line) })({ level: 'info', msg: 'now' });
    const time = String((JSON.parse(raw[0] ?? '{}') as Record<string, unknown>)['time']);
    assert.match(time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
