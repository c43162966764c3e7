import type { OpenApiDocument } from '../openapi/index.js';
import { CONSOLE_SCRIPT } from './console-script.js';
import { referenceDecisions } from './decisions.js';
import type { Decision, DecisionContext } from './decisions.js';
import { dayText, escapeHtml, INTERFACE_PAGE_PATH, inlineHtml, pageSecurityPolicy, pageStart, paragraphsHtml } from './html.js';
import { operationSection, tryLink } from './operation-section.js';
import type { OperationView } from './operation-section.js';
import { allOperationsSection, authenticationSection, decisionsSection, displayBaseOf, errorsSection, pagingSection, schemasSection } from './sections.js';
import { REFERENCE_STYLES } from './styles.js';
import type { OpenApiOperation, OpenApiParameter } from '../openapi/types.js';

/** The page and the policy it is served with. */
export interface ReferencePage {
  readonly html: string;
  /** Only the page's own style and script, requests to its origin, no framing: "nothing from another origin", enforced by the browser. */
  readonly contentSecurityPolicy: string;
}

/** The constant a header's schema gives, when it gives one as text. */
function constantOf(operation: OpenApiOperation, name: string): string | undefined {
  const values = Object.values(operation.responses).map((response) => response.headers?.[name]?.schema['const']);
  return values.find((value) => typeof value === 'string');
}

/**
 * What the page says of a deprecated operation, from the headers the document says it sends: since when (`Deprecation`, RFC 9745),
 * until when (`Sunset`, RFC 8594), and its successor (`Link: rel="successor-version"`), linked to the successor's own section.
 */
function deprecationHtml(operation: OpenApiOperation, views: readonly Omit<OperationView, 'deprecationHtml' | 'decisions'>[]): string | undefined {
  if (operation.deprecated !== true) return undefined;
  const parts = ['<strong>Deprecated.</strong>'];
  const since = /^@(\d+)$/.exec(constantOf(operation, 'Deprecation') ?? '');
  if (since?.[1] !== undefined) parts.push(`Since ${dayText(new Date(Number(since[1]) * 1000))} (<code>Deprecation</code>).`);
  const sunset = constantOf(operation, 'Sunset');
  if (sunset !== undefined && !Number.isNaN(Date.parse(sunset))) parts.push(`Removed on <strong>${dayText(new Date(sunset))}</strong> (<code>Sunset: ${escapeHtml(sunset)}</code>).`);
  const successorPath = /^<([^>]*)>; rel="successor-version"$/.exec(constantOf(operation, 'Link') ?? '')?.[1];
  const successor = views.find((view) => view.method === 'GET' && view.fullPath === successorPath);
  if (successor !== undefined) {
    const id = escapeHtml(successor.operationId);
    parts.push(`Use its successor instead: <a href="#${id}">${successor.method} ${escapeHtml(successor.fullPath)}</a> (<code>${id}</code>).`);
  }
  return `<p>${parts.join(' ')}</p>`;
}

/** The operations that need the key (the interface's own [spec 4]), in the document's order, each with its decisions. */
function operationViews(document: OpenApiDocument, decisions: readonly Decision[]): OperationView[] {
  const base = displayBaseOf(document);
  const views: Omit<OperationView, 'deprecationHtml' | 'decisions'>[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['GET', 'POST'] as const) {
      const operation = item[method === 'GET' ? 'get' : 'post'];
      if (operation?.operationId === undefined || operation.security?.length === 0) continue;
      const parameters: OpenApiParameter[] = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      views.push({ operationId: operation.operationId, method, path, fullPath: base + path, operation, parameters });
    }
  }
  return views.map((view) => ({
    ...view,
    decisions: decisions.filter((decision) => decision.operations.includes(view.operationId)),
    deprecationHtml: deprecationHtml(view.operation, views),
  }));
}

/** The table of contents: the sections, and the operations by method and path, each with its console. */
function contentsHtml(views: readonly OperationView[]): string {
  const operations = views.map((view) => `<li><a href="#${escapeHtml(view.operationId)}"><span class="method method-${view.method.toLowerCase()}">${view.method}</span> ${escapeHtml(view.fullPath)}</a><ul><li>${tryLink(view)}</li></ul></li>`);
  return `<nav class="contents" aria-label="Contents"><h2>Contents</h2><ul>
<li><a href="#overview">Start here</a></li>
<li><a href="#authentication">Authentication and your key</a></li>
<li><a href="#operations">Operations</a><ul>${operations.join('')}</ul></li>
<li><a href="#paging">Paging</a></li>
<li><a href="#errors">Errors and their codes</a></li>
<li><a href="#server-rules">How this server answers</a></li>
<li><a href="#schemas">Schemas</a></li>
<li><a href="#all-operations">Every operation</a></li>
<li><a href="#decisions">Decisions</a></li>
<li><a href="${INTERFACE_PAGE_PATH}">The interface's text</a></li>
</ul></nav>`;
}

