// Generates the data that carries docs/spec-conformance.md's table of clauses (clause → code → test)
// into the interface's page: the document is the one place the map is written, and `npm run
// interface-text` writes it as JSON beside the module that types it, as it writes the text;
// test/docs/spec-conformance.test.ts fails when the data is older than the document.
import type { CitedFile, ConformanceMap, HeldClause } from '../extras/docs-site/reference/conformance-map.js';
import { inlineMarkdownHtml } from './markdown-html.js';

/** Where the generated data lives, from the repository's root. */
export const CONFORMANCE_MAP_DATA = 'extras/docs-site/reference/conformance-map.json';

/** A repository path as the document cites it (`lib/validate.ts`), as test/docs/citations.ts reads one. */
const CITED_PATH = /^[\w-]+(\/[\w.-]+)+\.\w+$/;

/** The files a cell cites (linked or not), each with its `symbols` or “test names”, in the order written. */
export function citedFiles(cell: string): CitedFile[] {
  const files: { path: string; names: string[] }[] = [];
  for (const [, symbol, name] of cell.matchAll(/`([^`]+)`|“([^”]+)”/g)) {
    if (symbol !== undefined && CITED_PATH.test(symbol)) files.push({ path: symbol, names: [] });
    else files.at(-1)?.names.push(symbol ?? name ?? '');
  }
  return files;
}

/** The cells of one table row: `| a | b |` → `['a', 'b']`; an empty last cell is kept. */
function cellsOf(row: string): string[] {
  return row.trim().slice(1, -1).split(' | ').map((cell) => cell.trim());
}

/** The rows of the table of clauses in docs/spec-conformance.md (`## Clauses`, up to the next section). */
export function heldClauses(markdown: string): HeldClause[] {
  const start = /^## Clauses$/m.exec(markdown)?.index ?? markdown.length;
  const end = markdown.indexOf('\n## ', start);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  const text = (markdownText: string): string => inlineMarkdownHtml(markdownText, { linkHref: () => undefined });
  return section.split('\n').filter((line) => line.startsWith('| ') && !/^\| clause \|/.test(line)).map((row) => {
    const [clause = '', says = '', code = '', tests = ''] = cellsOf(row);
    const [, numbers = '', label = ''] = /^([\d.]+(?:, [\d.]+)*) ?(.*)$/.exec(clause) ?? [];
    const codeFiles = citedFiles(code);
    const testFiles = citedFiles(tests);
    return {
      sections: numbers.split(', '),
      labelHtml: text(label),
      saysHtml: text(says),
      code: codeFiles,
      tests: testFiles,
      ...(codeFiles.length === 0 && code.trim() !== '' ? { codeNoteHtml: text(code) } : {}),
      ...(testFiles.length === 0 && tests.trim() !== '' ? { testsNoteHtml: text(tests) } : {}),
    };
  });
}

/**
 * Where a reader opens a repository path, from package.json's `repository` (a string or `{ url }`):
 * `https://github.com/owner/name/blob/HEAD/`; undefined when the package names none, and the page
 * then shows paths to open in a clone.
 */
export function repositoryFilesUrl(packageJson: unknown): string | undefined {
  const repository = typeof packageJson === 'object' && packageJson !== null && 'repository' in packageJson ? packageJson.repository : undefined;
  const url = typeof repository === 'object' && repository !== null && 'url' in repository ? repository.url : repository;
  if (typeof url !== 'string') return undefined;
  const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(url)?.[1];
  const web = shorthand === undefined ? url.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/\.git$/, '') : `https://github.com/${shorthand}`;
  return /^https:\/\/[^/]+\/[\w.-]+\/[\w.-]+$/.test(web) ? `${web}/blob/HEAD/` : undefined;
}

/** The generated data (JSON text) for a text of docs/spec-conformance.md and the package's repository. */
export function conformanceMapData(markdown: string, filesUrl: string | undefined): string {
  const data: ConformanceMap & { readonly $comment: string } = {
    $comment: 'Generated from docs/spec-conformance.md by `npm run interface-text`: edit that file and run the script, never this one. Typed by conformance-map.ts.',
    repositoryFilesUrl: filesUrl ?? null,
    clauses: heldClauses(markdown),
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}
