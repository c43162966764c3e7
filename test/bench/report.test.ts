import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { luaScript, SCENARIOS, SERVERS } from '../../bench/http.js';
import type { HttpBenchResults, ServerName, WrkResult } from '../../bench/http.js';
import { benchReport } from '../../bench/report.js';
import type { ReportInput } from '../../bench/report.js';

/** Requests per second of each server in every scenario of the synthetic run. */
const RATES: Record<ServerName, number> = {
  'against': 27_000,
  'project': 30_000,
  'project-metrics': 29_000,
  'baseline': 20_000,
  'fastify': 24_000,
  'lean-fastify': 25_000,
  'ceiling-plain': 40_000,
  'ceiling-same-headers': 32_000,
};

function results(servers: readonly ServerName[]): HttpBenchResults {
  const sample = (server: ServerName): WrkResult[] => [1, 3, 2].map((round) => ({ requestsPerSecond: RATES[server] * (0.9 + round * 0.05), p99Ms: round, requests: 1000 }));
  return {
    samples: new Map(SCENARIOS.map((scenario) => [scenario.name, new Map(servers.map((server) => [server, sample(server)]))])),
    missingHeaders: new Map(servers.map((server) => [server, new Map(SCENARIOS.map((scenario) => [scenario.name, server.startsWith('project') || server === 'ceiling-same-headers' ? [] : ['Link']]))])),
  };
}

function input(servers: readonly ServerName[]): ReportInput {
  return {
    command: 'npm run bench -- --rounds 3',
    date: '2026-11-23',
    machine: '2 cores.',
    rounds: 3,
    durationSeconds: 5,
    warmupSeconds: 2,
    servers,
    http: results(servers),
    inProcess: {
      results: [
        { operation: 'listPets({ limit: 100, status })', pets: 1_000, nsPerOp: 800, opsPerSecond: 1_250_000 },
        { operation: 'listPets({ limit: 100, status })', pets: 1_000_000, nsPerOp: 1_000, opsPerSecond: 1_000_000 },
      ],
      bytesPerPet: 140,
      requestCore: [{ request: 'GET /v1/pets/42', injectNsPerOp: 3_000, handleNsPerOp: 2_000 }],
    },
    startup: { compiledMs: 100, tsxMs: 600 },
    elapsed: { totalMs: 600_000, httpMs: 540_000 },
  };
}

function rowOf(report: string, heading: string, scenario: string): string[] {
  const section = report.slice(report.indexOf(heading));
  const line = section.split('\n').find((candidate) => candidate.startsWith(`| \`${scenario}\``)) ?? '';
  return line.slice(1, -1).split('|').map((cell) => cell.trim());
}

