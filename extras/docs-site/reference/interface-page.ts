import { sha256Base64 } from '../digest.js';
import { escapeHtml, pageSecurityPolicy, pageStart } from './html.js';
import { INTERFACE_HTML, INTERFACE_SECTIONS, INTERFACE_TITLE } from './interface-text.js';
import type { ReferencePage } from './page.js';
import { REFERENCE_STYLES } from './styles.js';

/** The contents of the interface's text: its numbered sections, subsections under their section. */
function contentsHtml(): string {
  const items: string[] = [];
  for (const section of INTERFACE_SECTIONS) {
    const link = `<a href="#${escapeHtml(section.id)}">${section.html}</a>`;
    if (section.level > 2 && items.length > 0) items[items.length - 1] = `${items.at(-1) ?? ''}<li class="sub">${link}</li>`;
    else items.push(`<li>${link}</li>`);
  }
  return `<nav class="contents" aria-label="Sections"><h2>Sections</h2><ul>${items.join('')}</ul></nav>`;
}

/**
 * The interface's own text (docs/interface.md, generated into this module by `npm run
 * interface-text`), served at `{basePath}/docs/interface` with an anchor per numbered section
 * (`#spec-4.1`), which every `[spec 4.1]` of the reference page links to. The same stylesheet as the
 * reference page, no script at all, and links relative to the page, so a mount prefix keeps them right.
 */
export function renderInterfacePage(): ReferencePage {
  const html = `${pageStart(INTERFACE_TITLE, INTERFACE_TITLE, REFERENCE_STYLES)}
<p>The text of the interface this server implements. The <a href="../docs">reference page</a> shows what this server answers, with a console, and cites these sections as <code>[spec 4.1]</code>.</p>
</header>
<div class="layout">
${contentsHtml()}
<main id="main" class="interface-text">
${INTERFACE_HTML}
</main>
</div>
</body>
</html>
`;
  const contentSecurityPolicy = pageSecurityPolicy(sha256Base64(REFERENCE_STYLES));
  return { html, contentSecurityPolicy };
}
