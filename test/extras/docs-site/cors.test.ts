import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import { inject } from '../../../server/testing/index.js';
import type { InjectResponse } from '../../../server/testing/index.js';
import { API_KEY } from '../../support/http.js';
import type { CorsOrigins } from '../../../server/core/index.js';
import { docsSite } from '../../../extras/docs-site/index.js';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const EXPOSED = 'Link, Location, Deprecation, Sunset, WWW-Authenticate, X-Request-Id, ETag, Idempotent-Replayed, Retry-After';

function optionsWith(corsOrigins?: CorsOrigins): Parameters<typeof inject>[0] {
  const options = { store: createPetstore(), apiKeys: [API_KEY], plugins: [docsSite()] };
  return corsOrigins === undefined ? options : { ...options, corsOrigins };
}

function varyOf(answer: InjectResponse): string | undefined {
  return answer.headers['vary'];
}

describe('the docs site with CORS', () => {
  test('without corsOrigins the description varies with Accept-Encoding only', async () => {
    assert.equal(varyOf(await inject(optionsWith(), { url: '/v1/openapi.json', headers: { origin: APP } })), 'Accept-Encoding');
  });

  test('the cacheable description and page carry Vary: Origin for every origin when CORS is on, their 304s included, and expose ETag', async () => {
    const options = optionsWith([APP]);
    for (const url of ['/v1/openapi.json', '/v1/docs']) {
      for (const origin of [APP, OTHER, undefined]) {
        const headers: Record<string, string> = origin === undefined ? {} : { origin };
        const full = await inject(options, { url, headers });
        assert.equal(full.status, 200, url);
        assert.equal(full.headers['vary'], 'Accept-Encoding, Origin', `${url} from ${origin}`);
        const etag = full.headers['etag'];
        assert.ok(etag !== undefined);
        const unchanged = await inject(options, { url, headers: { ...headers, 'if-none-match': etag } });
        assert.equal(unchanged.status, 304, url);
        assert.equal(unchanged.headers['vary'], 'Accept-Encoding, Origin', `${url} 304 from ${origin}`);
        assert.equal(unchanged.headers['access-control-expose-headers'], origin === APP ? EXPOSED : undefined, url);
      }
    }
  });
});
