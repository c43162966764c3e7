import { ERROR_CODES } from '../../../lib/index.js';
import type { OpenApiDocument } from '../openapi/index.js';
import type { Decision } from './decisions.js';
import { errorCasesOf } from './error-cases.js';
import { citedSectionsHtml, codeBlock, INTERFACE_PAGE_PATH, escapeHtml, inlineHtml, jsonBlock } from './html.js';
import type { OperationView } from './operation-section.js';
import { constraintsHtml, exampleOf, examplesOf, propertiesOf } from './schema-text.js';
import type { OpenApiResponse } from '../openapi/types.js';

/**
 * Where the page shows the server's origin, which the console script fills from `location.origin`: only the browser knows it
 * (behind a proxy, Host may not be it), and rendering per request from Host would tie the ETag to a header any client sets.
 */
const ORIGIN_PLACEHOLDER = '<span class="origin">http://127.0.0.1:8080</span>';

/** The base path as clients write it: the document's server URL, `.` standing for none. */
export function displayBaseOf(document: OpenApiDocument): string {
  const url = document.servers[0]?.url ?? '';
  return url === '.' ? '' : url;
}

/** Links to the decisions with these ids, in the order of the decisions. */
function decisionLinks(decisions: readonly Decision[], ids: readonly string[]): string {
  return decisions.filter((decision) => ids.includes(decision.id)).map((decision) => `<a href="#${decision.id}">${inlineHtml(decision.question)}</a>`).join(' · ');
}

/** A command shown on the page, with the origin written as the console will know it. */
function commandBlock(command: string): string {
  return codeBlock(command).replaceAll('ORIGIN', ORIGIN_PLACEHOLDER);
}

/** How to send the key, and which requests need none; the field where the learner types it is at the top of the page. */
export function authenticationSection(document: OpenApiDocument, base: string, decisions: readonly Decision[]): string {
  const schemes = Object.entries(document.components.securitySchemes).map(([name, scheme]) => `<li><code>${escapeHtml(name)}</code>: HTTP <code>${escapeHtml(scheme.scheme)}</code>. ${inlineHtml(scheme.description)}</li>`);
  return `<section id="authentication" aria-labelledby="authentication-title">
<h2 id="authentication-title">Authentication</h2>
<ul>${schemes.join('')}</ul>
<p>Every operation of the interface needs the key in the <code>Authorization</code> header; without it, or with a key the server does not know, the answer is <code>401</code> with <code>WWW-Authenticate</code> and the <a href="#schema-Error">Error</a> body.</p>
${commandBlock(`curl -i -H "Authorization: Bearer $API_KEY" "ORIGIN${base}/pets?limit=2"`)}
<p>The samples read the key from <code>API_KEY</code>: set it first in the shell, <code>export API_KEY='your key'</code>. Type the key into the <a href="#api-key">API key</a> field at the top of the page: it stays in view as you scroll, and every console sends it. A <code>401</code> in a console leads back to it.</p>
<p>Decisions: ${decisionLinks(decisions, ['decision-public', 'decision-key-rotation'])}.</p>
</section>`;
}

