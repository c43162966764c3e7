import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../support/process.js';
import { percentile, PROFILE, report } from './settings.js';

// The soak runs in the long profile only (`npm run test:robust` passes this file to node --test);
// it is not named *.test.ts, so `npm test` never picks it up.

const KEY = 'soak-key-5e1f-0123';

/** Concurrent keep-alive connections of the load generator. */
const CONNECTIONS = 32;

/** Largest RSS growth after warm-up accepted (per cent) [issue 7]. */
const MAX_GROWTH_PERCENT = 10;

async function taskset(core: number): Promise<string[]> {
  const hasTaskset = await new Promise<boolean>((done) => spawn('taskset', ['-c', '0', 'true']).once('exit', (code) => done(code === 0)).once('error', () => done(false)));
  return hasTaskset ? ['taskset', '-c', String(core)] : [];
}

/** The server's resident set size in MB, from /proc. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}

describe('soak', () => {
  test(`the server under ${PROFILE.soakSeconds} s of mixed load from another process answers only the intended statuses and its memory stays within ${MAX_GROWTH_PERCENT} % after warm-up`, async () => {
    const serverPrefix = await taskset(0);
    const command = [...serverPrefix, process.execPath, '--import', 'tsx', resolve(ROOT, 'extras', 'cli', 'main.ts')];
    const server = spawn(command[0] as string, command.slice(1), { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    let serverOutput = '';
    const exited = new Promise<number | string>((done) => server.once('exit', (code, signal) => done(code ?? signal ?? -1)));
    const origin = await new Promise<string>((ready, fail) => {
      server.stdout.on('data', (data: Buffer) => {
        serverOutput += data.toString();
        const match = /listening on (http:\/\/[^/\s]+)/.exec(serverOutput);
        if (match?.[1] !== undefined) ready(match[1]);
      });
      server.stderr.on('data', (data: Buffer) => { serverOutput += data.toString(); });
      void exited.then((code) => fail(new Error(`server exited with ${code}: ${serverOutput}`)));
    });
    const pid = server.pid as number;

    const samples: { second: number; rss: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(() => {
      rssMb(pid).then((rss) => samples.push({ second: (Date.now() - started) / 1000, rss }), () => {});
    }, 1_000);
    const generatorCommand = [...(await taskset(1)), process.execPath, '--import', 'tsx', resolve(ROOT, 'test', 'robustness', 'load-generator.ts'), origin, String(PROFILE.soakSeconds), String(CONNECTIONS), KEY];
    const generator = spawn(generatorCommand[0] as string, generatorCommand.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let generatorOutput = '';
    generator.stdout.on('data', (data: Buffer) => { generatorOutput += data.toString(); });
    const generatorCode = await new Promise<number | null>((done) => generator.once('exit', done));
    clearInterval(sampler);
    server.kill('SIGTERM');
    const serverCode = await exited;

    assert.equal(generatorCode, 0, generatorOutput);
    const result = JSON.parse(generatorOutput.trim().split('\n').at(-1) as string) as { requests: number; throughput: number; p99Ms: number; p50Ms: number; byStatus: Record<string, number>; unexpected: Record<string, number>; created: number };
    const warm = samples.filter((sample) => sample.second >= PROFILE.soakWarmupSeconds && sample.second < PROFILE.soakWarmupSeconds + 10).map((sample) => sample.rss);
    const end = samples.filter((sample) => sample.second >= PROFILE.soakSeconds - 10).map((sample) => sample.rss);
    const first = samples[0]?.rss ?? Number.NaN;
    const middle = median(samples.filter((sample) => Math.abs(sample.second - (PROFILE.soakWarmupSeconds + PROFILE.soakSeconds) / 2) < 5).map((sample) => sample.rss));
    const growth = ((median(end) - median(warm)) / median(warm)) * 100;
    const round = (value: number): number => Math.round(value * 10) / 10;
    report({
      part: `soak (${PROFILE.soakSeconds} s, ${CONNECTIONS} connections)`,
      cases: result.requests,
      failures: Object.values(result.unexpected).reduce((sum, count) => sum + count, 0),
      throughput: Math.round(result.throughput),
      p99Ms: round(result.p99Ms),
      rssStartMb: round(median(warm)),
      rssEndMb: round(median(end)),
      rssGrowthPercent: round(growth),
      note: `RSS at start ${round(first)} MB, half-way ${round(middle)} MB; statuses ${JSON.stringify(result.byStatus)}; ${result.created} created; p50 ${round(result.p50Ms)} ms`,
    });
    assert.deepEqual(result.unexpected, {}, 'no answer other than the intended one for each request');
    assert.ok(growth < MAX_GROWTH_PERCENT, `RSS grew ${round(growth)} % after warm-up (${round(median(warm))} → ${round(median(end))} MB)`);
    assert.equal(serverCode, 0, serverOutput);
  });
});
