import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { MAX_ANSWER_BYTES, MAX_EMPTY_PAGES, PetstoreClient, RETRY_DEFAULTS } from '../../../extras/client/index.js';
import type { FetchInit, FetchResponse } from '../../../extras/client/index.js';
import { clientFailure } from '../../support/client-assertions.js';

/** The rows of the client's bounds table in docs/embedding.md, by their first cell: the default and how to change it. */
async function boundsTable(): Promise<Map<string, { byDefault: string; changedWith: string }>> {
  const text = await readFile(new URL('../../../docs/embedding.md', import.meta.url), 'utf8');
  const section = text.split('\n### Bounds on a call\n')[1]?.split('\n### ')[0] ?? '';
  const rows = new Map<string, { byDefault: string; changedWith: string }>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| Bound |')) continue;
    const [bound = '', byDefault = '', changedWith = ''] = line.slice(2).split(' | ');
    rows.set(bound, { byDefault, changedWith });
  }
  return rows;
}

function seconds(milliseconds: number): string {
  return `${milliseconds / 1000} s`;
}

describe('the client\'s bounds table', () => {
  test('docs/embedding.md lists every bound of PetstoreClient once, each default as the exported constants have it', async () => {
    const rows = await boundsTable();
    const expected: Record<string, string> = {
      'The call\'s budget': `${seconds(RETRY_DEFAULTS.totalTime)} from the first request`,
      'Each request\'s deadline': `${seconds(RETRY_DEFAULTS.attemptTimeout)}, or what is left of the budget if less`,
      'An answer\'s size': `${MAX_ANSWER_BYTES / 1024 / 1024} MiB (\`MAX_ANSWER_BYTES\`)`,
      'Requests per call': `${RETRY_DEFAULTS.attempts} (\`RETRY_DEFAULTS.attempts\`), the first included`,
      'A wait before a retry': `a draw below ${RETRY_DEFAULTS.baseDelay} ms, doubled each retry up to ${seconds(RETRY_DEFAULTS.maxDelay)} (\`RETRY_DEFAULTS.baseDelay\`, \`maxDelay\`)`,
      'A `Retry-After`': 'never shortens a wait',
      'Redirects': 'none followed',
      '`Content-Encoding` layers': '5, fetch\'s own bound (undici); the decoded size counts against `maxAnswerBytes`',
      '`pets()`\'s cursor': 'only forward',
      'Pages without a pet in `pets()`': `${MAX_EMPTY_PAGES} in a row (\`MAX_EMPTY_PAGES\`)`,
      'A server unreachable': '(the budget)',
    };
    assert.deepEqual([...rows.keys()].sort(), Object.keys(expected).sort(), 'one row per bound, and no other');
    for (const [bound, byDefault] of Object.entries(expected)) assert.equal(rows.get(bound)?.byDefault, byDefault, bound);
    // Every option that changes a bound is named in the row of that bound.
    for (const [bound, option] of [['The call\'s budget', 'totalTime'], ['Each request\'s deadline', 'attemptTimeout'], ['An answer\'s size', 'maxAnswerBytes'], ['Requests per call', 'attempts'], ['A wait before a retry', 'baseDelay, maxDelay'], ['Pages without a pet in `pets()`', 'maxEmptyPages']] as const) {
      assert.match(rows.get(bound)?.changedWith ?? '', new RegExp(option), bound);
    }
  });

  test('PetstoreClient follows no redirect, as the table says: every request goes with redirect manual, and a redirect loop costs one request', async () => {
    let requests = 0;
    const looping = createServer((_request, response) => {
      requests++;
      response.writeHead(301, { location: '/v1/pets' });
      response.end();
    });
    await new Promise<void>((resolve) => looping.listen(0, '127.0.0.1', resolve));
    const { port } = looping.address() as AddressInfo;
    try {
      const seen: FetchInit[] = [];
      const fetching = (url: string, init: FetchInit): Promise<FetchResponse> => {
        seen.push(init);
        return fetch(url, init);
      };
      const client = new PetstoreClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'bounds-key', fetch: fetching });
      const error = await clientFailure(() => client.listPets());
      assert.match(error.message, /^Unexpected answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets: HTTP 301, not an Error body/);
      assert.equal(requests, 1);
      assert.deepEqual(seen.map((init) => init.redirect), ['manual']);
    } finally {
      looping.closeAllConnections();
      await new Promise<void>((resolve) => looping.close(() => resolve()));
    }
  });
});
