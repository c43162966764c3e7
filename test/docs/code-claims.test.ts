import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { ERROR_CODES } from '../../lib/index.js';
import { UNAUTHORIZED_RESPONSES } from '../../server/core/auth.js';
import { DOCUMENTS, ROOT, declares, proseOf, sourceOf } from './citations.js';

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  return new Set([...proseOf(markdown).matchAll(/^#{1,6} (.+)$/gm)].map(([, heading = '']) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
}

/** A backticked repository path as the documents cite one: `lib/petstore.ts`, `test/docs/`. */
const REPOSITORY_PATH = /`((?:lib|server|extras|test|scripts|bench|examples|docs)\/[\w./-]*)`/g;

const WORDS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

test('the documents cite no line number', () => {
  for (const [path, text] of DOCUMENTS) assert.doesNotMatch(text, /#L\d/, path);
});

test('every relative link of the documents reaches a file, and a heading where it names one', () => {
  const problems: string[] = [];
  for (const [path, text] of DOCUMENTS) {
    for (const [, target = ''] of proseOf(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target) || target.startsWith('#') && target.length === 1) continue;
      const [file = '', anchor] = target.split('#');
      const resolved = file === '' ? path : normalize(join(dirname(path), file));
      const source = sourceOf(resolved);
      if (source === undefined && !resolved.endsWith('/')) problems.push(`${path}: ${target} reaches no file`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(source ?? '').has(anchor)) problems.push(`${path}: ${target} names no heading of ${resolved}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every repository path the documents name exists, and the symbols named after it in parentheses are declared there', () => {
  const problems: string[] = [];
  for (const [path, text] of DOCUMENTS) {
    const prose = proseOf(text);
    for (const match of prose.matchAll(REPOSITORY_PATH)) {
      const cited = match[1] ?? '';
      const source = sourceOf(cited.replace(/\/$/, ''));
      if (source === undefined && !/\/$|\*/.test(cited)) {
        problems.push(`${path}: \`${cited}\` does not exist`);
        continue;
      }
      // `server/core/auth.ts` (`UNAUTHORIZED_RESPONSES`, `authError`): each name in the parentheses.
      const after = /^ \(((?:`[\w$#.]+`(?:, | and |, and )?)+)\)/.exec(prose.slice((match.index ?? 0) + match[0].length));
      for (const [, symbol = ''] of (after?.[1] ?? '').matchAll(/`([\w$#.]+)`/g)) {
        if (source !== undefined && !declares(source, symbol.replace(/^#/, ''))) problems.push(`${path}: ${cited} declares no \`${symbol}\``);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('the counts the documents state are the code\'s: the 401 answers and the error codes', () => {
  const claims: [string, RegExp, number][] = [
    ['docs/performance.md', /The (\w+) 401 answers/, Object.keys(UNAUTHORIZED_RESPONSES).length],
    ['docs/http-behaviour.md', /these are all (\d+) of them/, Object.keys(ERROR_CODES).length],
  ];
  for (const [path, claim, count] of claims) {
    const word = claim.exec(DOCUMENTS.get(path) ?? '')?.[1] ?? '';
    assert.equal(WORDS[word] ?? Number(word), count, `${path}: ${claim.source}`);
  }
});

/** The TypeScript files of the kernel and the extras, by repository path. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The repository paths a source's comments cite: a path under one of the repository's folders
 * (`server/core/`, `docs/operations.md`), or any path of a file (`http/operations.ts`), which is read
 * from the repository's root as the comments write them. `../` paths, URLs and packages are not citations.
 */
export function citedPaths(source: string): string[] {
  const cited: string[] = [];
  for (const [comment] of source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) {
    for (const [, path = ''] of comment.matchAll(/(?<![\w@:/.-])((?:[\w-]+\/)+[\w.-]*[\w/])/g)) {
      const isFile = /\.(?:ts|md|json|mjs|js|sh)$/.test(path);
      if (isFile || /^(?:lib|server|extras|test|scripts|bench|examples|docs)\//.test(path)) cited.push(path);
    }
  }
  return cited;
}

test('every repository path or folder a comment of lib/, server/ or extras/ cites exists', () => {
  const problems: string[] = [];
  for (const file of ['lib', 'server', 'extras'].flatMap(sourceFiles)) {
    for (const path of citedPaths(readFileSync(join(ROOT, file), 'utf8'))) {
      // A built file stands for its source: dist/ exists only after `npm run build`.
      const source = path.startsWith('dist/') ? path.slice('dist/'.length).replace(/\.js$/, '.ts') : path;
      if (!existsSync(join(ROOT, source))) problems.push(`${file}: ${path}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('citedPaths() finds the paths and folders a comment cites, and leaves URLs, packages and relative imports alone', () => {
  const source = [
    '/** As http/operations.ts sends them; see docs/operations.md and server/core/. */',
    "import { x } from '../lib/index.js'; // read from ./pool.ts",
    '// https://github.com/honojs/node-server/blob/main/src/listener.ts, @hono/node-server, node:fs/promises',
    "const text = 'lib/not-a-comment.ts';",
  ].join('\n');
  assert.deepEqual(citedPaths(source), ['http/operations.ts', 'docs/operations.md', 'server/core/']);
});
