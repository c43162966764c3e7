// Runs the conformance kit at both levels against every implementation of the interface this
// repository can start (its own server through both adapters, prism mock of openapi.json, and the
// two benchmark servers) and prints the results tables of docs/conformance-kit.md.
// Run with `npm run conformance-table` (it needs the test tools: Prism, fastify); test/extras/conformance/others.test.ts and
// test/extras/conformance/prism.test.ts fail when the departures recorded there change.
import { LEVELS, runConformance, summarize } from '../extras/conformance/index.js';
import type { CheckResult, Level } from '../extras/conformance/index.js';
import { hasPrism, startBaseline, startFastify, startFetchTarget, startNodeAdapter, startPrism } from '../test/extras/conformance/support/targets.js';
import type { Target } from '../test/extras/conformance/support/targets.js';

/** The implementations, in the order of the table. */
const IMPLEMENTATIONS: readonly { name: string; start: () => Promise<Target> }[] = [
  { name: 'this project, node:http adapter (`startServer`)', start: () => startNodeAdapter() },
  { name: 'this project, fetch adapter (`createFetchHandler`)', start: () => startFetchTarget() },
  { name: '`prism mock openapi.json` (static)', start: () => startPrism() },
  { name: 'bench baseline (hand-written `node:http`)', start: startBaseline },
  { name: 'bench fastify 5', start: startFastify },
];

/** A run's text made stable across runs: no ports, no run ids. */
function stable(text: string): string {
  return text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').replace(/conformance-table-/g, 'conformance-<run>-').replace(/\|/g, '\\|');
}

function abridge(text: string, length = 150): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

async function runBoth(start: () => Promise<Target>): Promise<Record<Level, CheckResult[]>> {
  const target = await start();
  try {
    const spec = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level: 'spec', runId: 'table' });
    const reference = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level: 'reference', runId: 'table' });
    return { spec, reference };
  } finally {
    await target.close();
  }
}

function counts(results: readonly CheckResult[]): string {
  const { passed, failed, skipped } = summarize(results);
  return `${passed} passed, ${failed} failed${skipped === 0 ? '' : `, ${skipped} skipped`}`;
}

const summaryRows: string[] = ['| implementation | spec level | reference level |', '|---|---|---|'];
const sections: string[] = [];
for (const { name, start } of IMPLEMENTATIONS) {
  if (name.includes('prism') && !hasPrism()) throw new Error('prism is not installed: run npm ci');
  const results = await runBoth(start);
  summaryRows.push(`| ${name} | ${LEVELS.map((level) => counts(results[level])).join(' | ')} |`);
  // The reference run includes every spec check, so it lists every departure once.
  const departures = results.reference.filter((candidate) => candidate.outcome !== 'pass');
  if (departures.length === 0) continue;
  sections.push(`#### ${name}\n\n| check | level | outcome: expected; received |\n|---|---|---|`);
  for (const result of departures) {
    const why = result.failure === undefined ? result.detail : `expected ${result.failure.expected}; received ${result.failure.received}`;
    sections.push(`| \`${result.id}\` [${result.clause}] | ${result.level} | ${result.outcome}: ${stable(abridge(why, 200))} |`);
  }
  sections.push('');
}
process.stdout.write(`${summaryRows.join('\n')}\n\n${sections.join('\n')}`);
