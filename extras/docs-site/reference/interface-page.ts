import { HELD_CLAUSES, REPOSITORY_FILES_URL } from './conformance-map.js';
import type { CitedFile, HeldClause } from './conformance-map.js';
import { escapeHtml, INTERFACE_SECTIONS, pageSecurityPolicy, pageStart } from './html.js';
import { INTERFACE_HTML, INTERFACE_TITLE } from './interface-text.js';
import type { ReferencePage } from './page.js';
import { REFERENCE_STYLES } from './styles.js';

/** The contents of the interface's text: its numbered sections, subsections indented under their section. */
function contentsHtml(): string {
  const items = INTERFACE_SECTIONS.map(({ id, level, html }) => `<li${level > 2 ? ' class="sub"' : ''}><a href="#${escapeHtml(id)}">${html}</a></li>`);
  return `<nav class="contents" aria-label="Sections"><h2>Sections</h2><ul>${items.join('')}</ul></nav>`;
}

/** A cited file and its names: the path a link to the repository where the package names one, else a path to open in a clone. */
function citedHtml(files: readonly CitedFile[], filesUrl: string | undefined, quote: (name: string) => string): string {
  return files.map((file) => {
    const path = `<code>${escapeHtml(file.path)}</code>`;
    const where = filesUrl === undefined ? path : `<a href="${escapeHtml(filesUrl + file.path)}">${path}</a>`;
    return [where, ...file.names.map(quote)].join(' ');
  }).join('; ');
}

/** What holds one clause: the spec's words, then the code symbols and the test names. */
function heldHtml(clause: HeldClause, filesUrl: string | undefined): string {
  const label = clause.labelHtml === '' ? '' : `<strong>${clause.labelHtml}</strong>: `;
  const code = clause.codeNoteHtml ?? citedHtml(clause.code, filesUrl, (name) => `<code>${escapeHtml(name)}</code>`);
  const tests = clause.testsNoteHtml ?? citedHtml(clause.tests, filesUrl, (name) => `“${escapeHtml(name)}”`);
  return `<li>${label}${clause.saysHtml}<br>Code: ${code}${tests === '' ? '' : `<br>Tests: ${tests}`}</li>`;
}

/** Options of textWithHeldClauses. */
export interface HeldClausesOptions {
  /** Where a repository path opens; undefined shows paths to open in a clone. */
  filesUrl: string | undefined;
}

/** The interface's text (HTML) with, at the end of each numbered section, the clauses of docs/spec-conformance.md that cite it. */
export function textWithHeldClauses(html: string, clauses: readonly HeldClause[], options: HeldClausesOptions): string {
  const where = options.filesUrl === undefined ? 'paths from the root of a clone of the repository' : 'each file linked in the repository';
  return html.split(/(?=<h[23] id="spec-)/).map((part) => {
    const section = /^<h[23] id="spec-([\d.]+)"/.exec(part)?.[1] ?? '';
    const held = clauses.filter((clause) => clause.sections.includes(section));
    if (held.length === 0) return part;
    return `${part}<details class="held" id="held-${section}"><summary>How this server holds §${section}: ${held.length === 1 ? 'one clause' : `${held.length} clauses`}, the code and the tests</summary><ul>${held.map((clause) => heldHtml(clause, options.filesUrl)).join('')}</ul><p class="hint">From docs/spec-conformance.md; ${where}.</p></details>\n`;
  }).join('');
}

/**
 * The interface's own text (docs/interface.md, generated into interface-text.ts), served at `{basePath}/docs/interface`, each numbered
 * section (`#spec-4.1`) ending with the clauses that hold it; the reference page's stylesheet, no script, and links relative to the page.
 */
export function renderInterfacePage(): ReferencePage {
  const html = `${pageStart(INTERFACE_TITLE, INTERFACE_TITLE, REFERENCE_STYLES)}
<p>The text of the interface this server implements. The <a href="../docs">reference page</a> shows what this server answers, with a console, and cites these sections as <code>[spec 4.1]</code>.</p>
</header>
<div class="layout">
${contentsHtml()}
<main id="main" class="interface-text">
${textWithHeldClauses(INTERFACE_HTML, HELD_CLAUSES, { filesUrl: REPOSITORY_FILES_URL })}
</main>
</div>
</body>
</html>
`;
  const contentSecurityPolicy = pageSecurityPolicy(REFERENCE_STYLES);
  return { html, contentSecurityPolicy };
}
