import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { runConformance, UnreachableServerError } from '../../conformance/index.js';
import type { CheckResult, ConformanceFetch, Level } from '../../conformance/index.js';
import type { Pet, Petstore } from '../../lib/index.js';
import { KIT_KEY, startFetchTarget, startNodeAdapter, storeWithPets } from './support/targets.js';
import type { Target } from './support/targets.js';
import { MAX_REQUESTS } from '../../conformance/exchange.js';

const LEVEL_NAMES: readonly Level[] = ['spec', 'reference'];

function notPassed(results: readonly CheckResult[]): string[] {
  return results.filter((result) => result.outcome !== 'pass').map((result) => `${result.id}: ${result.detail}`);
}

async function withTarget<T>(start: Promise<Target>, use: (target: Target) => Promise<T>): Promise<T> {
  const target = await start;
  try {
    return await use(target);
  } finally {
    await target.close();
  }
}

/** Every pet of a store, following the cursor. */
async function allPets(store: Petstore): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (;;) {
    const page = await store.listPets({ limit: 100, after: pets.at(-1)?.id ?? 0 });
    pets.push(...page);
    if (page.length < 100) return pets;
  }
}

/** A server that takes connections and requests and never answers; counts the requests. */
async function startSilentServer(): Promise<{ baseUrl: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer(() => {
    requests++;
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () => new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}

describe('runConformance() against this project\'s server', () => {
  for (const level of LEVEL_NAMES) {
    test(`runConformance() passes every ${level}-level check through the node:http adapter (startServer on port 0)`, async () => {
      const results = await withTarget(startNodeAdapter(), (target) => runConformance({ ...target, level }));
      assert.deepEqual(notPassed(results), []);
      assert.ok(results.length >= (level === 'spec' ? 20 : 45), String(results.length));
    });

    test(`runConformance() passes every ${level}-level check through the fetch adapter (createFetchHandler)`, async () => {
      const results = await withTarget(startFetchTarget(), (target) => runConformance({ ...target, level }));
      assert.deepEqual(notPassed(results), []);
    });
  }

  test('runConformance() passes against a store already holding 250 pets, creating only pets named conformance-<runId>-, in a bounded number of requests', async () => {
    const store = await storeWithPets(250);
    let requests = 0;
    const countingFetch: ConformanceFetch = (url, init) => {
      requests++;
      return fetch(url, { method: init.method, headers: init.headers, redirect: init.redirect, signal: init.signal as AbortSignal, ...(init.body === undefined ? {} : { body: init.body }) });
    };
    const results = await withTarget(startNodeAdapter(store), (target) => runConformance({ ...target, level: 'reference', runId: 'live-store', fetch: countingFetch }));
    assert.deepEqual(notPassed(results), []);
    const created = (await allPets(store)).slice(250);
    assert.ok(created.length > 0);
    assert.deepEqual(created.filter((pet) => !pet.name.startsWith('conformance-live-store-')), []);
    assert.ok(requests > 50 && requests <= MAX_REQUESTS, String(requests));
  });

  test('runConformance() never shows the key: failures print it as <key>', async () => {
    const results = await withTarget(startFetchTarget((handler) => async (request) => {
      const response = await handler(request);
      return response.status === 201 ? new Response(response.body, { status: 200, headers: response.headers }) : response;
    }), (target) => runConformance({ ...target }));
    const text = JSON.stringify(results);
    assert.ok(results.some((result) => result.outcome === 'fail'));
    assert.ok(text.includes('Bearer <key>'));
    assert.ok(!text.includes(KIT_KEY));
  });

  test('runConformance() does not follow a Link to another origin with the key', async () => {
    const results = await withTarget(startFetchTarget((handler) => async (request) => {
      const response = await handler(request);
      const headers = new Headers(response.headers);
      if (headers.has('link') && new URL(request.url).pathname === '/v1/pets') headers.set('link', (headers.get('link') ?? '').replace('</v1', '<http://127.0.0.2:1/v1'));
      return new Response(response.body, { status: response.status, headers });
    }), (target) => runConformance({ ...target, level: 'reference', only: ['paging/link-next'] }));
    assert.equal(results[0]?.outcome, 'fail');
    assert.match(results[0]?.failure?.received ?? '', /not sent: http:\/\/127\.0\.0\.2:1\/v1\/pets\?.* is not on http:\/\/127\.0\.0\.1:\d+, where the key may go/);
  });
});

describe('runConformance() against servers that misbehave at the transport', () => {
  test('runConformance() fails the checks of a server that never answers on the per-request timeout, and stops sending after three', async () => {
    const server = await startSilentServer();
    try {
      const results = await runConformance({ baseUrl: server.baseUrl, apiKey: 'key', timeoutMs: 100 });
      assert.ok(results.length > 20);
      assert.ok(results.every((result) => result.outcome !== 'pass'));
      assert.match(results[0]?.detail ?? '', /received no answer within 100 ms/);
      assert.ok(results.some((result) => /not sent: the server already let 3 requests time out/.test(result.detail)));
      assert.equal(server.requests(), 3);
    } finally {
      await server.close();
    }
  });

  test('runConformance() ends each request at the timeout even when its fetch ignores the abort signal', async () => {
    const neverFetch: ConformanceFetch = () => new Promise(() => undefined);
    const results = await runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'key', timeoutMs: 50, fetch: neverFetch, only: ['auth'] });
    assert.equal(results.length, 6);
    assert.ok(results.every((result) => result.outcome === 'fail'));
  });

  test('runConformance() rejects with UnreachableServerError naming the URL when nothing listens there', async () => {
    const server = await startSilentServer();
    const { baseUrl } = server;
    await server.close();
    await assert.rejects(runConformance({ baseUrl, apiKey: 'key' }), (error: unknown) => {
      assert.ok(error instanceof UnreachableServerError);
      assert.match(error.message, new RegExp(`^cannot reach ${baseUrl.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`));
      return true;
    });
  });

  test('runConformance() reads at most 1 MiB of an endless answer and fails its check', async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(65_536, 0x20);
      const write = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write);
      };
      write();
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const { port } = server.address() as AddressInfo;
      const [result] = await runConformance({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'key', only: ['auth/missing-key/listPets'] });
      assert.equal(result?.outcome, 'fail');
      assert.match(result?.failure?.received ?? '', /^200 /);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('runConformance() refuses invalid options with a TypeError naming the option', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ baseUrl: 'not a url' }, /`baseUrl` must be an absolute http or https URL/],
      [{ baseUrl: 'ftp://127.0.0.1/v1' }, /`baseUrl` must be an http or https URL without query or fragment/],
      [{ baseUrl: 'http://127.0.0.1/v1?x=1' }, /without query or fragment/],
      [{ apiKey: 'two words' }, /`apiKey` must be a non-empty string/],
      [{ apiKey: '' }, /`apiKey` must be a non-empty string/],
      [{ level: 'strict' }, /`level` must be spec or reference, not "strict"/],
      [{ timeoutMs: 0 }, /`timeoutMs` must be a positive integer/],
      [{ runId: 'a b' }, /`runId` must be 1 to 32 letters/],
      [{ only: ['nothing'] }, /--only "nothing" names no check, group or section/],
      [{ only: ['deprecation'] }, /leaves no check to run at level spec \(reference-level checks need --level reference\)/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'key', ...options } as Parameters<typeof runConformance>[0]), (error: unknown) => {
        assert.ok(error instanceof TypeError, String(error));
        assert.match(error.message, message);
        return true;
      });
    }
  });
});
