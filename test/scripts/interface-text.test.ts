import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { INTERFACE_TEXT_MODULE, interfaceTextModule, sectionIdOf } from '../../scripts/interface-text-module.js';
import { inlineMarkdownHtml, markdownHtml } from '../../scripts/markdown-html.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('the generated interface text', () => {
  test('extras/docs-site/reference/interface-text.ts is up to date with docs/interface.md (run `npm run interface-text` after editing the text)', async () => {
    const markdown = await readFile(resolve(ROOT, 'docs', 'interface.md'), 'utf8');
    const generated = await readFile(resolve(ROOT, INTERFACE_TEXT_MODULE), 'utf8');
    assert.ok(generated === interfaceTextModule(markdown), `${INTERFACE_TEXT_MODULE} is older than docs/interface.md: run npm run interface-text`);
  });

  test('interfaceTextModule() gives numbered headings their anchor, links §N to its section, and keeps only links the served page can follow', () => {
    const module = interfaceTextModule('# Title\n\nSee [the decisions](spec-conformance.md), [the kit](conformance-kit.md), [RFC](https://example.org/) and §2.\n\n## 2 Two\n\n### 2.1 Two one\n\n§9 is not here.\n');
    assert.match(module, /export const INTERFACE_TITLE = "Title";/);
    assert.ok(module.includes('<h2 id=\\"spec-2\\">2 Two</h2>\\n<h3 id=\\"spec-2.1\\">2.1 Two one</h3>'), module);
    assert.ok(module.includes('See <a href=\\"../docs#decisions\\">the decisions</a>, the kit, <a href=\\"https://example.org/\\">RFC</a> and <a href=\\"#spec-2\\">§2</a>.'), module);
    assert.ok(module.includes('<p>§9 is not here.</p>'), module);
    assert.deepEqual([sectionIdOf('4.1 List'), sectionIdOf('4 Operations'), sectionIdOf('Title')], ['spec-4.1', 'spec-4', undefined]);
  });
});

describe('markdownHtml()', () => {
  test('markdownHtml() renders headings, paragraphs joined from their lines, lists with continued items, and tables', () => {
    const markdown = '# One\n\nA paragraph\non two lines.\n\n- first item\n  continued\n- second\n\n| a | b |\n|---|---|\n| `x` | **y** |\n## Two\nText';
    const { html, headings } = markdownHtml(markdown, { headingId: (text, level) => (level === 2 ? text.toLowerCase() : undefined) });
    assert.equal(html, [
      '<h1>One</h1>',
      '<p>A paragraph on two lines.</p>',
      '<ul><li>first item continued</li><li>second</li></ul>',
      '<table><thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead><tbody><tr><td><code>x</code></td><td><strong>y</strong></td></tr></tbody></table>',
      '<h2 id="two">Two</h2>',
      '<p>Text</p>',
    ].join('\n'));
    assert.deepEqual(headings, [{ level: 1, id: undefined, html: 'One' }, { level: 2, id: 'two', html: 'Two' }]);
  });

  test('inlineMarkdownHtml() escapes markup, keeps code spans as written, and renders emphasis and links', () => {
    const cases: [string, string][] = [
      ['<b>&"</b>', '&lt;b&gt;&amp;&quot;&lt;/b&gt;'],
      ['`**a** <b>`', '<code>**a** &lt;b&gt;</code>'],
      ['*one* and **two**', '<em>one</em> and <strong>two</strong>'],
      ['2 * 3 * 4', '2 * 3 * 4'],
      ['[a <b>](https://x.example/?a=1&b=2)', '<a href="https://x.example/?a=1&amp;b=2">a &lt;b&gt;</a>'],
    ];
    for (const [markdown, html] of cases) assert.equal(inlineMarkdownHtml(markdown), html, markdown);
    assert.equal(inlineMarkdownHtml('[gone](x.md) stays', { linkHref: () => undefined }), 'gone stays');
  });
});
