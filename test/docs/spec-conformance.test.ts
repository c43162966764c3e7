import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { HELD_CLAUSES, REPOSITORY_FILES_URL } from '../../extras/docs-site/reference/conformance-map.js';
import { textWithHeldClauses } from '../../extras/docs-site/reference/interface-page.js';
import { CONFORMANCE_MAP_DATA, citedFiles, conformanceMapData, heldClauses, repositoryFilesUrl } from '../../scripts/interface-text-map.js';
import { CITED_PATH, ROOT, citationProblems, declares, hasTest, sourceOf } from './citations.js';

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

describe('the interface\'s page and docs/spec-conformance.md read one map', () => {
  test('extras/docs-site/reference/conformance-map.json is docs/spec-conformance.md\'s table of clauses (run `npm run interface-text` after editing the document)', async () => {
    const generated = await readFile(resolve(ROOT, CONFORMANCE_MAP_DATA), 'utf8');
    const filesUrl = repositoryFilesUrl(JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')));
    assert.ok(generated === conformanceMapData(DOCUMENT, filesUrl), `${CONFORMANCE_MAP_DATA} is older than docs/spec-conformance.md or package.json: run npm run interface-text`);
    assert.equal(REPOSITORY_FILES_URL, filesUrl);
    const rows = citations(DOCUMENT.slice(DOCUMENT.indexOf('## Clauses'), DOCUMENT.indexOf('## Where the spec is silent')));
    assert.equal(HELD_CLAUSES.length, rows.length, 'a clause for each row of the table');
  });

  test('every file, symbol and test name the interface\'s page shows for a clause exists: a mapped name that no longer does fails here', () => {
    const problems: string[] = [];
    for (const clause of HELD_CLAUSES) {
      for (const file of [...clause.code, ...clause.tests]) {
        const source = sourceOf(file.path);
        if (source === undefined) problems.push(`${file.path} does not exist`);
        const isTestFile = file.path.endsWith('.test.ts');
        for (const name of file.names) {
          if (source !== undefined && !(isTestFile ? hasTest(source, name) : declares(source, name))) problems.push(`${file.path} has no ${isTestFile ? 'test' : 'symbol'} ${name}`);
        }
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(HELD_CLAUSES.reduce((count, clause) => count + clause.code.length + clause.tests.length, 0) > 60);
  });

  test('heldClauses() reads a row\'s sections, label, files with their names, and a cell that cites no file; citedFiles() starts a file at each path', () => {
    const markdown = '## Clauses\n\n| clause | the spec says | code | test |\n|---|---|---|---|\n| 2 NewPet | `name` <b> | [`lib/validate.ts`](../lib/validate.ts) `validateNewPet` `nameProblem` | `test/lib/petstore.test.ts` “createPet() works” |\n| 4.3, 9 | Gone | nothing to implement: no `webhooks` | |\n\n## Next\n| 1 | not a clause | | |\n';
    assert.deepEqual(heldClauses(markdown), [
      { sections: ['2'], labelHtml: 'NewPet', saysHtml: '<code>name</code> &lt;b&gt;', code: [{ path: 'lib/validate.ts', names: ['validateNewPet', 'nameProblem'] }], tests: [{ path: 'test/lib/petstore.test.ts', names: ['createPet() works'] }] },
      { sections: ['4.3', '9'], labelHtml: '', saysHtml: 'Gone', code: [], tests: [], codeNoteHtml: 'nothing to implement: no <code>webhooks</code>' },
    ]);
    assert.deepEqual(citedFiles('`x` `lib/a.ts` `b` `test/c.test.ts` “d”'), [{ path: 'lib/a.ts', names: ['b'] }, { path: 'test/c.test.ts', names: ['d'] }]);
  });

  test('repositoryFilesUrl() links files where package.json names a repository, in its forms, and gives none otherwise', () => {
    const cases: [unknown, string | undefined][] = [
      [{ repository: 'github:owner/name' }, 'https://github.com/owner/name/blob/HEAD/'],
      [{ repository: 'owner/name' }, 'https://github.com/owner/name/blob/HEAD/'],
      [{ repository: { type: 'git', url: 'git+https://github.com/owner/name.git' } }, 'https://github.com/owner/name/blob/HEAD/'],
      [{ repository: { url: 'git://codeberg.org/owner/name.git' } }, 'https://codeberg.org/owner/name/blob/HEAD/'],
      [{ repository: 'not a url' }, undefined],
      [{}, undefined],
      [null, undefined],
    ];
    for (const [packageJson, expected] of cases) assert.equal(repositoryFilesUrl(packageJson), expected, JSON.stringify(packageJson));
  });

  test('textWithHeldClauses() ends each cited section with its clauses, their code and tests as paths to open in a clone, or linked where the package names its repository', () => {
    const html = '<p>Intro</p>\n<h2 id="spec-1">1 One</h2>\n<p>One.</p>\n<h3 id="spec-1.1">1.1 Sub</h3>\n<p>Sub.</p>\n<h2 id="spec-2">2 Two</h2>\n<p>Two.</p>\n';
    const clauses = heldClauses('## Clauses\n| 1, 2 | Both | `lib/a.ts` `a` | `test/a.test.ts` “a <works>” |\n| 2 PetStatus | Only two | nothing to implement | |\n');
    const plain = textWithHeldClauses(html, clauses, { filesUrl: undefined });
    assert.equal(plain.match(/<details class="held"/g)?.length, 2, 'sections 1 and 2, not 1.1');
    assert.ok(plain.includes('<p>One.</p>\n<details class="held" id="held-1"><summary>How this server holds §1: one clause, the code and the tests</summary><ul><li>Both<br>Code: <code>lib/a.ts</code> <code>a</code><br>Tests: <code>test/a.test.ts</code> “a &lt;works&gt;”</li></ul><p class="hint">From docs/spec-conformance.md; paths from the root of a clone of the repository.</p></details>\n<h3 id="spec-1.1">'), plain);
    assert.ok(plain.includes('§2: 2 clauses') && plain.includes('<li><strong>PetStatus</strong>: Only two<br>Code: nothing to implement</li>'), plain);
    const linked = textWithHeldClauses(html, clauses, { filesUrl: 'https://example.org/o/n/blob/HEAD/' });
    assert.ok(linked.includes('<a href="https://example.org/o/n/blob/HEAD/lib/a.ts"><code>lib/a.ts</code></a> <code>a</code>') && linked.includes('each file linked in the repository'), linked);
  });
});
