// The module that carries docs/spec-conformance.md's table of clauses (clause → code → test) into the
// interface's page: the document is the one place the map is written, and `npm run interface-text`
// generates this module from it, as it does the text; test/docs/spec-conformance.test.ts fails when the
// module is older than the document.
import { inlineMarkdownHtml } from './markdown-html.js';

/** Where the generated module lives, from the repository's root. */
export const CONFORMANCE_MAP_MODULE = 'extras/docs-site/reference/conformance-map.ts';

/** A file a cell cites, with the symbols (code) or test names (tests) it cites in it. */
export interface CitedFile {
  readonly path: string;
  readonly names: readonly string[];
}

/** One row of the table of clauses, as the interface's page shows it. */
export interface HeldClause {
  /** The sections of the interface it maps (`4.3`, `9`). */
  readonly sections: readonly string[];
  /** What follows the numbers in its clause cell (`NewPet`), as HTML; empty when nothing does. */
  readonly labelHtml: string;
  /** What the spec says, as HTML. */
  readonly saysHtml: string;
  readonly code: readonly CitedFile[];
  readonly tests: readonly CitedFile[];
  /** A cell that cites no file (`nothing to implement: …`), as HTML. */
  readonly codeNoteHtml?: string;
  readonly testsNoteHtml?: string;
}

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

/** The source of the generated module for a text of docs/spec-conformance.md and the package's repository. */
export function conformanceMapModule(markdown: string, filesUrl: string | undefined): string {
  return `// Generated from docs/spec-conformance.md by \`npm run interface-text\`: edit that file and run the script, never this one.
// A test fails when this module is older than the document.

/** A file a row cites, with the symbols or test names it cites in it. */
export interface CitedFile {
  readonly path: string;
  readonly names: readonly string[];
}

/** One clause the implementation maps: the sections, what the spec says, and the code and tests that hold it. */
export interface HeldClause {
  readonly sections: readonly string[];
  readonly labelHtml: string;
  readonly saysHtml: string;
  readonly code: readonly CitedFile[];
  readonly tests: readonly CitedFile[];
  readonly codeNoteHtml?: string;
  readonly testsNoteHtml?: string;
}

/** Where a repository path opens (package.json's \`repository\`), or undefined: then a path is to open in a clone. */
export const REPOSITORY_FILES_URL: string | undefined = ${filesUrl === undefined ? 'undefined' : JSON.stringify(filesUrl)};

/** The rows of docs/spec-conformance.md's table of clauses, in its order. */
export const HELD_CLAUSES: readonly HeldClause[] = ${JSON.stringify(heldClauses(markdown), null, 2)};
`;
}
