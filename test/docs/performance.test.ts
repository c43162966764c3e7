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

/** The first table of a document with a `project / fastify` column. */
function ratioTable(markdown: string): Table {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|') && line.includes('| project / fastify |'));
  assert.notEqual(start, -1, 'a table with a project / fastify column');
  const cellsOf = (line: string): string[] => line.slice(1, -1).split('|').map((cell) => cell.trim());
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cellsOf(line));
  }
  return { header: cellsOf(lines[start] ?? ''), rows };
}

test('docs/performance.md figures are the ratios of the run in bench/RESULTS.md, column by column', async () => {
  const summary = ratioTable(await readFile(join(ROOT, 'docs', 'performance.md'), 'utf8'));
  const results = ratioTable(await readFile(join(ROOT, 'bench', 'RESULTS.md'), 'utf8'));
  assert.ok(results.rows.length >= 5, `${results.rows.length} scenarios in bench/RESULTS.md`);
  // The summary shows the scenario column and some of the ratio columns of the results, by the same names.
  const columns = summary.header.map((name) => results.header.indexOf(name));
  assert.ok(!columns.includes(-1), `bench/RESULTS.md has the columns ${summary.header.join(', ')}`);
  assert.deepEqual(summary.rows, results.rows.map((row) => columns.map((column) => row[column] ?? '')));
});
