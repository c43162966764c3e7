// The TypeScript module that carries docs/interface.md into the server as HTML: the server runs on
// runtimes without a file system (Deno Deploy, edge workers), so the text is generated, not read.
import { markdownHtml } from './markdown-html.js';

/** Where the generated module lives, from the repository's root. */
export const INTERFACE_TEXT_MODULE = 'extras/docs-site/reference/interface-text.ts';

/** The anchor of a numbered section (`## 4 Operations` → `spec-4`, `### 4.1 …` → `spec-4.1`), as `[spec 4.1]` cites it. */
export function sectionIdOf(heading: string): string | undefined {
  const number = /^(\d+(?:\.\d+)*) /.exec(heading)?.[1];
  return number === undefined ? undefined : `spec-${number}`;
}

/**
 * Links of the text as the served page can follow them: other sites and anchors; the decisions lead
 * to the reference page's (`{basePath}/docs#decisions`, relative to `{basePath}/docs/interface`); the
 * repository's other files are not served, so their links become text.
 */
function servedHref(target: string): string | undefined {
  if (target === 'spec-conformance.md') return '../docs#decisions';
  return /^(https?:|#)/.test(target) ? target : undefined;
}

/** The source of the generated module for a text of docs/interface.md: its title and its HTML. */
export function interfaceTextModule(markdown: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? 'The interface';
  const body = markdown.replace(/^# .+\n/m, '');
  const { html, headings } = markdownHtml(body, { headingId: sectionIdOf, linkHref: servedHref });
  // The text refers to its own sections as `§5`: each becomes a link to that section.
  const linked = html.replace(/§(\d+(?:\.\d+)?)/g, (reference, number: string) => (headings.some((heading) => heading.id === `spec-${number}`) ? `<a href="#spec-${number}">${reference}</a>` : reference));
  return `// Generated from docs/interface.md by \`npm run interface-text\`: edit that file and run the script, never this one.
// A test fails when this module is older than the text.

/** The title of docs/interface.md. */
export const INTERFACE_TITLE = ${JSON.stringify(title)};

/** Its text below the title, as HTML, each numbered heading with the anchor a citation such as \`[spec 4.1]\` links to. */
export const INTERFACE_HTML = ${JSON.stringify(linked)};
`;
}
