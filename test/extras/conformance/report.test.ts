import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatSummary, listChecks, summarize } from '../../../extras/conformance/index.js';
import type { CheckResult } from '../../../extras/conformance/index.js';
import { formatList } from '../../../extras/conformance/report.js';
import { formatResult } from '../../../extras/conformance/report.js';
import { toJsonReport } from '../../../extras/conformance/report.js';
import { toJunitXml } from '../../../extras/conformance/report.js';

const INFO = { group: 'create', clause: '4.2', level: 'spec', title: 'createPet answers 201', source: 'spec 4.2' } as const;
const RESULTS: CheckResult[] = [
  { ...INFO, id: 'create/created', outcome: 'pass', detail: '201 with pet 5', durationMs: 3 },
  {
    ...INFO,
    id: 'create/distinct-ids',
    outcome: 'fail',
    detail: 'sent POST /v1/pets; expected 201 <Pet> & "id"; received 200',
    failure: { sent: 'POST /v1/pets', expected: '201 <Pet> & "id"', received: '200 \u0000\u0007\uFFFE\uD800 {"id":1}' },
    durationMs: 12,
  },
  { ...INFO, group: 'get', id: 'get/created-pet', clause: '4.3', outcome: 'skip', detail: 'needs the pets this run creates', durationMs: 0 },
];

describe('the reports of a run', () => {
  test('formatResult() writes one line per check: outcome, id, clause, then the title or what was sent, expected and received', () => {
    assert.deepEqual(RESULTS.map(formatResult), [
      'PASS create/created [4.2] createPet answers 201: 201 with pet 5',
      'FAIL create/distinct-ids [4.2] sent POST /v1/pets; expected 201 <Pet> & "id"; received 200',
      'SKIP get/created-pet [4.3] createPet answers 201: skipped, needs the pets this run creates',
    ]);
  });

  test('formatResult() shows the control characters a server sends as \\xNN, so they cannot drive the terminal', () => {
    const result: CheckResult = { ...INFO, id: 'create/created', outcome: 'fail', detail: 'received 200 \u001b[2J\u009b31m\nnext', durationMs: 0 };
    assert.equal(formatResult(result), 'FAIL create/created [4.2] received 200 \\x1b[2J\\x9b31m\\x0anext');
  });

  test('formatSummary() counts the outcomes as "N passed, N failed, N skipped"', () => {
    assert.equal(formatSummary(summarize(RESULTS)), '1 passed, 1 failed, 1 skipped');
    assert.equal(formatSummary(summarize([])), '0 passed, 0 failed, 0 skipped');
  });

  test('formatList() writes id, clause, level and title in aligned columns', () => {
    const lines = formatList(listChecks({ level: 'reference', only: ['auth/missing-key/listPets', 'http/options'] })).split('\n');
    assert.deepEqual(lines, [
      'auth/missing-key/listPets  [5.4]  spec       listPets without a key answers 401 with the Error body',
      'http/options               [4]    reference  OPTIONS on a known path answers 204 with Allow, without a key',
    ]);
  });

  test('toJsonReport() holds the run, the summary and every result', () => {
    const report = JSON.parse(toJsonReport({ baseUrl: 'http://127.0.0.1:8080/v1', level: 'spec', runId: 'abc' }, RESULTS)) as Record<string, unknown>;
    assert.deepEqual(report['summary'], { passed: 1, failed: 1, skipped: 1 });
    assert.equal(report['runId'], 'abc');
    assert.equal((report['results'] as unknown[]).length, 3);
  });

  test('toJunitXml() writes one testsuite per group with counts, failures with what was sent, expected and received, and escaped text', () => {
    const xml = toJunitXml({ baseUrl: 'http://127.0.0.1:8080/v1', level: 'spec' }, RESULTS);
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="petstore conformance (spec) of http://127.0.0.1:8080/v1" tests="3" failures="1" errors="0" skipped="1" time="0.015">'));
    assert.ok(xml.includes('<testsuite name="create" tests="2" failures="1" errors="0" skipped="0" time="0.015">'));
    assert.ok(xml.includes('<testsuite name="get" tests="1" failures="0" errors="0" skipped="1" time="0.000">'));
    assert.ok(xml.includes('<testcase classname="conformance.create" name="create/created [4.2] createPet answers 201" time="0.003"/>'));
    assert.ok(xml.includes('<failure message="expected 201 &lt;Pet&gt; &amp; &quot;id&quot;" type="spec 4.2">sent: POST /v1/pets\nexpected: 201 &lt;Pet&gt; &amp; &quot;id&quot;\nreceived: 200  {&quot;id&quot;:1}</failure>'));
    assert.ok(xml.includes('<skipped message="needs the pets this run creates"/>'));
    assert.ok(!/[\u0000-\u0008\uFFFE\uD800]/.test(xml));
    assert.ok(xml.endsWith('</testsuites>\n'));
  });
});