describe('benchReport()', () => {
  test('benchReport() gives every server\'s req/s and the ratios to fastify, lean fastify and the baseline, with their geometric means', () => {
    const report = benchReport(input(SERVERS));
    assert.match(report, /\| scenario \| `project` \| `baseline` \| `fastify` \| `lean-fastify` \| `ceiling-plain` \| `ceiling-same-headers` \| project \/ fastify \| project \/ lean-fastify \| project \/ baseline \|/);
    assert.deepEqual(rowOf(report, '## HTTP', 'GET /v1/pets/42'), ['`GET /v1/pets/42`', '30,000', '20,000', '24,000', '25,000', '40,000', '32,000', '1.25×', '1.20×', '1.50×']);
    assert.match(report, /\| \*\*geometric mean\*\* \|( {2}\|){6} \*\*1\.25×\*\* \| \*\*1\.20×\*\* \| \*\*1\.50×\*\* \|/);
  });

  test('benchReport() gives each server\'s fraction of both ceilings, and what the project\'s headers cost the ceiling', () => {
    const row = rowOf(benchReport(input(SERVERS)), '## Fraction of the ceilings', 'POST /v1/pets (201)');
    assert.deepEqual(row, ['`POST /v1/pets (201)`', '75 % / 94 %', '73 % / 91 %', '50 % / 63 %', '60 % / 75 %', '63 % / 78 %', '80 %']);
  });

  test('benchReport() lists the optional headers each other server left out', () => {
    const report = benchReport(input(SERVERS));
    assert.deepEqual(rowOf(report, '## Differences', 'lean-fastify').slice(0, 2), ['`lean-fastify`', '`Link`']);
    assert.deepEqual(rowOf(report, '## Differences', 'ceiling-same-headers').slice(0, 2), ['`ceiling-same-headers`', 'none missing']);
    assert.match(report, /The project sent every one of them\./);
  });

  test('benchReport() compares the request core in-process with the project\'s time per request over HTTP', () => {
    assert.deepEqual(rowOf(benchReport(input(SERVERS)), '## Request core in-process', 'GET /v1/pets/42'), ['`GET /v1/pets/42`', '3,000', '2,000', '33,333', '6 %']);
  });

  test('benchReport() measures the cost of metrics only when the project ran with them, and says when it did not', () => {
    assert.match(benchReport(input(SERVERS)), /\| `GET \/v1\/pets\/42` \| 29,000 \| 30,000 \| 0\.967× \| 0\.967×, 0\.967×, 0\.967× \|/);
    const withoutMetrics = benchReport(input(SERVERS.filter((server) => server !== 'project-metrics')));
    assert.match(withoutMetrics, /## Cost of metrics\n\nNot measured in this run \(`--no-metrics`\)\./);
    assert.doesNotMatch(withoutMetrics, /`project-metrics`/);
  });

  test('benchReport() says how long the run took, and how long its HTTP part', () => {
    assert.match(benchReport(input(SERVERS)), /The run took 10\.0 min, of which HTTP 9\.0 min \(7 servers × 3 rounds × 6 scenarios × 7 s of wrk/);
  });

  test('benchReport() states the rate of a create with a fresh Idempotency-Key beside the one without, and its wrk script sends a new key per request', () => {
    assert.match(benchReport(input(SERVERS)), /A create with a fresh `Idempotency-Key` per request runs at 100 % of the rate of one without/);
    const keyed = SCENARIOS.find((scenario) => scenario.hasIdempotencyKey === true);
    assert.ok(keyed !== undefined);
    assert.match(luaScript(keyed), /request = function\(\)\n  counter = counter \+ 1\n  wrk\.headers\["Idempotency-Key"\] = '"' \.\. prefix \.\. "-" \.\. counter \.\. '"'/);
    const plain = SCENARIOS.find((scenario) => scenario.name === 'POST /v1/pets (201)');
    assert.ok(plain !== undefined);
    assert.doesNotMatch(luaScript(plain), /Idempotency-Key/);
  });

  test('benchReport() with an --against build gives its column, this build / that build per scenario with their geometric mean, and a section of its own', () => {
    const servers: ServerName[] = [...SERVERS];
    servers.splice(1, 0, 'against');
    const report = benchReport({ ...input(servers), command: 'npm run bench -- --rounds 3 --against v3.0.0', against: { revision: 'v3.0.0', commit: '762c6c930240aaaabbbbccccddddeeeeffff0000', start: 'node dist/cli/main.js' } });
    assert.match(report, /^Servers, in the order of the first round: `project`, `against`: `v3\.0\.0` \(commit 762c6c930240\) started as `node dist\/cli\/main\.js`, `project-metrics`, /m);
    assert.match(report, /\| scenario \| `project` \| `against` \| `baseline` \| `fastify` \| `lean-fastify` \| `ceiling-plain` \| `ceiling-same-headers` \| project \/ fastify \| project \/ lean-fastify \| project \/ baseline \| project \/ against \|/);
    assert.deepEqual(rowOf(report, '## HTTP', 'GET /v1/pets/42'), ['`GET /v1/pets/42`', '30,000', '27,000', '20,000', '24,000', '25,000', '40,000', '32,000', '1.25×', '1.20×', '1.50×', '1.11×']);
    assert.deepEqual(rowOf(report, '## HTTP', 'POST /v1/pets with Idempotency-Key (201)').at(-1), '1.11×');
    assert.match(report, /\| \*\*geometric mean\*\* \|( {2}\|){7} \*\*1\.25×\*\* \| \*\*1\.20×\*\* \| \*\*1\.50×\*\* \| \*\*1\.11×\*\* \|/);
    const section = '## This build against `v3.0.0` (commit 762c6c930240)';
    assert.ok(report.includes(`${section}\n`), 'the section of the against build');
    assert.deepEqual(rowOf(report, section, 'POST /v1/pets (201)'), ['`POST /v1/pets (201)`', '30,000', '27,000', '1.11×', '1.11×, 1.11×, 1.11×', '2.00 ms', '2.00 ms']);
    assert.match(report.slice(report.indexOf(section)), /\| \*\*geometric mean\*\* \|( {2}\|){2} \*\*1\.11×\*\* \|( {2}\|){3}/);
    assert.deepEqual(rowOf(report, '## Fraction of the ceilings', 'GET /v1/pets/42').slice(0, 4), ['`GET /v1/pets/42`', '75 % / 94 %', '73 % / 91 %', '68 % / 84 %']);
    assert.match(report, /\| `GET \/v1\/pets\/42` \| against \| 25,650, 28,350, 27,000 \|/);
  });

  test('benchReport() with an --against build compares the two by server CPU per request too, round by round, when /proc gave it', () => {
    const servers: ServerName[] = ['project', 'against', 'fastify', 'lean-fastify', 'baseline', 'ceiling-plain', 'ceiling-same-headers'];
    const http = results(servers);
    for (const byServer of http.samples.values()) {
      for (const [server, samples] of byServer) samples.forEach((sample, round) => { sample.cpuMicroseconds = (server === 'against' ? 20 : 25) + round; });
    }
    const report = benchReport({ ...input(servers), http, against: { revision: 'v3.0.0', commit: '762c6c930240aaaabbbbccccddddeeeeffff0000', start: 'node dist/cli/main.js' } });
    assert.match(report, /By server CPU per request/);
    assert.deepEqual(rowOf(report, 'By server CPU per request', 'GET /v1/pets/42'), ['`GET /v1/pets/42`', '26.0', '21.0', '0.808×', '0.80–0.81×', '**slower by more than 5 %**']);
    assert.doesNotMatch(benchReport({ ...input(servers), against: { revision: 'v3.0.0', commit: '762c6c930240aaaabbbbccccddddeeeeffff0000', start: 'node dist/cli/main.js' } }), /By server CPU per request/);
  });

  test('benchReport() without an --against build has neither its column nor its section', () => {
    const report = benchReport(input(SERVERS));
    assert.doesNotMatch(report, /`against`|project \/ against|## This build against/);
  });
});