/** What a learner reads first: what the page lets them do and how to get a key; the server's own rules come later. */
function overviewHtml(views: readonly OperationView[], base: string): string {
  const operations = views.map((view) => `<li><a href="#${escapeHtml(view.operationId)}"><span class="method method-${view.method.toLowerCase()}">${view.method}</span> ${escapeHtml(view.fullPath)}</a>: ${inlineHtml(view.operation.summary)}${view.deprecationHtml === undefined || /deprecated/i.test(view.operation.summary) ? '' : ' (deprecated)'}. ${tryLink(view)}</li>`);
  return `<section id="overview" aria-labelledby="overview-title">
<h2 id="overview-title">Start here</h2>
<p>This page teaches the Petstore interface by letting you call it: each operation below has a console that sends a real request to this server and shows the answer, with the same request in curl, JavaScript and this project's client, ready to copy. You can:</p>
<ul class="can-do">${operations.join('')}</ul>
<h3 id="get-a-key">Get a key</h3>
<p>Every operation needs an API key &#91;spec <a href="${INTERFACE_PAGE_PATH}#spec-5.1">5.1</a>]. The standalone server (<code>npm start</code>, or the <code>petstore-reference</code> command) takes its keys from <code>PETSTORE_API_KEYS</code> (several, comma-separated) or <code>--api-keys-file</code>; started with neither, it makes up a development key for that run and prints it on its standard output:</p>
<pre><code>No PETSTORE_API_KEYS or --api-keys-file set: development key for this run only: …</code></pre>
<p>To choose your own: <code>PETSTORE_API_KEYS=my-key npm start</code>. Type the key into the <a href="#api-key">API key</a> field at the top of this page, which stays in view as you scroll: every console sends it. A server embedded in another program takes its keys from that program.</p>
<p>Then press <em>Send</em> in <a href="#${escapeHtml(views[0]?.operationId ?? 'operations')}-try">the first console</a>. The interface itself is <a href="${INTERFACE_PAGE_PATH}">a short text</a>; every <code>[spec 4.1]</code> on this page links to the section it cites. This server's own rules come after the operations, in <a href="#server-rules">How this server answers</a>; its base path is <code>${escapeHtml(base === '' ? '/' : base)}</code>.</p>
</section>`;
}

/** The key field, in a form of its own (browsers expect a password field in one) that stays at the top of the window, so every console is one glance from it. */
function keyBarHtml(): string {
  return `<form class="key" id="key-bar" aria-label="Your API key">
<label for="api-key">API key</label>
<input id="api-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="api-key-hint">
<p class="hint" id="api-key-hint">Every console sends it as <code>Authorization: Bearer …</code>; kept in this page's memory only. <a href="#get-a-key">Where keys come from</a></p>
</form>`;
}

/**
 * The reference page, generated from the OpenAPI document the handler serves so the two cannot drift, with a console that
 * calls the same server. Self-contained: one inline stylesheet, one inline script, nothing from another origin.
 */
export function renderReferencePage(document: OpenApiDocument, context: DecisionContext): ReferencePage {
  const decisions = referenceDecisions(context);
  const views = operationViews(document, decisions);
  const base = displayBaseOf(document);
  const { info } = document;
  const html = `${pageStart(`${info.title} API reference (${info.version})`, `${info.title} API reference`, REFERENCE_STYLES)}
<p>Interface version ${escapeHtml(info.version)} · base path <code>${escapeHtml(base === '' ? '/' : base)}</code> · licence ${escapeHtml(info.license.name)} · generated from <a href="${escapeHtml(base)}/openapi.json">the OpenAPI description</a> this server serves, with a console that calls this server.</p>
</header>
<div class="layout">
${contentsHtml(views)}
<main id="main">
${keyBarHtml()}
${overviewHtml(views, base)}
${authenticationSection(document, base, decisions)}
<section id="operations" aria-labelledby="operations-title">
<h2 id="operations-title">Operations</h2>
<p>Each operation below lists its parameters, its bodies with examples, every status it answers with and its Error codes, then a console: fill the fields, press <em>Send</em>, and read the answer. ${views.map((view) => `<a href="#${escapeHtml(view.operationId)}">${inlineHtml(view.operation.summary)}</a>`).join(' · ')}.</p>
</section>
${views.map((view) => operationSection(document, view)).join('\n')}
${pagingSection(views, base, decisions)}
${errorsSection(document, views, decisions)}
<section id="server-rules" aria-labelledby="server-rules-title">
<h2 id="server-rules-title">How this server answers</h2>
${paragraphsHtml(info.description)}
</section>
${schemasSection(document)}
${allOperationsSection(document, base)}
${decisionsSection(decisions)}
</main>
</div>
<footer class="page"><p>Generated by the server from its OpenAPI description when it started; served with an <code>ETag</code>, so a reload costs a <code>304</code>. Works offline: nothing on this page comes from another origin.</p></footer>
<script>${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
  const contentSecurityPolicy = pageSecurityPolicy(REFERENCE_STYLES, CONSOLE_SCRIPT);
  return { html, contentSecurityPolicy };
}
