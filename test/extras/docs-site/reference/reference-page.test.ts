import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { referenceDecisions } from '../../../../extras/docs-site/reference/decisions.js';
import { renderReferencePage } from '../../../../extras/docs-site/reference/page.js';
import { createPetstore, ERROR_CODES, MAX_LIMIT, MIN_LIMIT } from '../../../../lib/index.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import { refusedRequestsOf } from '../../../support/openapi-examples.js';
import type { OpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import { inject } from '../../../../server/testing/index.js';
import type { InjectResponse } from '../../../../server/testing/index.js';
import { API_KEY, AUTH } from '../../../support/http.js';
import { DEFAULT_BODY_LIMIT } from '../../../../server/core/request.js';
import type { OpenApiMediaType, OpenApiParameter } from '../../../../extras/docs-site/openapi/types.js';
import { docsSite } from '../../../../extras/docs-site/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const OPTIONS = { store: createPetstore(), apiKeys: [API_KEY], plugins: [docsSite()] };
const DOCUMENT = createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT });
const OPERATIONS = [['listPets', 'GET', '/v1/pets'], ['createPet', 'POST', '/v1/pets'], ['getPet', 'GET', '/v1/pets/{petId}']] as const;

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<InjectResponse> {
  return inject(OPTIONS, { method, url, headers });
}

/** The page as the handler serves it. */
async function servedPage(): Promise<string> {
  const answer = await get('/v1/docs');
  assert.equal(answer.status, 200);
  return answer.body;
}

/** The HTML of one element with this id, up to its closing tag (the page nests no element of the same name inside these). */
function elementById(html: string, tag: string, id: string): string {
  const start = html.search(new RegExp(`<${tag}[^>]* id="${id}"`));
  assert.notEqual(start, -1, `<${tag} id="${id}">`);
  const end = html.indexOf(`</${tag}>`, start);
  return html.slice(start, end + tag.length + 3);
}

/** The text of a piece of HTML, without its tags and with the entities this page writes decoded. */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#91;/g, '[').replace(/&amp;/g, '&');
}

/** The media type of createPet's request body in a document. */
function createPetBody(document: OpenApiDocument): OpenApiMediaType {
  const media = document.paths['/pets']?.post?.requestBody?.content['application/json'];
  assert.ok(media !== undefined);
  return media;
}

