import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { createOpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import { DEFAULT_BODY_LIMIT } from '../../../server/core/request.js';
import { AUTH, assertError } from '../../support/http.js';
import { call, createTestCore } from '../../support/inject.js';
import type { TestCore } from '../../support/inject.js';
import { docsSite } from '../../../extras/docs-site/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const DOCUMENT = createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT });

describe('GET /v1/openapi.json', () => {
  let core: TestCore;
  before(async () => {
    core = createTestCore({ plugins: [docsSite()] });
  });

  test('GET /v1/openapi.json serves the OpenAPI description without a key', async () => {
    const reply = await call(core, 'GET', '/v1/openapi.json');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(reply.json, JSON.parse(JSON.stringify(DOCUMENT)));
    const head = await call(core, 'HEAD', '/v1/openapi.json');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-length'], reply.headers['content-length']);
  });

  test('GET /v1/openapi.json answers OPTIONS with 204 and Allow, and other methods with 401, then 405', async () => {
    const options = await call(core, 'OPTIONS', '/v1/openapi.json');
    assert.equal(options.status, 204);
    assert.equal(options.headers['allow'], 'GET, HEAD, OPTIONS');
    assertError(await call(core, 'POST', '/v1/openapi.json'), 401, 'unauthorized');
    const post = await call(core, 'POST', '/v1/openapi.json', { headers: AUTH });
    assertError(post, 405, 'method_not_allowed');
    assert.equal(post.headers['allow'], 'GET, HEAD, OPTIONS');
  });

  test('GET /v1/openapi.json describes the handler\'s own base path and body limit', async () => {
    const custom = createTestCore({ plugins: [docsSite()], basePath: '/api/v2', bodyLimit: 1000 });
    const reply = await call(custom, 'GET', '/api/v2/openapi.json');
    assert.deepEqual(reply.json, JSON.parse(JSON.stringify(createOpenApiDocument({ basePath: '/api/v2', bodyLimit: 1000 }))));
  });

  test('openapi.json at the repository root is the served description (run `npm run openapi` when this fails)', async () => {
    const reply = await call(core, 'GET', '/v1/openapi.json');
    const file = await readFile(resolve(ROOT, 'openapi.json'), 'utf8');
    assert.equal(file, `${JSON.stringify(reply.json, null, 2)}\n`, 'openapi.json is stale: run npm run openapi');
  });
});
