import type { OpenApiDocument } from '../openapi/index.js';
import type { Decision } from './decisions.js';
import { errorCasesOf } from './error-cases.js';
import { dayText, escapeHtml, escapeText, inlineHtml, jsonBlock, paragraphsHtml } from './html.js';
import { componentNameOf, constraintsHtml, exampleOf, examplesOf, resolveSchema } from './schema-text.js';
import type { DocumentExample } from './schema-text.js';
import { statusLine } from './status-reasons.js';
import type { OpenApiHeader, OpenApiMediaType, OpenApiOperation, OpenApiParameter, OpenApiResponse } from '../openapi/types.js';

/** One operation as the page shows it: where it is, what the document says of it, and the decisions about it. */
export interface OperationView {
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  /** The path template below the base path, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** The path as clients write it, base path included. */
  readonly fullPath: string;
  readonly operation: OpenApiOperation;
  /** The path item's and the operation's own parameters. */
  readonly parameters: readonly OpenApiParameter[];
  readonly decisions: readonly Decision[];
  /** What the page says of a deprecated operation (its date and successor), as HTML; undefined when it is not deprecated. */
  readonly deprecationHtml: string | undefined;
}

/** Headers every answer carries, explained once on the page rather than under each response. */
const EVERYWHERE = new Set(['X-Request-Id']);

/** An example as a figure: its summary as the caption (with its description, such as the request a 400 answers), its value as indented JSON. */
function exampleHtml(example: DocumentExample): string {
  const caption = escapeHtml(example.summary ?? example.key);
  const description = example.description === undefined ? '' : `. ${inlineHtml(example.description)}`;
  return `<figure class="example"><figcaption>${caption}${description}</figcaption>${jsonBlock(example.value)}</figure>`;
}

/** A body's schema and examples (or one built from the schema): the first shown when `isShown`, the others behind a disclosure. */
function bodyHtml(document: OpenApiDocument, media: OpenApiMediaType, isShown: boolean): string {
  const name = componentNameOf(media.schema);
  const narrowed = media.schema['allOf'];
  const schemaText = name === undefined && Array.isArray(narrowed) ? '<a href="#schema-Error">Error</a>' : constraintsHtml(document, media.schema);
  const documented = examplesOf(media);
  const examples = documented.length > 0 ? documented : [{ key: 'shape', summary: 'Shape (built from the schema)', value: exampleOf(document, media.schema) }];
  const first = isShown ? examples.slice(0, 1) : [];
  const rest = examples.slice(first.length);
  const more = rest.length === 0 ? '' : `<details><summary>${first.length > 0 ? 'More examples' : 'Examples'} (${rest.length})</summary>${rest.map(exampleHtml).join('')}</details>`;
  return `<p class="schema">Body: ${schemaText}</p>${first.map(exampleHtml).join('')}${more}`;
}