describe('the reference page at GET {basePath}/docs', () => {
  test('GET /v1/docs serves the reference page without a key: HTML with an ETag, no-cache and a Content-Security-Policy', async () => {
    const answer = await get('/v1/docs');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(answer.headers['cache-control'], 'no-cache');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.equal(answer.headers['etag'], `"${createHash('sha256').update(answer.body, 'utf8').digest('base64url')}"`);
    assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.body)));
    assert.match(answer.headers['content-security-policy'] ?? '', /^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    assert.ok(answer.headers['x-request-id'] !== undefined);
    assert.match(answer.body, /^<!doctype html>\n<html lang="en">/);
    assert.equal((await get('/v1/docs', { authorization: 'Bearer not-a-key' })).status, 200, 'a wrong key changes nothing');
  });

  test('HEAD /v1/docs answers the headers of GET without the page', async () => {
    const full = await get('/v1/docs');
    const head = await get('/v1/docs', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    const { 'x-request-id': _fullId, ...fullHeaders } = full.headers;
    const { 'x-request-id': _headId, ...headHeaders } = head.headers;
    assert.deepEqual(headHeaders, fullHeaders);
  });

  test('GET and HEAD of /v1/docs and /v1/openapi.json answer 304 with the ETag and no body when If-None-Match matches, 200 otherwise', async () => {
    for (const url of ['/v1/docs', '/v1/openapi.json']) {
      const full = await get(url);
      const tag = full.headers['etag'] ?? '';
      assert.match(tag, /^"[A-Za-z0-9_-]{43}"$/, url);
      for (const method of ['GET', 'HEAD']) {
        for (const ifNoneMatch of [tag, `W/${tag}`, `"stale", ${tag}`, '*']) {
          const answer = await get(url, { 'if-none-match': ifNoneMatch, 'x-request-id': 'conditional-1' }, method);
          assert.equal(answer.status, 304, `${method} ${url} If-None-Match: ${ifNoneMatch}`);
          assert.equal(answer.body, '');
          assert.deepEqual(answer.headers, { etag: tag, 'cache-control': 'no-cache', vary: 'Accept-Encoding', 'x-request-id': 'conditional-1' });
        }
        for (const ifNoneMatch of ['"stale"', 'W/"stale"', tag.slice(0, -2) + '"', '']) {
          const answer = await get(url, { 'if-none-match': ifNoneMatch }, method);
          assert.equal(answer.status, 200, `${method} ${url} If-None-Match: ${ifNoneMatch}`);
          assert.equal(answer.body, method === 'GET' ? full.body : '');
          assert.equal(answer.headers['etag'], tag);
        }
      }
    }
  });

  test('GET /v1/openapi.json is revalidated (no-cache) and keeps its JSON headers', async () => {
    const answer = await get('/v1/openapi.json');
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.headers['cache-control'], 'no-cache');
    assert.deepEqual(answer.json(), JSON.parse(JSON.stringify(DOCUMENT)));
  });

  test('/v1/docs answers OPTIONS without a key and other methods like any public route, and stays out of the OpenAPI document', async () => {
    const options = await get('/v1/docs', {}, 'OPTIONS');
    assert.deepEqual([options.status, options.headers['allow']], [204, 'GET, HEAD, OPTIONS']);
    const anonymous = await get('/v1/docs', {}, 'POST');
    assert.deepEqual([anonymous.status, (anonymous.json() as { code: string }).code], [401, 'unauthorized']);
    const deleted = await get('/v1/docs', AUTH, 'DELETE');
    assert.deepEqual([deleted.status, (deleted.json() as { code: string }).code, deleted.headers['allow']], [405, 'method_not_allowed', 'GET, HEAD, OPTIONS']);
    assert.deepEqual(Object.keys(DOCUMENT.paths), ['/pets', '/pets/{petId}', '/openapi.json']);
    assert.equal((await get('/v1/docs/', AUTH)).status, 404, 'a trailing slash is another path');
  });

  test('an embedded handler answers GET / with a 404: only the standalone server redirects it', async () => {
    const answer = await get('/');
    assert.equal(answer.status, 404);
    assert.equal((answer.json() as { code: string }).code, 'not_found');
  });
});

