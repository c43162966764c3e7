import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { CITED_PATH, ROOT, citationProblems, declares, hasTest } from './citations.js';

const DOCUMENT = await readFile(resolve(ROOT, 'docs', 'spec-conformance.md'), 'utf8');
// The interface as the repository states it, with the spec's section numbers.
const SPEC = resolve(ROOT, 'docs', 'interface.md');

/** The last two cells of each table row: the code and the test it cites. */
function citations(markdown: string): { row: string; code: string; tests: string }[] {
  return markdown.split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---') && !/^\| (clause|question) \|/.test(line))
    .map((row) => {
      const cells = row.split(' | ');
      return { row: row.slice(0, 60), code: cells.at(-2) ?? '', tests: cells.at(-1) ?? '' };
    });
}

describe('docs/spec-conformance.md', () => {
  test('docs/spec-conformance.md cites files that exist, symbols each file declares and tests each test file has', () => {
    const rows = citations(DOCUMENT);
    assert.ok(rows.length > 60, `${rows.length} rows`);
    const problems = rows.flatMap(({ row, code, tests }) => [...citationProblems(code), ...citationProblems(tests)].map((problem) => `${row}: ${problem}`));
    assert.deepEqual(problems, []);
    const cited = rows.reduce((count, { code, tests }) => count + [...`${code} ${tests}`.matchAll(/`[^`]+`|“[^”]+”/g)].length, 0);
    assert.ok(cited > 300, `${cited} citations`);
  });

  test('docs/spec-conformance.md links each cited file to itself, and cites no line number', () => {
    for (const [, path, target] of DOCUMENT.matchAll(/\[`([^`]+)`\]\(([^)\s]+)\)/g)) {
      if (path !== undefined && CITED_PATH.test(path)) assert.equal(target, `../${path}`, path);
    }
    assert.doesNotMatch(DOCUMENT, /#L\d/);
    const linked = [...DOCUMENT.matchAll(/\[(`[^`]+`|“[^”]+”)\]\(/g)].map((match) => match[1] ?? '');
    assert.deepEqual(linked.filter((text) => !CITED_PATH.test(text.slice(1, -1))), [], 'only a file is linked, never a symbol or a test');
  });

  test('docs/spec-conformance.md has a row for every section of the spec', async () => {
    const spec = await readFile(SPEC, 'utf8');
    const sections = [...spec.matchAll(/^## (\d)[. ]/gm)].map((match) => match[1]);
    assert.deepEqual(sections, ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    const clauses = new Set(citations(DOCUMENT.slice(0, DOCUMENT.indexOf('## Where the spec is silent'))).map(({ row }) => /^\| (\d)/.exec(row)?.[1]));
    for (const section of sections) assert.ok(clauses.has(section), `section ${section}`);
  });

  test('declares() finds declarations and members, not mentions; hasTest() finds exact test names', () => {
    const source = "export function createPet() {}\nconst LIMIT = 1;\ninterface Options {\n  bodyLimit?: number;\n}\n// listPets is mentioned here\ntest('listPets answers 200', () => {});\n";
    assert.ok(declares(source, 'createPet') && declares(source, 'LIMIT') && declares(source, 'Options') && declares(source, 'bodyLimit'));
    assert.ok(!declares(source, 'listPets') && !declares(source, 'create'));
    assert.ok(hasTest(source, 'listPets answers 200') && !hasTest(source, 'listPets answers'));
    assert.deepEqual(citationProblems('`lib/nothing-here.ts` `x`'), ['lib/nothing-here.ts does not exist']);
    assert.deepEqual(citationProblems('`lib/errors.ts` `ERROR_CODES` `noSuchSymbol`'), ['lib/errors.ts declares no `noSuchSymbol`']);
  });
});