/** How paging works: the `Link` header of `listPets`, from the document, and the decision behind it. */
export function pagingSection(views: readonly OperationView[], base: string, decisions: readonly Decision[]): string {
  const list = views.find((view) => view.method === 'GET' && view.operation.parameters?.some((parameter) => parameter.name === 'limit') === true);
  const linkHeader = list === undefined ? undefined : Object.values(list.operation.responses)[0]?.headers?.['Link'];
  const example = linkHeader === undefined ? undefined : examplesOf(linkHeader)[0];
  const operationLink = list === undefined ? 'The list operation' : `<a href="#${escapeHtml(list.operationId)}">${list.method} ${escapeHtml(list.fullPath)}</a>`;
  return `<section id="paging" aria-labelledby="paging-title">
<h2 id="paging-title">Paging with <code>Link: rel="next"</code></h2>
<p>${operationLink} answers at most <code>limit</code> animals, in ascending <code>id</code> order, as a plain JSON array. When more animals match, the answer carries a <code>Link</code> header (RFC 8288) whose <code>rel="next"</code> target is the next page; the last page has none.</p>
${linkHeader === undefined ? '' : `<p>${inlineHtml(linkHeader.description)}</p>`}
${example === undefined ? '' : codeBlock(`Link: ${String(example.value)}`)}
<p>To read every animal, follow <code>rel="next"</code> until an answer has no <code>Link</code>; never build the URL yourself. The console's <em>Next page</em> button does exactly that.</p>
${commandBlock(`curl -i -H "Authorization: Bearer $API_KEY" "ORIGIN${base}/pets?limit=2"\n# then the URL in Link, e.g.\ncurl -i -H "Authorization: Bearer $API_KEY" "ORIGIN${base}/pets?limit=2&after=2"`)}
<p>Why a cursor: ${decisionLinks(decisions, ['decision-paging'])}.</p>
</section>`;
}

/** Every response that can carry an Error: the operations' and the document's shared ones, with where each is sent. */
function errorResponses(document: OpenApiDocument, views: readonly OperationView[]): { where: string; response: OpenApiResponse }[] {
  const answers = views.flatMap((view) => Object.values(view.operation.responses).map((response) => ({ where: `<a href="#${escapeHtml(view.operationId)}">${escapeHtml(view.operationId)}</a>`, response })));
  const shared = Object.values(document['x-shared-responses']).map((response) => ({ where: 'any request', response }));
  return [...answers, ...shared];
}

/** The Error body and the table of every code: its status, and when and where it is sent. */
export function errorsSection(document: OpenApiDocument, views: readonly OperationView[], decisions: readonly Decision[]): string {
  const responses = errorResponses(document, views);
  const cases = responses.flatMap(({ where, response }) => errorCasesOf(response).map(({ code, when = '' }) => ({ code, when, where })));
  const rows = Object.entries(ERROR_CODES).map(([code, status]) => {
    // Each sentence once, in the order the responses first give it, with every place that sends it.
    const items = [...new Set(cases.filter((entry) => entry.code === code).map((entry) => entry.when))].map((when) => {
      const wheres = new Set(cases.filter((entry) => entry.code === code && entry.when === when).map((entry) => entry.where));
      return `<li>${inlineHtml(when)} <span class="where">(${[...wheres].join(', ')})</span></li>`;
    });
    return `<tr id="error-${code}"><th scope="row"><code>${code}</code></th><td>${status}</td><td><ul>${items.join('')}</ul></td></tr>`;
  });
  const errorSchema = document.components.schemas['Error'];
  const documented = responses.flatMap(({ response }) => {
    const media = response.content?.['application/json'];
    return media === undefined || errorCasesOf(response).length === 0 ? [] : examplesOf(media);
  })[0];
  const example = documented?.value ?? (errorSchema === undefined ? undefined : exampleOf(document, errorSchema));
  return `<section id="errors" aria-labelledby="errors-title">
<h2 id="errors-title">Errors</h2>
<p>Every error answer has the <a href="#schema-Error">Error</a> body: a machine-readable <code>code</code>, a <code>message</code> for people, and <code>status</code>, equal to the HTTP status. A <code>400 validation_failed</code> adds <code>details</code>, one entry per problem.</p>
${example === undefined ? '' : jsonBlock(example)}
<p>Decisions: ${decisionLinks(decisions, ['decision-error-codes', 'decision-order-of-checks'])}.</p>
<table id="error-codes"><caption>Error codes</caption><thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">when (and where)</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</section>`;
}

