import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, test } from 'node:test';
import { declarationLine, linkSpecConformance, testLine } from '../../scripts/spec-conformance-links.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
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

const files = new Map<string, string>();
async function source(path: string): Promise<string> {
  const cached = files.get(path);
  if (cached !== undefined) return cached;
  // Test names are single-quoted in the sources, so an apostrophe in one is written \'.
  const text = (await readFile(resolve(ROOT, path), 'utf8').catch(() => assert.fail(`${path} does not exist`))).replaceAll("\\'", "'");
  files.set(path, text);
  return text;
}

const PATH = /^[\w-]+(\/[\w.-]+)+$/;

describe('docs/spec-conformance.md', () => {
  test('docs/spec-conformance.md cites files, symbols and tests that exist', async () => {
    const rows = citations(DOCUMENT);
    assert.ok(rows.length > 60, `${rows.length} rows`);
    let cited = 0;
    for (const { row, code, tests } of rows) {
      let file = '';
      for (const [, token = ''] of code.matchAll(/`([^`]+)`/g)) {
        if (PATH.test(token)) file = token;
        else if (file !== '') assert.match(await source(file), new RegExp(`\\b${token}\\b`), `${row}: ${token} in ${file}`);
        else continue;
        cited++;
      }
      file = '';
      for (const [, backticked, name] of tests.matchAll(/`([^`]+)`|“([^”]+)”/g)) {
        if (backticked !== undefined && PATH.test(backticked)) {
          file = backticked;
          await source(file);
        } else if (name !== undefined) {
          assert.notEqual(file, '', `${row}: “${name}” follows a test file`);
          assert.ok((await source(file)).includes(`test('${name}'`), `${row}: no test “${name}” in ${file}`);
          cited++;
        }
      }
    }
    assert.ok(cited > 150, `${cited} citations`);
  });

  test('docs/spec-conformance.md has a row for every section of the spec', async () => {
    const spec = await readFile(SPEC, 'utf8');
    const sections = [...spec.matchAll(/^## (\d)[. ]/gm)].map((match) => match[1]);
    assert.deepEqual(sections, ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    const clauses = new Set(citations(DOCUMENT.slice(0, DOCUMENT.indexOf('## Where the spec is silent'))).map(({ row }) => /^\| (\d)/.exec(row)?.[1]));
    for (const section of sections) assert.ok(clauses.has(section), `section ${section}`);
  });

  test('docs/spec-conformance.md links every cited file, symbol and test to its line, as `npm run spec-links` writes them', () => {
    const read = (path: string): string | undefined => {
      const file = resolve(ROOT, path);
      return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
    };
    assert.ok(linkSpecConformance(DOCUMENT, read) === DOCUMENT, 'a cited line moved, or a citation has no link: run npm run spec-links');
  });

  test('docs/spec-conformance.md\'s line anchors exist and point at the symbol or the test they cite', async () => {
    let anchors = 0;
    for (const [, code, name, path = '', line = ''] of DOCUMENT.matchAll(/\[(?:`([^`]+)`|“([^”]+)”)\]\(\.\.\/([^)#\s]+)#L(\d+)\)/g)) {
      const text = await source(path);
      const lines = text.split('\n');
      assert.ok(Number(line) >= 1 && Number(line) <= lines.length, `${path}#L${line} does not exist`);
      const expected = code !== undefined ? declarationLine(text, code) : testLine(text, name ?? '');
      assert.equal(Number(line), expected, `${code ?? name} is at ${path}#L${expected}, not #L${line}: run npm run spec-links`);
      assert.ok(code !== undefined ? new RegExp(`\\b${code.replace(/[$]/g, '\\$&')}\\b`).test(lines[Number(line) - 1] ?? '') : (lines[Number(line) - 1] ?? '').includes(`test('${name}'`), `${path}#L${line} names ${code ?? name}`);
      anchors++;
    }
    assert.ok(anchors > 250, `${anchors} line anchors`);
  });
});