/** The headers of a success answer as a table: name, whether always sent, meaning, and an example. */
function headersTable(headers: Readonly<Record<string, OpenApiHeader>>): string {
  const rows = Object.entries(headers).filter(([name]) => !EVERYWHERE.has(name)).map(([name, header]) => {
    const example = examplesOf(header)[0];
    const text = example === undefined ? undefined : typeof example.value === 'string' ? example.value : JSON.stringify(example.value);
    // RFC 9745 writes the date as seconds (`@1767225600`): the page shows the day beside it.
    const seconds = name === 'Deprecation' ? /^@(\d+)$/.exec(text ?? '')?.[1] : undefined;
    const when = seconds === undefined ? '' : ` (${dayText(new Date(Number(seconds) * 1000))})`;
    const exampleCell = text === undefined ? '' : `<code>${escapeHtml(text)}</code>${when}`;
    return `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td>${header.required === true ? 'always' : 'sometimes'}</td><td>${inlineHtml(header.description)}</td><td>${exampleCell}</td></tr>`;
  });
  if (rows.length === 0) return '';
  return `<table class="headers"><caption>Response headers</caption><thead><tr><th scope="col">header</th><th scope="col">sent</th><th scope="col">meaning</th><th scope="col">example</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** One response: its status line, what it means, and either its headers (a success) or its Error codes. */
function responseHtml(document: OpenApiDocument, status: string, response: OpenApiResponse): string {
  const isSuccess = status.startsWith('2');
  const cases = errorCasesOf(response);
  const media = response.content?.['application/json'];
  const parts = [`<h4><span class="status status-${escapeHtml(status.charAt(0))}xx">${escapeHtml(statusLine(status))}</span></h4>`];
  if (cases.length === 0) {
    parts.push(`<p>${inlineHtml(response.description)}</p>`);
  } else {
    const items = cases.map(({ code, when }) => `<li><a href="#error-${escapeHtml(code)}"><code>${escapeHtml(code)}</code></a>${when === undefined ? '' : `: ${inlineHtml(when)}`}</li>`);
    parts.push(`<ul class="codes">${items.join('')}</ul>`);
  }
  const headers = response.headers ?? {};
  if (isSuccess) {
    parts.push(headersTable(headers));
  } else {
    const names = Object.keys(headers).filter((name) => !EVERYWHERE.has(name));
    if (names.length > 0) parts.push(`<p class="schema">Headers: ${names.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}</p>`);
  }
  if (media !== undefined) parts.push(bodyHtml(document, media, isSuccess));
  return `<div class="response">${parts.join('')}</div>`;
}

/** The parameters as a table: name, where it goes, its type and constraints, what it means. */
function parametersTable(document: OpenApiDocument, parameters: readonly OpenApiParameter[]): string {
  if (parameters.length === 0) return '<p>None.</p>';
  const rows = parameters.map((parameter) => {
    const example = examplesOf(parameter)[0];
    const exampleText = example === undefined ? '' : ` Example: <code>${escapeHtml(String(example.value))}</code>.`;
    return `<tr><th scope="row"><code>${escapeHtml(parameter.name)}</code></th><td>${parameter.in}, ${parameter.required ? 'required' : 'optional'}</td><td>${constraintsHtml(document, parameter.schema)}</td><td>${inlineHtml(parameter.description)}${exampleText}</td></tr>`;
  });
  return `<table class="parameters"><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">type</th><th scope="col">meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The field of one parameter in the console: a select for an enum (empty first: not sent), else a text field. */
function parameterField(document: OpenApiDocument, operationId: string, parameter: OpenApiParameter): string {
  const id = escapeHtml(`${operationId}-${parameter.name}`);
  const name = escapeHtml(parameter.name);
  const schema = resolveSchema(document, parameter.schema);
  const label = `<label for="${id}"><code>${name}</code> <span class="hint">${parameter.in}, ${parameter.required ? 'required' : 'optional'}</span></label>`;
  const values = schema['enum'];
  if (Array.isArray(values)) {
    const options = values.map((value) => `<option>${escapeHtml(String(value))}</option>`).join('');
    return `<div class="field">${label}<select id="${id}" name="${name}" data-in="${parameter.in}"><option value="">(not sent)</option>${options}</select></div>`;
  }
  const numeric = schema['type'] === 'integer' ? ' inputmode="numeric"' : '';
  const placeholder = schema['default'] === undefined ? '' : ` placeholder="${escapeHtml(String(schema['default']))}"`;
  const attributes = `${numeric}${placeholder}${parameter.required ? ' required' : ''}`;
  return `<div class="field">${label}<input id="${id}" name="${name}" type="text" data-in="${parameter.in}"${attributes} autocomplete="off" spellcheck="false"></div>`;
}

/** The header that makes a create safe to repeat (draft-ietf-httpapi-idempotency-key-header): the console offers it on every POST. */
const IDEMPOTENCY_KEY = 'Idempotency-Key';

/**
 * The console's Idempotency-Key field, with a button that fills in a fresh key as a Structured Field String (`"…"`); on every POST,
 * declared or not, so the learner can try it against any server (one without it ignores the header).
 */
function idempotencyField(operationId: string): string {
  const id = `${operationId}-${IDEMPOTENCY_KEY}`;
  return `<div class="field wide"><label for="${id}"><code>${IDEMPOTENCY_KEY}</code> <span class="hint">header, optional</span></label><div class="with-button"><input id="${id}" name="${IDEMPOTENCY_KEY}" type="text" data-in="header" autocomplete="off" spellcheck="false" aria-describedby="${id}-hint"><button type="button" class="secondary new-key" data-field="${id}">New key</button></div><p class="hint" id="${id}-hint">Press <em>New key</em>, then <em>Send</em> twice: the second answer replays the first (same <code>id</code>, <code>Idempotent-Replayed: true</code>) and no second animal is added.</p></div>`;
}

/** The console of one operation: its fields, the body prefilled with the first request example, Send, and the box its answer fills. */
function consoleHtml(document: OpenApiDocument, view: OperationView): string {
  const operationId = escapeHtml(view.operationId);
  const parameters = view.parameters.filter((parameter) => parameter.name !== IDEMPOTENCY_KEY);
  const fields = parameters.map((parameter) => parameterField(document, operationId, parameter));
  if (view.method === 'POST') fields.push(idempotencyField(operationId));
  const media = view.operation.requestBody?.content['application/json'];
  const actions = ['<button type="submit">Send</button>'];
  if (media !== undefined) {
    const first = examplesOf(media)[0];
    const value = first === undefined ? exampleOf(document, media.schema) : first.value;
    fields.push(`<div class="field wide"><label for="${operationId}-body">Body <span class="hint">application/json</span></label><textarea id="${operationId}-body" name="body" rows="5" spellcheck="false" autocomplete="off">${escapeText(JSON.stringify(value, null, 2))}</textarea></div>`);
    actions.push(`<button type="button" class="secondary reset-body" data-field="${operationId}-body">Reset the body to the example</button>`);
  }
  const form = `<form class="try" data-operation="${operationId}" data-method="${view.method}" data-path="${escapeHtml(view.path)}">${fields.join('')}<div class="actions">${actions.join(' ')}</div></form>`;
  return `<h3 id="${operationId}-try">Try it</h3>${form}<div class="result" data-operation="${operationId}" aria-live="polite"><p class="hint">The answer appears here: status line, time, headers and body, and the same request in curl, JavaScript <code>fetch</code> and <code>PetstoreClient</code>, each with a copy button.</p></div>`;
}

/** A link to the operation's console, thousands of pixels below its heading, named after the operation as the page has one per operation. */
export function tryLink(view: OperationView): string {
  return `<a class="try-link" href="#${escapeHtml(view.operationId)}-try" aria-label="Try it: ${view.method} ${escapeHtml(view.fullPath)}">Try it</a>`;
}

/** The section of one operation: heading, purpose, parameters, body, every response with its Error codes, decisions, console. */
export function operationSection(document: OpenApiDocument, view: OperationView): string {
  const { operation } = view;
  const operationId = escapeHtml(view.operationId);
  const method = view.method.toLowerCase();
  const badge = view.deprecationHtml === undefined ? '' : ' <span class="badge deprecated">Deprecated</span>';
  const heading = `<h2 id="${operationId}-title"><span class="method method-${method}">${view.method}</span> <span class="path">${escapeHtml(view.fullPath)}</span>${badge}</h2>`;
  const parts = [
    `<div class="operation-head">${heading}${tryLink(view)}</div>`,
    `<p class="summary"><strong>${inlineHtml(operation.summary)}</strong> · operation <code>${operationId}</code>${operation.security?.length === 0 ? ' · no key needed' : ' · needs the key'}</p>`,
  ];
  if (view.deprecationHtml !== undefined) parts.push(`<div class="notice" role="note">${view.deprecationHtml}</div>`);
  if (operation.description !== undefined) parts.push(paragraphsHtml(operation.description));
  parts.push(`<h3>Parameters</h3>${parametersTable(document, view.parameters)}`);
  const requestBody = operation.requestBody;
  const media = requestBody?.content['application/json'];
  if (requestBody !== undefined && media !== undefined) parts.push(`<h3>Request body</h3><p>${inlineHtml(requestBody.description)}</p>${bodyHtml(document, media, true)}`);
  const responses = Object.entries(operation.responses).map(([status, response]) => responseHtml(document, status, response));
  parts.push(`<h3>Responses</h3>${responses.join('')}`);
  if (view.decisions.length > 0) {
    const links = view.decisions.map((decision) => `<li><a href="#${decision.id}">${inlineHtml(decision.question)}</a></li>`);
    parts.push(`<h3>Decisions where the interface is silent</h3><ul class="decision-links">${links.join('')}</ul>`);
  }
  parts.push(consoleHtml(document, view));
  return `<section class="operation" id="${operationId}" aria-labelledby="${operationId}-title">${parts.join('\n')}</section>`;
}