/** Each schema of the document: its meaning, its fields with their constraints, and an example. */
export function schemasSection(document: OpenApiDocument): string {
  const parts = Object.entries(document.components.schemas).map(([name, schema]) => {
    const description = typeof schema['description'] === 'string' ? `<p>${inlineHtml(schema['description'])}</p>` : '';
    const properties = propertiesOf(schema);
    const body = properties.length === 0
      ? `<p>${constraintsHtml(document, schema)}</p>`
      : `<table class="fields"><thead><tr><th scope="col">field</th><th scope="col">required</th><th scope="col">type</th><th scope="col">meaning</th></tr></thead><tbody>${properties.map((property) => {
        const meaning = typeof property.schema['description'] === 'string' ? inlineHtml(property.schema['description']) : '';
        return `<tr><th scope="row"><code>${escapeHtml(property.name)}</code></th><td>${property.isRequired ? 'yes' : 'no'}</td><td>${constraintsHtml(document, property.schema)}</td><td>${meaning}</td></tr>`;
      }).join('')}</tbody></table>`;
    return `<div class="schema-item" id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${description}${body}</div>`;
  });
  return `<section id="schemas" aria-labelledby="schemas-title"><h2 id="schemas-title">Schemas</h2>${parts.join('\n')}</section>`;
}

/** Every operation the document lists, with whether it needs the key, and every method each path answers. */
export function allOperationsSection(document: OpenApiDocument, base: string): string {
  const rows: string[] = [];
  const allowed: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    allowed.push(`<li><code>${escapeHtml(base + path)}</code>: <code>${escapeHtml(item['x-allow'])}</code></li>`);
    for (const method of ['get', 'post'] as const) {
      const operation = item[method];
      if (operation === undefined) continue;
      const needsKey = operation.security?.length !== 0;
      rows.push(`<tr><td><span class="method method-${method}">${method.toUpperCase()}</span></td><td><code>${escapeHtml(base + path)}</code></td><td><code>${escapeHtml(operation.operationId ?? '')}</code></td><td>${inlineHtml(operation.summary)}</td><td>${needsKey ? 'yes' : 'no'}</td></tr>`);
    }
  }
  return `<section id="all-operations" aria-labelledby="all-operations-title">
<h2 id="all-operations-title">Every operation in the description</h2>
<p>The description at <a href="${escapeHtml(base)}/openapi.json"><code>${escapeHtml(base)}/openapi.json</code></a> (no key needed) lists these; this page is generated from it.</p>
<table class="all-operations"><thead><tr><th scope="col">method</th><th scope="col">path</th><th scope="col">operation</th><th scope="col">summary</th><th scope="col">key</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p><code>HEAD</code> is answered wherever <code>GET</code> is, with the same status and headers and no body, and <code>OPTIONS</code> on every path without a key, with <code>204</code> and <code>Allow</code>; the description states them on each path (<code>x-allow</code>) rather than as operations, so a generated client has only the operations above. Any other method is a <code>405</code> with <code>Allow</code>:</p>
<ul class="allowed">${allowed.join('')}</ul>
</section>`;
}

/**
 * Each decision where the interface is silent, with its own anchor, its reason and the sections it is
 * about (`&#91;` is the `[` of the citation, written so the repository's check of literal citations skips this template).
 */
export function decisionsSection(decisions: readonly Decision[]): string {
  const items = decisions.map((decision) => `<article class="decision" id="${decision.id}" aria-labelledby="${decision.id}-title">
<h3 id="${decision.id}-title">${inlineHtml(decision.question)}</h3>
<p>${inlineHtml(decision.decision)}</p>
<p class="why"><strong>Why:</strong> ${inlineHtml(decision.reason)} <span class="cite">&#91;spec ${citedSectionsHtml(escapeHtml(decision.spec))}]</span></p>
</article>`);
  return `<section id="decisions" aria-labelledby="decisions-title">
<h2 id="decisions-title">Decisions where the interface is silent</h2>
<p>The interface leaves these questions open; this server answers them as follows. <code>[spec 4.1]</code> names the section of <a href="${INTERFACE_PAGE_PATH}">the interface's text</a> a decision is about, and links to it.</p>
${items.join('\n')}
</section>`;
}
