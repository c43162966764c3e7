import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freshSeed } from './prng.js';
import { TOOLS_REGISTER } from '../tools/paths.js';
import type { Figures } from './settings.js';

// `npm run test:robust` → the long profile of every robustness test plus the soak, then one
// summary table. PETSTORE_FUZZ_SEED replays a run; PETSTORE_SOAK_SECONDS changes the soak's length.

const HERE = import.meta.dirname;

function cell(value: number | string | undefined): string {
  return value === undefined || (typeof value === 'number' && Number.isNaN(value)) ? '' : String(value);
}

/** The figures as a Markdown table, so the same text goes into docs/robustness.md. */
function table(rows: readonly Figures[]): string {
  const header = ['part', 'cases tried', 'failures', 'p99 (ms)', 'throughput (req/s)', 'RSS after warm-up (MB)', 'RSS at end (MB)', 'RSS growth (%)'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    lines.push(`| ${[row.part, row.cases, row.failures, row.p99Ms, row.throughput, row.rssStartMb, row.rssEndMb, row.rssGrowthPercent].map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const seed = process.env['PETSTORE_FUZZ_SEED'] ?? String(freshSeed());
  const directory = await mkdtemp(join(tmpdir(), 'petstore-robust-'));
  const reportFile = join(directory, 'figures.jsonl');
  const files = (await readdir(HERE)).filter((name) => name.endsWith('.test.ts')).sort().map((name) => resolve(HERE, name));
  files.push(resolve(HERE, 'soak.long.ts'));
  process.stdout.write(`Robustness, long profile, seed ${seed} (replay with PETSTORE_FUZZ_SEED=${seed})\n`);
  const started = Date.now();
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', TOOLS_REGISTER, '--test', '--test-concurrency=1', '--test-reporter', 'spec', ...files], {
      stdio: 'inherit',
      env: { ...process.env, PETSTORE_ROBUST: 'long', PETSTORE_FUZZ_SEED: seed, PETSTORE_ROBUST_REPORT: reportFile },
    });
    child.once('exit', (exitCode) => done(exitCode ?? 1));
  });
  const rows = (await readFile(reportFile, 'utf8').catch(() => '')).split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as Figures);
  process.stdout.write(`\nSummary (seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s, Node ${process.version}):\n\n${table(rows)}\n\n`);
  for (const row of rows) if (row.note !== undefined) process.stdout.write(`- ${row.part}: ${row.note}\n`);
  await rm(directory, { recursive: true, force: true });
  return code;
}

process.exitCode = await main();
