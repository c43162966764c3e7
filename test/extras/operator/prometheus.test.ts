import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Counter, escapeLabelValue, formatValue, Gauge, Histogram, renderFamilies } from '../../../extras/operator/prometheus.js';

describe('the Prometheus text format', () => {
  test('escapeLabelValue() escapes backslash, double quote and line feed, and nothing else', () => {
    const cases: [string, string][] = [['plain', 'plain'], ['a\\b', 'a\\\\b'], ['say "hi"', 'say \\"hi\\"'], ['two\nlines', 'two\\nlines'], ['tab\tand ünïcode', 'tab\tand ünïcode']];
    for (const [value, escaped] of cases) assert.equal(escapeLabelValue(value), escaped, JSON.stringify(value));
  });

  test('formatValue() writes NaN and the infinities as the format spells them', () => {
    assert.deepEqual([Number.NaN, Infinity, -Infinity, 0, 1.5, 1e-7, 12345678].map(formatValue), ['NaN', '+Inf', '-Inf', '0', '1.5', '1e-7', '12345678']);
  });

  test('Counter renders HELP, TYPE and one line per label set, with escaped values and escaped HELP', () => {
    const counter = new Counter('things_total', 'Things seen\\counted\nper kind', ['kind', 'note']);
    counter.series(['a', 'x']).value += 2;
    counter.series(['b"c', 'y\nz']).value++;
    counter.series(['a', 'x']).value++;
    assert.equal(renderFamilies([counter]), [
      '# HELP things_total Things seen\\\\counted\\nper kind',
      '# TYPE things_total counter',
      'things_total{kind="a",note="x"} 3',
      'things_total{kind="b\\"c",note="y\\nz"} 1',
      '',
    ].join('\n'));
    assert.throws(() => counter.series(['only one']), /^TypeError: Expected 2 label values, got 1$/);
  });

  test('Gauge renders its value, or the value read at scrape time', () => {
    const set = new Gauge('set_value', 'A set value');
    set.value = 4;
    let reads = 0;
    const read = new Gauge('read_value', 'A read value', () => ++reads);
    assert.equal(renderFamilies([set, read]), '# HELP set_value A set value\n# TYPE set_value gauge\nset_value 4\n# HELP read_value A read value\n# TYPE read_value gauge\nread_value 1\n');
  });

  test('Histogram renders cumulative buckets with le, +Inf, _sum and _count, with and without other labels', () => {
    const plain = new Histogram('wait_seconds', 'Waits', [], [0.1, 1]);
    const series = plain.series([]);
    for (const value of [0.05, 0.1, 0.5, 3]) plain.observe(series, value);
    assert.equal(renderFamilies([plain]), [
      '# HELP wait_seconds Waits',
      '# TYPE wait_seconds histogram',
      'wait_seconds_bucket{le="0.1"} 2',
      'wait_seconds_bucket{le="1"} 3',
      'wait_seconds_bucket{le="+Inf"} 4',
      'wait_seconds_sum 3.65',
      'wait_seconds_count 4',
      '',
    ].join('\n'));
    const labelled = new Histogram('step_seconds', 'Steps', ['step'], [1]);
    labelled.observe(labelled.series(['read']), 2);
    assert.match(renderFamilies([labelled]), /^step_seconds_bucket\{step="read",le="1"\} 0\nstep_seconds_bucket\{step="read",le="\+Inf"\} 1\nstep_seconds_sum\{step="read"\} 2\nstep_seconds_count\{step="read"\} 1$/m);
  });

  test('Histogram refuses bounds that do not ascend and a label named le', () => {
    assert.throws(() => new Histogram('h', 'h', [], [1, 1]), /bounds must ascend/);
    assert.throws(() => new Histogram('h', 'h', [], [2, 1]), /bounds must ascend/);
    assert.throws(() => new Histogram('h', 'h', ['le'], [1]), /`le` is the bucket label/);
  });
});
