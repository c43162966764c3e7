import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createPetstore } from '../../lib/index.js';
import { INTERFACE_SECTIONS } from '../../extras/docs-site/reference/html.js';
import { ORDER_OF_CHECKS as CHECKS_WITH_CLAUSES } from '../../server/core/order-of-checks.js';
import { inject } from '../../server/testing/index.js';
import type { InjectRequest } from '../../server/testing/index.js';
import { ROOT } from './citations.js';

const KEY = 'order-of-checks-key';
/** The checks as the documents quote them. */
const ORDER_OF_CHECKS = CHECKS_WITH_CLAUSES.map(([check]) => check);
const BODY_LIMIT = 1024;
const TOO_LARGE = 'x'.repeat(BODY_LIMIT + 1);

/**
 * For each check, by a word of its entry in ORDER_OF_CHECKS: a request that fails it and as many of
 * the checks after it as can fail together (no key, an unknown path, a wrong method, a wrong media
 * type, a body too large and not JSON), so only the check that runs first can give its answer.
 */
const FAILING: readonly (readonly [RegExp, InjectRequest])[] = [
  [/root routes/, { method: 'GET', url: '/root', headers: { host: 'a,b', 'content-type': 'text/plain' } }],
  [/`Host`/, { method: 'POST', url: '/elsewhere', headers: { host: 'a,b', 'content-type': 'text/plain' }, body: TOO_LARGE }],
  [/base path/, { method: 'POST', url: '/elsewhere', headers: { 'content-type': 'text/plain' }, body: TOO_LARGE }],
  [/`OPTIONS`/, { method: 'OPTIONS', url: '/v1/pets', headers: { authorization: 'Bearer wrong', 'idempotency-key': '' } }],
  [/^auth/, { method: 'DELETE', url: '/v1/nowhere', headers: { 'content-type': 'text/plain', 'idempotency-key': '' }, body: TOO_LARGE }],
  [/^path/, { method: 'DELETE', url: '/v1/nowhere', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'text/plain', 'idempotency-key': '' }, body: TOO_LARGE }],
  [/^method/, { method: 'DELETE', url: '/v1/pets', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'text/plain', 'idempotency-key': '' }, body: TOO_LARGE }],
  [/`Idempotency-Key`/, { method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'text/plain', 'idempotency-key': '' }, body: TOO_LARGE }],
  [/^media type/, { method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'text/plain' }, body: TOO_LARGE }],
  [/^size/, { method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: TOO_LARGE }],
  [/^JSON/, { method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{' }],
  [/^schema/, { method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"id":1}' }],
];

/** What an entry of ORDER_OF_CHECKS says its check answers: `(415)`, `(400 \`invalid_json\`)`; a root route answers 200. */
function expectedOf(entry: string): { status: number; code?: string } {
  const match = /\((\d{3})(?: `(\w+)`)?/.exec(entry);
  if (match === null) return { status: 200 };
  return match[2] === undefined ? { status: Number(match[1]) } : { status: Number(match[1]), code: match[2] };
}

/**
 * Every chain of checks a document quotes: three or more items joined by ` → `, one of them the
 * auth check. The first item is the entry of ORDER_OF_CHECKS the text before the first arrow ends
 * with, the last the one the text after the last arrow starts with; an item that is none stays as written.
 */
function quotedChains(markdown: string): string[][] {
  const prose = markdown.replace(/\n(?![\n|#-]) */g, ' ');
  return [...prose.matchAll(/[^→\n]*(?: → [^→\n]*){2,}/g)].map((match) => {
    const items = match[0].split(' → ');
    const first = items[0] ?? '';
    const last = items.at(-1) ?? '';
    items[0] = ORDER_OF_CHECKS.find((entry) => first.endsWith(entry)) ?? first;
    items[items.length - 1] = ORDER_OF_CHECKS.find((entry) => last.startsWith(entry)) ?? last;
    return items;
  }).filter((items) => items.includes('auth (401)'));
}

/** Whether `items` appear in `list` in the same order. */
function isSubsequence(items: readonly string[], list: readonly string[]): boolean {
  let at = 0;
  for (const item of items) {
    at = list.indexOf(item, at);
    if (at === -1) return false;
    at++;
  }
  return true;
}

describe('ORDER_OF_CHECKS', () => {
  test('ORDER_OF_CHECKS is the order the core answers in: a request failing a check and those after it gets that check\'s answer', async () => {
    const target = {
      store: createPetstore(),
      apiKeys: [KEY],
      bodyLimit: BODY_LIMIT,
      rootRoutes: [{ path: '/root', operation: 'root', answer: () => ({ status: 200, headers: [], body: new Uint8Array() }) }],
    };
    assert.equal(ORDER_OF_CHECKS.length, FAILING.length, 'a request for every check');
    for (const [index, entry] of ORDER_OF_CHECKS.entries()) {
      const [word, request] = FAILING[index] ?? [/$^/, { url: '/' }];
      assert.match(entry, word, `check ${index + 1} is ${entry}`);
      const reply = await inject(target, request);
      const expected = expectedOf(entry);
      assert.equal(reply.status, expected.status, `${entry}: ${reply.body}`);
      if (expected.code !== undefined) assert.equal((reply.json() as { code?: unknown }).code, expected.code, entry);
    }
  });

  test('every document that quotes the order of checks quotes ORDER_OF_CHECKS: its entries, in its order', async () => {
    const files = ['README.md', ...['architecture.md', 'http-behaviour.md', 'idempotency.md', 'robustness.md', 'spec-conformance.md'].map((name) => join('docs', name))];
    const quotes: string[] = [];
    for (const file of files) {
      for (const chain of quotedChains(await readFile(join(ROOT, file), 'utf8'))) {
        assert.ok(isSubsequence(chain, ORDER_OF_CHECKS), `${file} quotes ${chain.join(' → ')}, which is not ORDER_OF_CHECKS in its order`);
        quotes.push(file);
      }
    }
    const behaviour = await readFile(join(ROOT, 'docs', 'http-behaviour.md'), 'utf8');
    assert.ok(behaviour.includes(ORDER_OF_CHECKS.join(' → ')), 'docs/http-behaviour.md quotes the whole list');
    assert.ok(quotes.includes(join('docs', 'idempotency.md')) && quotes.includes(join('docs', 'robustness.md')), quotes.join(', '));
  });

  test('ORDER_OF_CHECKS cites for each check sections the interface\'s text has, or an RFC, and gives the operation of the checks that read a body', () => {
    const sections = new Set(INTERFACE_SECTIONS.map((section) => section.id));
    for (const [check, clause, operation] of CHECKS_WITH_CLAUSES) {
      if (clause.startsWith('RFC ')) assert.match(clause, /^RFC \d+ §[\d.]+$/, check);
      else for (const number of clause.split(', ')) assert.ok(sections.has(`spec-${number}`), `${check} cites spec ${number}, which the interface's text does not have`);
      assert.equal(operation, CHECKS_WITH_CLAUSES.findIndex(([entry]) => entry === check) > ORDER_OF_CHECKS.indexOf('method (405)') ? 'createPet' : undefined, check);
    }
  });

  test('quotedChains() reads a chain out of prose, and isSubsequence() refuses one out of order', () => {
    assert.deepEqual(quotedChains('The order: auth (401) → path (404) →\nmethod (405), then more.\n\nNo → chain → here.'), [['auth (401)', 'path (404)', 'method (405)']]);
    assert.deepEqual(quotedChains('Checks: auth → route → method.'), []);
    assert.deepEqual(quotedChains('Checks: auth (401) → route → method (405).'), [['auth (401)', 'route', 'method (405)']]);
    assert.ok(isSubsequence(['auth (401)', 'method (405)'], ORDER_OF_CHECKS));
    assert.ok(!isSubsequence(['method (405)', 'auth (401)'], ORDER_OF_CHECKS));
  });
});
