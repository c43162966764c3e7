import type { JsonValue } from '../openapi/types.js';

/** A text made safe for HTML content and quoted attribute values: each character HTML gives a meaning becomes its entity. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * The HTML of a description from the OpenAPI document: escaped, with each `backticked` span as
 * `<code>`, the only markup the document's texts use. Text in backticks is kept as written.
 */
export function inlineHtml(text: string): string {
  return text.split('`').map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part))).join('');
}

/** A description of several paragraphs (blank lines between them) as `<p>` elements. */
export function paragraphsHtml(text: string): string {
  return text.split(/\n\s*\n/).map((paragraph) => `<p>${inlineHtml(paragraph.trim())}</p>`).join('\n');
}

/** A JSON value, indented as the console shows answers, inside `<pre><code>`. */
export function jsonBlock(value: JsonValue): string {
  return `<pre class="json"><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre>`;
}

/** A shell command or an HTTP exchange inside `<pre><code>`. */
export function codeBlock(text: string): string {
  return `<pre><code>${escapeHtml(text)}</code></pre>`;
}