describe('what the reference page shows', () => {
  test('the reference page shows each operation with its method, full path, purpose, and parameters with their constraints and defaults', async () => {
    const page = await servedPage();
    for (const [operationId, method, path] of OPERATIONS) {
      const section = elementById(page, 'section', operationId);
      assert.match(section, /^<section class="operation"/);
      const heading = /<h2[^>]*>([\s\S]*?)<\/h2>/.exec(section)?.[1] ?? '';
      assert.ok(textOf(heading).includes(`${method} ${path}`), textOf(heading));
      assert.ok(textOf(section).includes(`operation ${operationId}`), operationId);
    }
    const list = textOf(elementById(page, 'section', 'listPets'));
    assert.ok(list.includes('List animals'));
    assert.ok(list.includes(`integer, ${MIN_LIMIT} to ${MAX_LIMIT}, default 20`), 'limit: range and default');
    assert.ok(list.includes('PetStatus, one of "available", "pending", "sold"'), 'status: the enum');
    assert.ok(list.includes('integer (int64), −(2^53 − 1) to 2^53 − 1'), 'after: its bounds');
    const get = textOf(elementById(page, 'section', 'getPet'));
    assert.ok(get.includes('petIdpath, required'), 'petId: a required path parameter');
  });

  test('the reference page shows every status each operation answers with, with its Error codes', async () => {
    const page = await servedPage();
    for (const [operationId] of OPERATIONS) {
      const section = elementById(page, 'section', operationId);
      const operation = Object.values(DOCUMENT.paths).flatMap((item) => [item.get, item.post]).find((candidate) => candidate?.operationId === operationId);
      assert.ok(operation !== undefined);
      for (const [status, response] of Object.entries(operation.responses)) {
        assert.ok(textOf(section).includes(status), `${operationId} ${status}`);
        const codes = response.content?.['application/json']?.schema['allOf'];
        if (codes === undefined) continue;
        for (const code of JSON.stringify(codes).match(/"enum":\[([^\]]*)\]/)?.[1]?.split(',').map((value) => JSON.parse(value) as string) ?? []) {
          assert.ok(section.includes(`<a href="#error-${code}"><code>${code}</code></a>`), `${operationId} ${status} ${code}`);
        }
      }
    }
    assert.ok(textOf(elementById(page, 'section', 'createPet')).includes('415 Unsupported Media Type'));
  });

  test('the reference page lists every Error code in #error-codes, each in a code element with its status', async () => {
    const table = elementById(await servedPage(), 'table', 'error-codes');
    const rows = [...table.matchAll(/<tr id="error-([a-z_]+)"><th scope="row"><code>([a-z_]+)<\/code><\/th><td>(\d+)<\/td>/g)].map(([, id, code, status]) => [id, code, Number(status)]);
    assert.deepEqual(rows, Object.entries(ERROR_CODES).map(([code, status]) => [code, code, status]));
    assert.ok(textOf(table).includes('No animal has this id'), 'when a code is sent, from the document');
  });

  test('the reference page shows the deprecation of getPet with its sunset date and its successor', async () => {
    const section = elementById(await servedPage(), 'section', 'getPet');
    assert.ok(textOf(section).includes('Deprecated'));
    assert.ok(textOf(section).includes('Removed on 5 December 2030'));
    assert.ok(textOf(section).includes('Since 1 January 2026'));
    assert.ok(section.includes('<a href="#listPets">GET /v1/pets</a>'), 'links to its successor');
    assert.ok(!textOf(elementById(await servedPage(), 'section', 'listPets')).includes('Deprecated'));
  });

  test('the reference page explains the key, paging with Link rel="next", and links to the description', async () => {
    const page = await servedPage();
    const authentication = textOf(elementById(page, 'section', 'authentication'));
    assert.ok(authentication.includes('Authorization: Bearer <API_KEY>'));
    assert.ok(authentication.includes('curl -i -H "Authorization: Bearer $API_KEY"'));
    const paging = textOf(elementById(page, 'section', 'paging'));
    assert.ok(paging.includes('rel="next"') && paging.includes('after'), paging);
    assert.ok(page.includes('<a href="/v1/openapi.json">'));
    const allOperations = elementById(page, 'section', 'all-operations');
    for (const operationId of ['listPets', 'createPet', 'getPet', 'getOpenApiDescription']) assert.ok(allOperations.includes(operationId), operationId);
    assert.ok(allOperations.includes('<li><code>/v1/pets</code>: <code>GET, HEAD, POST, OPTIONS</code></li>'), 'the methods each path answers, HEAD and OPTIONS included');
  });

  test('the reference page shows the document\'s examples and prefills createPet\'s body with the first request example', async () => {
    const page = await servedPage();
    const examples = Object.values(createPetBody(DOCUMENT).examples ?? {});
    assert.ok(examples.length > 0, 'the document has request examples');
    const first = examples[0];
    assert.ok(first !== undefined);
    const textarea = /<textarea[^>]* name="body"[^>]*>([\s\S]*?)<\/textarea>/.exec(elementById(page, 'section', 'createPet'))?.[1];
    assert.deepEqual(JSON.parse(textOf(textarea ?? '')), first.value);
    for (const example of examples) assert.ok(textOf(page).includes(JSON.stringify(example.value, null, 2)), example.summary);
    // The refused requests are no request examples, yet a learner still sees each, with its answer.
    for (const refused of refusedRequestsOf(DOCUMENT)) {
      const body = refused.body === undefined ? '' : ` with the body ${JSON.stringify(refused.body)}`;
      assert.ok(textOf(elementById(page, 'section', refused.operationId)).includes(`${refused.summary}. The request: ${refused.method} /v1${refused.target}${body}.`), refused.key);
    }
    const location = DOCUMENT.paths['/pets']?.post?.responses['201']?.headers?.['Location']?.examples;
    for (const example of Object.values(location ?? {})) assert.ok(page.includes(`<code>${example.value}</code>`), example.value);
  });

  test('the reference page keeps to the console\'s DOM contract: the key field, a form and a result box per operation', async () => {
    const page = await servedPage();
    assert.match(page, /<title>[^<]*Petstore[^<]*<\/title>/);
    assert.equal(page.match(/<h1[ >]/g)?.length, 1);
    assert.ok(page.includes('<link rel="icon" href="data:,">'));
    assert.ok(page.includes('<label for="api-key">API key</label>'));
    assert.match(page, /<input id="api-key" type="password" autocomplete="off"/);
    assert.match(page, /<main id="main">\n<form class="key" id="key-bar" aria-label="Your API key">\n<label for="api-key">API key<\/label>\n<input id="api-key" [^>]*>\n<p [^>]*>[^\n]*<\/p>\n<\/form>/, 'the key field first in the main column, in a form of its own without an action');
    const fields: Record<string, string[]> = { listPets: ['limit', 'status', 'after'], createPet: ['Idempotency-Key', 'body'], getPet: ['petId'] };
    const actions: Record<string, string> = { createPet: ' <button type="button" class="secondary reset-body" data-field="createPet-body">Reset the body to the example</button>' };
    for (const [operationId] of OPERATIONS) {
      const section = elementById(page, 'section', operationId);
      const form = elementById(section.replace(/<form class="try"/, `<form id="form-${operationId}" class="try"`), 'form', `form-${operationId}`);
      assert.match(form, new RegExp(`data-operation="${operationId}"`));
      const names = [...form.matchAll(/<(?:input|select|textarea)[^>]* name="([^"]+)"/g)].map(([, name]) => name);
      assert.deepEqual(names, fields[operationId]);
      for (const [, id] of form.matchAll(/<(?:input|select|textarea) id="([^"]+)"/g)) assert.ok(form.includes(`<label for="${id}">`), `a label for ${id}`);
      assert.ok(form.endsWith(`<button type="submit">Send</button>${actions[operationId] ?? ''}</div></form>`), form.slice(-200));
      assert.match(section.slice(section.indexOf('</form>')), new RegExp(`^</form><div class="result" data-operation="${operationId}" aria-live="polite">`));
    }
    assert.match(elementById(page, 'section', 'listPets'), /<select id="listPets-status" name="status" data-in="query"><option value="">\(not sent\)<\/option><option>available<\/option>/);
    assert.match(elementById(page, 'section', 'getPet'), /<input id="getPet-petId" name="petId" type="text" data-in="path" inputmode="numeric"[^>]* required/);
  });

  test('the reference page starts with what a learner can do and how to get a key, and keeps the server\'s rules (order of checks, X-Request-Id, 431, 417) for later', async () => {
    const page = await servedPage();
    const overview = textOf(elementById(page, 'section', 'overview'));
    for (const [, method, path] of OPERATIONS) assert.ok(overview.includes(`${method} ${path}`), path);
    assert.match(overview, /Get a key[\s\S]*PETSTORE_API_KEYS[\s\S]*development key for this run only/);
    const printed = /No PETSTORE_API_KEYS[^:]*: development key for this run only: /.exec(overview)?.[0] ?? '';
    assert.ok(printed !== '' && (await readFile(resolve(ROOT, 'extras', 'cli', 'serve.ts'), 'utf8')).includes(printed), 'the page quotes the line the server prints');
    assert.doesNotMatch(overview, /X-Request-Id|431|417|components\.responses|order/);
    const rules = elementById(page, 'section', 'server-rules');
    assert.ok(textOf(rules).includes('Checks run in this order') && textOf(rules).includes('431'));
    const order = ['id="key-bar"', 'id="overview"', 'id="authentication"', 'id="listPets"', 'id="errors"', 'id="server-rules"', 'id="schemas"'].map((id) => page.indexOf(id));
    assert.deepEqual(order, [...order].sort((left, right) => left - right), 'the key, then what to do, the operations, and the rules after them');
  });

  test('the reference page offers an Idempotency-Key field with a New key button on createPet\'s console, once, whether or not the document declares the header', async () => {
    const field = /<input id="createPet-Idempotency-Key" name="Idempotency-Key" type="text" data-in="header"[^>]*><button type="button" class="secondary new-key" data-field="createPet-Idempotency-Key">New key<\/button>/;
    assert.match(elementById(await servedPage(), 'section', 'createPet'), field);
    const declared = JSON.parse(JSON.stringify(DOCUMENT)) as OpenApiDocument;
    const create = declared.paths['/pets']?.post;
    assert.ok(create !== undefined);
    create.parameters = JSON.parse('[{ "name": "Idempotency-Key", "in": "header", "required": false, "description": "A key.", "schema": { "type": "string" } }]') as OpenApiParameter[];
    const { html } = renderReferencePage(declared, { bodyLimit: 1000 });
    assert.equal(html.match(/name="Idempotency-Key"/g)?.length, 1);
    assert.ok(!elementById(html, 'section', 'listPets').includes('Idempotency-Key'), 'only a create needs it');
  });

  test('the reference page shows the Deprecation example as a date beside its raw value', async () => {
    assert.ok(elementById(await servedPage(), 'section', 'getPet').includes('<code>@1767225600</code> (1 January 2026)'));
  });

  test('the reference page links each operation\'s console from the operation\'s heading and from the contents', async () => {
    const page = await servedPage();
    const contents = page.slice(page.indexOf('<nav class="contents"'), page.indexOf('</nav>'));
    for (const [operationId, method, path] of OPERATIONS) {
      const link = `<a class="try-link" href="#${operationId}-try" aria-label="Try it: ${method} ${path}">Try it</a>`;
      const section = elementById(page, 'section', operationId);
      assert.match(section, new RegExp(`^<section [^>]*><div class="operation-head"><h2 id="${operationId}-title">.*?</h2>${link.replace(/[{}]/g, '\\$&')}</div>`), operationId);
      assert.ok(section.includes(`<h3 id="${operationId}-try">Try it</h3><form class="try" data-operation="${operationId}"`), `${operationId}: the console under its anchor`);
      assert.ok(contents.includes(`${path}</a><ul><li>${link}</li></ul></li>`), `${operationId}: the contents link under the operation`);
    }
  });

  test('the reference page states each decision under its own anchor, its operations link to them, and every link on the page leads to an anchor on it', async () => {
    const page = await servedPage();
    const decisions = referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT });
    const section = elementById(page, 'section', 'decisions');
    for (const decision of decisions) {
      const article = elementById(section, 'article', decision.id);
      assert.ok(textOf(article).includes(`${'['}spec ${decision.spec}]`), decision.id);
      assert.ok(textOf(article).includes('Why:'), decision.id);
      for (const operationId of decision.operations) assert.ok(elementById(page, 'section', operationId).includes(`<a href="#${decision.id}">`), `${operationId} → ${decision.id}`);
    }
    assert.ok(textOf(section).includes(`A body may hold at most ${DEFAULT_BODY_LIMIT} bytes (64 KiB)`));
    const ids = new Set([...page.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id));
    const anchors = [...page.matchAll(/ href="#([^"]*)"/g)].map(([, anchor]) => anchor);
    assert.ok(anchors.length > 50);
    assert.deepEqual(anchors.filter((anchor) => !ids.has(anchor)), []);
    assert.equal(ids.size, page.match(/ id="/g)?.length, 'ids are unique');
  });

  test('the reference page\'s decisions are questions docs/spec-conformance.md records where the spec is silent', async () => {
    const conformance = await readFile(resolve(ROOT, 'docs', 'spec-conformance.md'), 'utf8');
    const silent = conformance.slice(conformance.indexOf('## Where the spec is silent'));
    const questions = silent.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| question')).map((line) => line.split(' | ')[0]?.slice(2));
    for (const decision of referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT })) assert.ok(questions.includes(decision.question), decision.question);
  });

  test('the reference page is self-contained: one inline style and one inline script, allowed by their hashes, nothing from another origin', async () => {
    const answer = await get('/v1/docs');
    const page = answer.body;
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text]) => text ?? '');
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, text]) => text ?? '');
    assert.deepEqual([styles.length, scripts.length, page.match(/<style|<script/g)?.length], [1, 1, 2]);
    const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    const policy = answer.headers['content-security-policy'] ?? '';
    assert.ok(policy.includes(`script-src ${hash(scripts[0] ?? '')}`));
    assert.ok(policy.includes(`style-src ${hash(styles[0] ?? '')}`));
    // The interface's text is linked relative to the page (`docs/interface#spec-4.1` from /v1/docs), so a mount prefix keeps it.
    const isOwn = (url: string): boolean => url.startsWith('/v1/') || url === 'data:,' || /^docs\/interface(#spec-[\d.]+)?$/.test(url);
    assert.deepEqual([...page.matchAll(/\b(?:src|href|action)="([^"#][^"]*)"/g)].map(([, url]) => url ?? '').filter((url) => !isOwn(url)), []);
    // No stylesheet import, no inline style or handler (the policy would block them), no resource in another element.
    assert.doesNotMatch(page, /@import|url\(|\sstyle="|\son[a-z]+="|<(?:img|iframe|object|embed|link rel="stylesheet")/);
    assert.doesNotMatch(scripts[0] ?? '', /localStorage|sessionStorage|document\.cookie/);
    assert.doesNotThrow(() => new Function(scripts[0] ?? ''), 'the console script parses');
  });

  test('the reference page weighs under 112 KiB with its stylesheet and script', async () => {
    const bytes = Buffer.byteLength(await servedPage());
    // 100 KiB until the console explained its answers (the order of checks, what gets past each, the answers the decisions shape): about 11 KB, 2.5 KB compressed. docs/reference-page.md says why.
    assert.ok(bytes < 112 * 1024, `${bytes} bytes`);
  });
});

describe('renderReferencePage()', () => {
  test('renderReferencePage() is generated from the document it is given: base path, texts and examples, escaped', () => {
    const document: OpenApiDocument = createOpenApiDocument({ basePath: '/api', bodyLimit: 1000 });
    const list = document.paths['/pets']?.get;
    assert.ok(list !== undefined);
    list.summary = 'List <animals> & "friends"';
    list.deprecated = true;
    const body = createPetBody(document);
    body.examples = { marker: { summary: 'A <marked> example', value: { name: 'Marker-7f3', categoryId: 9 } }, ...body.examples };
    const notFound = document.paths['/pets/{petId}']?.get?.responses['404'];
    assert.ok(notFound !== undefined);
    notFound.description = 'Gone.';
    const { html } = renderReferencePage(document, { bodyLimit: 1000 });
    assert.ok(textOf(html).includes('GET /api/pets') && textOf(html).includes('GET /api/pets/{petId}'));
    assert.ok(html.includes('<a href="#listPets">GET /api/pets</a>'), 'the successor, under the new base path');
    assert.ok(html.includes('List &lt;animals&gt; &amp; "friends"'), 'text is escaped; quotes need no escape outside attributes');
    assert.ok(!html.includes('<animals>'));
    assert.ok(html.includes('A &lt;marked&gt; example'));
    const textarea = /<textarea[^>]* name="body"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? '';
    assert.deepEqual(JSON.parse(textOf(textarea)), { name: 'Marker-7f3', categoryId: 9 });
    assert.ok(elementById(html, 'section', 'listPets').includes('<div class="notice" role="note"><p><strong>Deprecated.</strong></p></div>'), 'a deprecation without dates says only that');
    assert.ok(elementById(html, 'section', 'getPet').includes('<li><a href="#error-not_found"><code>not_found</code></a></li>'), 'a code the description does not explain');
    assert.ok(textOf(html).includes('A body may hold at most 1000 bytes;'));
  });

  test('renderReferencePage() builds the body to prefill from the schema when the document has no example', () => {
    // The document as it would be without any example, mounted by a host framework (no base path).
    const plain = JSON.parse(JSON.stringify(createOpenApiDocument()), (key: string, value: unknown) => (key === 'examples' ? undefined : value)) as OpenApiDocument;
    plain.servers = [{ url: '.', description: 'mounted' }];
    const { html } = renderReferencePage(plain, { bodyLimit: 1000 });
    const textarea = /<textarea[^>]* name="body"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? '';
    assert.deepEqual(JSON.parse(textOf(textarea)), { name: 'Rex', categoryId: 1, status: 'available' });
    assert.ok(textOf(html).includes('Shape (built from the schema)'));
    assert.ok(textOf(html).includes('GET /pets/{petId}'), 'no base path when mounted');
    assert.ok(html.includes('<code>/</code>'), 'the base path reads as /');
  });
});
