// The links of docs/spec-conformance.md: each cited file as a relative link, each cited symbol and
// test name as a link to its line (`../lib/validate.ts#L42`), so a reader lands on the code. Line
// numbers move as code is edited, so they are written by `npm run spec-links`, never by hand, and
// test/docs/spec-conformance.test.ts fails when one no longer points at what it cites.

/** A repository path as the document cites it: `lib/validate.ts`. */
export const CITED_PATH = /^[\w-]+(\/[\w.-]+)+$/;

/** Reads a repository file's text by its path, or undefined when there is none. */
export type SourceReader = (path: string) => string | undefined;

/** A source's text as test names are matched in it: an apostrophe in a single-quoted name is written `\'`. */
function unescaped(line: string): string {
  return line.replaceAll("\\'", "'");
}

/**
 * The line (from 1) where a symbol is declared in a source: a function, constant, class, interface or
 * type of that name, else a method or property, else its first mention; undefined when it is not there.
 */
export function declarationLine(source: string, symbol: string): number | undefined {
  const name = symbol.replace(/[$]/g, '\\$&');
  const lines = source.split('\n');
  const patterns = [
    new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var|class|interface|type)\\s+${name}\\b`),
    new RegExp(`^\\s+(?:(?:public|private|protected|static|readonly|async|get|set)\\s+)*\\*?#?${name}\\??\\s*[(<:=]`),
    new RegExp(`\\b${name}\\b`),
  ];
  for (const pattern of patterns) {
    const index = lines.findIndex((line) => pattern.test(line));
    if (index !== -1) return index + 1;
  }
  return undefined;
}

/** The line (from 1) where a test of this name is declared, or undefined. */
export function testLine(source: string, name: string): number | undefined {
  const index = source.split('\n').findIndex((line) => unescaped(line).includes(`test('${name}'`));
  return index === -1 ? undefined : index + 1;
}

/** A cell with its links taken out: `` [`x`](…) `` → `` `x` ``, `[“name”](…)` → `“name”`. */
function unlinked(cell: string): string {
  return cell.replace(/\[(`[^`]+`|“[^”]+”)\]\([^)\s]*\)/g, '$1');
}

/** One cell of code or tests with each file, symbol and test name linked; a name not found stays as it was. */
function linkedCell(cell: string, read: SourceReader): string {
  let file = '';
  return unlinked(cell).replace(/`([^`]+)`|“([^”]+)”/g, (token, code: string | undefined, testName: string | undefined) => {
    if (code !== undefined && CITED_PATH.test(code)) {
      file = read(code) === undefined ? '' : code;
      return file === '' ? token : `[${token}](../${code})`;
    }
    const source = file === '' ? undefined : read(file);
    if (source === undefined) return token;
    const line = code !== undefined ? declarationLine(source, code) : testLine(source, testName ?? '');
    return line === undefined ? token : `[${token}](../${file}#L${line})`;
  });
}

/**
 * docs/spec-conformance.md with the code and test cells (the last two) of every table row linked to
 * what they cite. Applying it twice changes nothing, and it reads links it wrote before, so a merge
 * is resolved by taking either side's rows and running it again.
 */
export function linkSpecConformance(markdown: string, read: SourceReader): string {
  return markdown.split('\n').map((line) => {
    if (!line.startsWith('| ') || line.startsWith('|---')) return line;
    const cells = line.split(' | ');
    if (cells.length < 3) return line;
    const code = cells.length - 2;
    cells[code] = linkedCell(cells[code] ?? '', read);
    cells[code + 1] = linkedCell(cells[code + 1] ?? '', read);
    return cells.join(' | ');
  }).join('\n');
}
