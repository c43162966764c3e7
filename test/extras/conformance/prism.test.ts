import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runConformance } from '../../../extras/conformance/index.js';
import { createOpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import type { CheckResult, Level } from '../../../extras/conformance/index.js';
import { hasPrism, startPrism } from './support/targets.js';
import type { Target } from './support/targets.js';

/**
 * What `prism mock openapi.json` fails, as recorded in docs/conformance-kit.md. A mock validates
 * requests against the document and answers its examples, but keeps no state and knows nothing of
 * the interface's rules. When this changes, rerun `npm run conformance-table` and update
 * the table in docs/conformance-kit.md with it.
 */
const PRISM_DEPARTURES: Record<Level, { fail: readonly string[]; skip: readonly string[] }> = {
  spec: {
    fail: [
      'auth/invalid-key/listPets', 'auth/invalid-key/createPet', 'auth/invalid-key/getPet',
      // The first example of listPets' 200 is a page of two, whatever `limit` asks, and the pets the page-size checks create never show.
      // A request that fails validation gets a 422 (prism answers 422 wherever the operation documents one, here
      // idempotency_key_reused), so the invalid bodies fail their 400.
      'list/default-limit', 'list/limit-honoured', 'list/status-filter', 'create/created', 'create/without-status', 'create/distinct-ids',
      'create/missing-name', 'create/missing-category-id', 'create/invalid-name', 'create/invalid-category-id', 'create/fractional-category-id',
      'create/invalid-status', 'get/created-pet', 'get/missing-pet',
    ],
    skip: [],
  },
  reference: {
    fail: [
      // The examples' WWW-Authenticate, X-Request-Id and invalid_parameter bodies pass auth/challenge/missing-key, list/invalid-limit,
      // list/invalid-status, get/invalid-pet-id and document/listPets; the two-pet page fails list/default-limit and list/limit-honoured.
      'auth/invalid-key/listPets', 'auth/invalid-key/createPet', 'auth/invalid-key/getPet', 'auth/challenge/invalid-key',
      'auth/scheme-case-insensitive', 'list/default-limit', 'list/limit-honoured', 'list/status-filter', 'list/limit-clamped-low', 'list/limit-clamped-high',
      'paging/last-page', 'create/created', 'create/without-status', 'create/distinct-ids', 'create/missing-name', 'create/missing-category-id',
      'create/invalid-name', 'create/invalid-category-id', 'create/fractional-category-id', 'create/invalid-status', 'create/location',
      'create/no-default-status', 'create/unknown-field', 'create/every-violation-listed', 'create/invalid-json', 'create/payload-too-large',
      'idempotency/replay', 'idempotency/key-reused', 'idempotency/concurrent', 'idempotency/malformed-key', 'get/created-pet', 'get/missing-pet',
      // HEAD and OPTIONS are no operations of the document, so a mock answers them with 405.
      'deprecation/getPet', 'deprecation/getPet-errors', 'http/method-not-allowed', 'http/head/listPets', 'http/head/getPet', 'http/options',
      'http/unknown-path', 'http/auth-first', 'document/createPet', 'document/getPet',
    ],
    skip: ['paging/link-next'],
  },
};

/** Without prism installed the test skips, except under CI, where a missing devDependency is a failure. */
const isMissing = !hasPrism() && process.env['CI'] !== 'true';

describe('the conformance kit against prism mock of openapi.json', { skip: isMissing ? 'prism is not installed (npm ci installs @stoplight/prism-cli)' : false }, () => {
  let target: Target | undefined;
  const results: Partial<Record<Level, CheckResult[]>> = {};

  before(async () => {
    if (!hasPrism()) throw new Error('prism is not installed, and CI=true: npm ci must install the devDependency @stoplight/prism-cli');
    target = await startPrism();
    for (const level of ['spec', 'reference'] as const) results[level] = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level });
  });

  after(async () => {
    await target?.close();
  });

  function result(level: Level, id: string): CheckResult {
    const found = results[level]?.find((candidate) => candidate.id === id);
    assert.ok(found !== undefined, id);
    return found;
  }

  test('prism mock accepts any bearer token, so every operation fails auth/invalid-key [5.4]', () => {
    for (const operation of ['listPets', 'createPet', 'getPet']) {
      const { outcome, failure } = result('spec', `auth/invalid-key/${operation}`);
      assert.equal(outcome, 'fail');
      assert.match(failure?.received ?? '', /^20[01] /);
    }
  });

  test('prism mock answers 200 for a pet no one created, failing get/missing-pet [4.3]', () => {
    const { outcome, failure } = result('spec', 'get/missing-pet');
    assert.equal(outcome, 'fail');
    assert.match(failure?.received ?? '', /^200 /);
  });

  test('prism mock keeps no state: the created Pet is the document\'s first example, not what was sent, and getPet does not find it', () => {
    const document = createOpenApiDocument();
    const created = Object.values(document.paths['/pets']?.post?.responses['201']?.content?.['application/json']?.examples ?? {})[0];
    const found = Object.values(document.paths['/pets/{petId}']?.get?.responses['200']?.content?.['application/json']?.examples ?? {})[0];
    assert.ok(created !== undefined && found !== undefined);
    for (const [id, example] of [['create/created', created], ['get/created-pet', found]] as const) {
      assert.equal(result('spec', id).outcome, 'fail');
      assert.ok(result('spec', id).failure?.received.includes(JSON.stringify(example.value)), result('spec', id).failure?.received);
    }
  });

  for (const level of ['spec', 'reference'] as const) {
    test(`prism mock fails exactly the ${level}-level checks recorded in docs/conformance-kit.md`, () => {
      const ran = results[level] ?? [];
      assert.deepEqual(ran.filter((candidate) => candidate.outcome === 'fail').map((candidate) => candidate.id), PRISM_DEPARTURES[level].fail);
      assert.deepEqual(ran.filter((candidate) => candidate.outcome === 'skip').map((candidate) => candidate.id), PRISM_DEPARTURES[level].skip);
    });
  }
});
