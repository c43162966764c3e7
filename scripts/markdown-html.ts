// A Markdown renderer just large enough for docs/interface.md: headings, paragraphs, lists, tables,
// code spans, strong and emphasis, links. It runs when the interface's text is generated
// (scripts/interface-text.ts), never in the server, which reads no file.

/** Options of markdownHtml. */
export interface MarkdownHtmlOptions {
  /** The `id` of a heading, from its text; undefined gives it none. */
  headingId?: (text: string, level: number) => string | undefined;
  /** The `href` of a link as written; undefined renders the link's text alone (a link the served page cannot follow). */
  linkHref?: (target: string) => string | undefined;
}

/** One heading of the rendered text: its level, its id and its text as HTML. */
export interface MarkdownHeading {
  readonly level: number;
  readonly id: string | undefined;
  readonly html: string;
}

/** The rendered text and its headings, in order. */
export interface MarkdownDocument {
  readonly html: string;
  readonly headings: readonly MarkdownHeading[];
}

/** A text made safe for HTML content and quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Strong (`**…**`), emphasis (`*…*`) and links (`[text](target)`) in escaped text outside code spans. */
function spanHtml(text: string, options: MarkdownHtmlOptions): string {
  return escapeHtml(text)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_match, label: string, target: string) => {
      // The target was escaped with the text: unescaped to be judged, escaped again as an attribute.
      const written = target.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      const href = options.linkHref === undefined ? written : options.linkHref(written);
      return href === undefined ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
    })
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>');
}

/** A line's inline Markdown as HTML: code spans kept as written, the rest through spanHtml. */
export function inlineMarkdownHtml(text: string, options: MarkdownHtmlOptions = {}): string {
  return text.split('`').map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : spanHtml(part, options))).join('');
}

/** The cells of one table row: `| a | b |`. */
function cellsOf(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/** A table from its lines: the header row, the delimiter row, then the body rows. */
function tableHtml(lines: readonly string[], options: MarkdownHtmlOptions): string {
  const [head = '', , ...rows] = lines;
  const headCells = cellsOf(head).map((cell) => `<th scope="col">${inlineMarkdownHtml(cell, options)}</th>`).join('');
  const bodyRows = rows.map((row) => `<tr>${cellsOf(row).map((cell) => `<td>${inlineMarkdownHtml(cell, options)}</td>`).join('')}</tr>`);
  return `<table><thead><tr>${headCells}</tr></thead><tbody>${bodyRows.join('')}</tbody></table>`;
}

/** A list from its lines: each `- ` starts an item, and indented lines continue it. */
function listHtml(lines: readonly string[], options: MarkdownHtmlOptions): string {
  const items: string[] = [];
  for (const line of lines) {
    if (line.startsWith('- ')) items.push(line.slice(2).trim());
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  return `<ul>${items.map((item) => `<li>${inlineMarkdownHtml(item, options)}</li>`).join('')}</ul>`;
}

/** The kind of block a line starts. */
function blockKind(line: string): 'heading' | 'table' | 'list' | 'paragraph' {
  if (/^#{1,6} /.test(line)) return 'heading';
  if (line.startsWith('|')) return 'table';
  return line.startsWith('- ') ? 'list' : 'paragraph';
}

/**
 * Markdown as HTML, block by block: a heading is one line; a table, a list or a paragraph runs to
 * the next blank line (or heading). Text is escaped, so the Markdown cannot bring markup of its own.
 */
export function markdownHtml(markdown: string, options: MarkdownHtmlOptions = {}): MarkdownDocument {
  const blocks: string[] = [];
  const headings: MarkdownHeading[] = [];
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      index++;
      continue;
    }
    const kind = blockKind(line);
    if (kind === 'heading') {
      const [, hashes = '#', text = ''] = /^(#{1,6}) (.*)$/.exec(line) ?? [];
      const level = hashes.length;
      const id = options.headingId?.(text.trim(), level);
      const html = inlineMarkdownHtml(text.trim(), options);
      headings.push({ level, id, html });
      blocks.push(`<h${level}${id === undefined ? '' : ` id="${escapeHtml(id)}"`}>${html}</h${level}>`);
      index++;
      continue;
    }
    const block: string[] = [];
    while (index < lines.length && (lines[index] ?? '').trim() !== '' && (block.length === 0 || blockKind(lines[index] ?? '') !== 'heading')) {
      block.push(lines[index] ?? '');
      index++;
    }
    if (kind === 'table') blocks.push(tableHtml(block, options));
    else if (kind === 'list') blocks.push(listHtml(block, options));
    else blocks.push(`<p>${inlineMarkdownHtml(block.map((part) => part.trim()).join(' '), options)}</p>`);
  }
  return { html: blocks.join('\n'), headings };
}
