// How the documents cite code, and how the docs tests resolve a citation: a file by its path, a
// symbol by the file declaring it, a test by its exact name in its file. Nothing here depends on a
// line number, so editing a cited file never breaks a citation that is still true.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository's root. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** The guides and the README, by their repository path. */
export const DOCUMENTS = new Map([
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name)),
].map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));

/** A document's text without its fenced code blocks, where paths and links are samples, not claims. */
export function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** A repository path as a document cites it: `lib/validate.ts`. */
export const CITED_PATH = /^[\w-]+(\/[\w.-]+)+\.\w+$/;

const sources = new Map<string, string | undefined>();

/** A repository file's text, apostrophes in single-quoted test names unescaped; undefined when there is no such file. */
export function sourceOf(path: string): string | undefined {
  if (!sources.has(path)) {
    const file = resolve(ROOT, path);
    sources.set(path, existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8').replaceAll("\\'", "'") : undefined);
  }
  return sources.get(path);
}

/** A symbol as a regular expression source, `$` escaped. */
function escaped(symbol: string): string {
  return symbol.replace(/[$]/g, '\\$&');
}

/**
 * Whether a source declares a symbol: a function, constant, variable, class, interface or type of
 * that name, or a member of a class or interface (a method or property at the start of its line).
 */
export function declares(source: string, symbol: string): boolean {
  const name = escaped(symbol);
  return new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var|class|interface|type)\\s+${name}\\b`, 'm').test(source)
    || new RegExp(`^\\s+(?:(?:public|private|protected|static|readonly|async|get|set)\\s+)*\\*?#?${name}\\??\\s*[(<:=]`, 'm').test(source);
}

/** Whether a test file has a test of exactly this name. */
export function hasTest(source: string, name: string): boolean {
  return source.includes(`test('${name}'`) || source.includes(`test(\`${name}\``);
}

/** Each problem with one cell of citations (a file, then its symbols or its “test names”), as sentences. */
export function citationProblems(cell: string): string[] {
  const problems: string[] = [];
  let file = '';
  for (const [, code, name] of cell.matchAll(/`([^`]+)`|“([^”]+)”/g)) {
    if (code !== undefined && CITED_PATH.test(code)) {
      file = code;
      if (sourceOf(file) === undefined) problems.push(`${file} does not exist`);
      continue;
    }
    const source = file === '' ? undefined : sourceOf(file);
    if (source === undefined) continue;
    if (code !== undefined && !declares(source, code)) problems.push(`${file} declares no \`${code}\``);
    if (name !== undefined && !hasTest(source, name)) problems.push(`${file} has no test “${name}”`);
  }
  return problems;
}
