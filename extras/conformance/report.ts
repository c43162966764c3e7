import type { CheckInfo, CheckResult, Level } from './types.js';

/** How many checks ended each way. */
export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
}

/** Counts the outcomes. */
export function summarize(results: readonly CheckResult[]): Summary {
  const count = (outcome: CheckResult['outcome']): number => results.filter((result) => result.outcome === outcome).length;
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}

/** The closing line of a run: `N passed, N failed, N skipped`. */
export function formatSummary(summary: Summary): string {
  return `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`;
}

/** Text safe to print on a terminal: control characters (C0, DEL, C1), which a server could send to drive it, shown as `\xNN`. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** One line for one result: outcome, id, clause, then the title, or for a failure what was sent, expected and received. */
export function formatResult(result: CheckResult): string {
  const head = `${result.outcome.toUpperCase()} ${result.id} [${result.clause}]`;
  if (result.outcome === 'pass') return printable(`${head} ${result.title}: ${result.detail}`);
  if (result.outcome === 'skip') return printable(`${head} ${result.title}: skipped, ${result.detail}`);
  return printable(`${head} ${result.detail}`);
}

/** The checks as a table: id, clause, level, title; one line each. */
export function formatList(checks: readonly CheckInfo[]): string {
  const width = Math.max(...checks.map((check) => check.id.length));
  const clauseWidth = Math.max(...checks.map((check) => check.clause.length)) + 2;
  return checks.map((check) => `${check.id.padEnd(width)}  ${`[${check.clause}]`.padEnd(clauseWidth)}  ${check.level.padEnd(9)}  ${check.title}`).join('\n');
}

/** The JSON report of a run (`--json`). */
export function toJsonReport(run: { baseUrl: string; level: Level; runId: string }, results: readonly CheckResult[]): string {
  return `${JSON.stringify({ ...run, summary: summarize(results), results }, null, 2)}\n`;
}

/** Text safe inside XML 1.0: characters XML cannot hold are dropped, markup characters escaped. */
function xml(text: string): string {
  return text
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function seconds(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(3);
}

/** One `<testcase>`, with its `<failure>` or `<skipped>`. */
function testCase(result: CheckResult): string {
  const open = `    <testcase classname="conformance.${xml(result.group)}" name="${xml(`${result.id} [${result.clause}] ${result.title}`)}" time="${seconds(result.durationMs)}"`;
  if (result.outcome === 'pass') return `${open}/>`;
  if (result.outcome === 'skip') return `${open}>\n      <skipped message="${xml(result.detail)}"/>\n    </testcase>`;
  const report = result.failure;
  const text = report === undefined ? result.detail : `sent: ${report.sent}\nexpected: ${report.expected}\nreceived: ${report.received}`;
  const message = report === undefined ? result.detail : `expected ${report.expected}`;
  return `${open}>\n      <failure message="${xml(message)}" type="${xml(result.source)}">${xml(text)}</failure>\n    </testcase>`;
}

/** The `name`, counts and `time` attributes of a `<testsuite>` or `<testsuites>` element. */
function suiteAttributes(name: string, results: readonly CheckResult[]): string {
  const { failed, skipped } = summarize(results);
  const time = seconds(results.reduce((total, result) => total + result.durationMs, 0));
  return `name="${xml(name)}" tests="${results.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${time}"`;
}

/** A JUnit XML report of a run (`--junit-report`): one `<testsuite>` per group, one `<testcase>` per check. */
export function toJunitXml(run: { baseUrl: string; level: Level }, results: readonly CheckResult[]): string {
  const groups = [...new Set(results.map((result) => result.group))];
  const suites = groups.map((group) => {
    const members = results.filter((result) => result.group === group);
    return [`  <testsuite ${suiteAttributes(group, members)}>`, ...members.map(testCase), '  </testsuite>'].join('\n');
  });
  const name = `petstore conformance (${run.level}) of ${run.baseUrl}`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites ${suiteAttributes(name, results)}>`, ...suites, '</testsuites>', ''].join('\n');
}
