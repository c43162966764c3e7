import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** A Markdown table: its header cells and its rows of cells, trimmed. */
interface Table {
  header: string[];
  rows: string[][];
}

/** Every table of a document with a `project / fastify` column, in order. */
function ratioTables(markdown: string): Table[] {
  const lines = markdown.split('\n');
  const cellsOf = (line: string): string[] => line.slice(1, -1).split('|').map((cell) => cell.trim());
  const tables: Table[] = [];
  lines.forEach((line, start) => {
    if (!(line.startsWith('|') && line.includes('| project / fastify |'))) return;
    const rows: string[][] = [];
    for (const row of lines.slice(start + 2)) {
      if (!row.startsWith('|')) break;
      rows.push(cellsOf(row));
    }
    tables.push({ header: cellsOf(line), rows });
  });
  return tables;
}

test('docs/performance.md figures are the ratios of the runs in bench/RESULTS.md, one table per Node, column by column', async () => {
  const summaries = ratioTables(await readFile(join(ROOT, 'docs', 'performance.md'), 'utf8'));
  const runs = ratioTables(await readFile(join(ROOT, 'bench', 'RESULTS.md'), 'utf8'));
  assert.ok(summaries.length >= 2, `docs/performance.md shows ${summaries.length} runs: the newest LTS's and the system Node's`);
  assert.equal(summaries.length, runs.length, 'one table per run of bench/RESULTS.md');
  summaries.forEach((summary, index) => {
    const results = runs[index] as Table;
    assert.ok(results.rows.length >= 5, `${results.rows.length} scenarios in run ${index + 1} of bench/RESULTS.md`);
    // The summary shows the scenario column and some of the ratio columns of the results, by the same names.
    const columns = summary.header.map((name) => results.header.indexOf(name));
    assert.ok(!columns.includes(-1), `bench/RESULTS.md has the columns ${summary.header.join(', ')}`);
    assert.deepEqual(summary.rows, results.rows.map((row) => columns.map((column) => row[column] ?? '')), `run ${index + 1}`);
  });
});
