import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { createPetstore } from '../../../../lib/index.js';
import { inject } from '../../../../server/testing/index.js';
import type { InjectResponse } from '../../../../server/testing/index.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import { citedSectionsHtml } from '../../../../extras/docs-site/reference/html.js';
import { API_KEY, AUTH } from '../../../support/http.js';
import { docsSite } from '../../../../extras/docs-site/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const OPTIONS = { store: createPetstore(), apiKeys: [API_KEY], plugins: [docsSite()] };

function request(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<InjectResponse> {
  return inject(OPTIONS, { method, url, headers });
}

/** The numbers of the sections of docs/interface.md (`1`, `4.1`, …), in order. */
async function sectionNumbers(): Promise<string[]> {
  const markdown = await readFile(resolve(ROOT, 'docs', 'interface.md'), 'utf8');
  return [...markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)?) /gm)].map(([, number]) => number ?? '');
}

describe('the interface\'s text at GET {basePath}/docs/interface', () => {
  test('GET /v1/docs/interface serves the interface\'s text without a key: HTML with an ETag, no-cache, and a policy that allows its one stylesheet and no script', async () => {
    const answer = await request('/v1/docs/interface');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(answer.headers['cache-control'], 'no-cache');
    assert.equal(answer.headers['etag'], `"${createHash('sha256').update(answer.body, 'utf8').digest('base64url')}"`);
    const styles = [...answer.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text]) => text ?? '');
    assert.equal(styles.length, 1);
    const policy = answer.headers['content-security-policy'] ?? '';
    assert.ok(policy.includes(`style-src 'sha256-${createHash('sha256').update(styles[0] ?? '', 'utf8').digest('base64')}'`), policy);
    assert.doesNotMatch(policy, /script-src/, 'default-src \'none\' refuses every script');
    assert.doesNotMatch(answer.body, /<script|\sstyle="|\son[a-z]+="/);
    assert.match(answer.body, /<title>The Petstore interface<\/title>/);
  });

  test('GET and HEAD of /v1/docs/interface answer 304 without a body when If-None-Match names the ETag', async () => {
    const first = await request('/v1/docs/interface');
    const entityTag = first.headers['etag'] ?? '';
    for (const method of ['GET', 'HEAD']) {
      const again = await request('/v1/docs/interface', { 'if-none-match': entityTag }, method);
      assert.deepEqual([again.status, again.body, again.headers['etag']], [304, '', entityTag], method);
    }
    const head = await request('/v1/docs/interface', {}, 'HEAD');
    assert.deepEqual([head.status, head.body, head.headers['content-length']], [200, '', first.headers['content-length']]);
  });

  test('GET /v1/docs/interface is sent gzip-compressed to a client that accepts it, with Vary: Accept-Encoding', async () => {
    const plain = await request('/v1/docs/interface');
    const compressed = await request('/v1/docs/interface', { 'accept-encoding': 'gzip' });
    assert.deepEqual([compressed.status, compressed.headers['content-encoding'], compressed.headers['vary']], [200, 'gzip', 'Accept-Encoding']);
    assert.ok(Number(compressed.headers['content-length']) < Number(plain.headers['content-length']) / 2);
    assert.notEqual(compressed.headers['etag'], plain.headers['etag'], 'each coding has its own ETag');
  });

  test('the interface\'s text has an anchor per numbered section of docs/interface.md, each listed in its contents', async () => {
    const page = (await request('/v1/docs/interface')).body;
    const numbers = await sectionNumbers();
    assert.ok(numbers.length >= 18, numbers.join(' '));
    const contents = page.slice(page.indexOf('<nav class="contents"'), page.indexOf('</nav>'));
    for (const number of numbers) {
      assert.match(page, new RegExp(`<h[23] id="spec-${number.replace('.', '\\.')}">${number.replace('.', '\\.')} `), number);
      assert.ok(contents.includes(`<a href="#spec-${number}">`), `contents → ${number}`);
    }
    const ids = new Set([...page.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id));
    assert.deepEqual([...page.matchAll(/ href="#([^"]*)"/g)].map(([, anchor]) => anchor).filter((anchor) => !ids.has(anchor)), []);
    assert.ok(page.includes('<a href="#spec-5">§5</a>'), 'the text\'s own §5 links to its section');
    assert.ok(page.includes('<a href="../docs">reference page</a>'), 'the way back, relative to the page');
  });

  test('/v1/docs/interface answers OPTIONS without a key, 405 to other methods, and stays out of the OpenAPI document', async () => {
    const options = await request('/v1/docs/interface', {}, 'OPTIONS');
    assert.deepEqual([options.status, options.headers['allow']], [204, 'GET, HEAD, OPTIONS']);
    const deleted = await request('/v1/docs/interface', AUTH, 'DELETE');
    assert.deepEqual([deleted.status, deleted.headers['allow']], [405, 'GET, HEAD, OPTIONS']);
    assert.ok(!Object.keys(createOpenApiDocument().paths).some((path) => path.startsWith('/docs')));
    assert.equal((await request('/v1/docs/interface/', AUTH)).status, 404);
  });

  test('every citation of the interface on the reference page links to a section anchor of the interface\'s text, relative to the page', async () => {
    const reference = (await request('/v1/docs')).body;
    const text = (await request('/v1/docs/interface')).body;
    const ids = new Set([...text.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id));
    // A citation shown as an example of the form, in <code>, is not one.
    const citations = [...reference.matchAll(/(?<!<code>)(?:\[|&#91;)spec (.*?)\]/g)].map(([, sections]) => sections ?? '');
    assert.ok(citations.length > 30, `${citations.length} citations`);
    for (const sections of citations) {
      const plain = sections.replace(/<[^>]*>/g, '');
      const linked = [...sections.matchAll(/<a href="docs\/interface#([^"]+)">([^<]+)<\/a>/g)];
      assert.deepEqual(linked.map(([, anchor]) => anchor), (plain.match(/\d+(?:\.\d+)?/g) ?? []).map((number) => `spec-${number}`), sections);
      for (const [, anchor] of linked) assert.ok(ids.has(anchor), anchor);
    }
  });

  test('citedSectionsHtml() links each number that names a section of the interface, and leaves any other as text', () => {
    assert.equal(citedSectionsHtml('4.1, 12, 1–9'), '<a href="docs/interface#spec-4.1">4.1</a>, 12, <a href="docs/interface#spec-1">1</a>–<a href="docs/interface#spec-9">9</a>');
  });
});
