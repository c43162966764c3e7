import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { RefusedKeyError, runConformance, SetupError, UnreachableServerError, WrongBaseUrlError } from '../../../extras/conformance/index.js';
import { createPetstore } from '../../../lib/index.js';
import type { CheckResult, ConformanceFetch, Level } from '../../../extras/conformance/index.js';
import type { Pet, Petstore } from '../../../lib/index.js';
import { KIT_KEY, startFetchTarget, startNodeAdapter, storeWithPets } from './support/targets.js';
import { MAX_REQUESTS } from '../../../extras/conformance/exchange.js';
import { closingAfter } from '../../support/closing.js';

const LEVEL_NAMES: readonly Level[] = ['spec', 'reference'];

function notPassed(results: readonly CheckResult[]): string[] {
  return results.filter((result) => result.outcome !== 'pass').map((result) => `${result.id}: ${result.detail}`);
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
      const results = await closingAfter(startNodeAdapter(), (target) => runConformance({ ...target, level }));
      assert.deepEqual(notPassed(results), []);
      assert.ok(results.length >= (level === 'spec' ? 20 : 45), String(results.length));
    });

    test(`runConformance() passes every ${level}-level check through the fetch adapter (createFetchHandler)`, async () => {
      const results = await closingAfter(startFetchTarget(), (target) => runConformance({ ...target, level }));
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
    const results = await closingAfter(startNodeAdapter(store), (target) => runConformance({ ...target, level: 'reference', runId: 'live-store', fetch: countingFetch }));
    assert.deepEqual(notPassed(results), []);
    const created = (await allPets(store)).slice(250);
    assert.ok(created.length > 0);
    assert.deepEqual(created.filter((pet) => !pet.name.startsWith('conformance-live-store-')), []);
    assert.ok(requests > 50 && requests <= MAX_REQUESTS, String(requests));
  });

  test('runConformance() never shows the key: failures print it as <key>', async () => {
    const results = await closingAfter(startFetchTarget((handler) => async (request) => {
      const response = await handler(request);
      return response.status === 201 ? new Response(response.body, { status: 200, headers: response.headers }) : response;
    }), (target) => runConformance({ ...target }));
    const text = JSON.stringify(results);
    assert.ok(results.some((result) => result.outcome === 'fail'));
    assert.ok(text.includes('Bearer <key>'));
    assert.ok(!text.includes(KIT_KEY));
  });

  test('runConformance() does not follow a Link to another origin with the key', async () => {
    const results = await closingAfter(startFetchTarget((handler) => async (request) => {
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
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // The request with the key, which checks the base URL before the checks, gets a plain answer.
      if (request.headers.authorization !== undefined) return void response.end('[]');
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

/** A fetch that counts the requests it sends. */
function countingFetch(): { fetch: ConformanceFetch; requests: () => number } {
  let requests = 0;
  const counted: ConformanceFetch = (url, init) => {
    requests++;
    return fetch(url, { method: init.method, headers: init.headers, redirect: init.redirect, signal: init.signal as AbortSignal, ...(init.body === undefined ? {} : { body: init.body }) });
  };
  return { fetch: counted, requests: () => requests };
}

/** The names of a store's pets that a run created with this run id and suffix prefix. */
async function namesOf(store: Petstore, prefix: string): Promise<string[]> {
  return (await allPets(store)).map((pet) => pet.name).filter((name) => name.startsWith(prefix));
}

describe('runConformance() before the checks: the base URL and the key', () => {
  test('runConformance() rejects with RefusedKeyError in one line, sending one request and running no check, when the key is refused', async () => {
    const { fetch: counted, requests } = countingFetch();
    const seen: CheckResult[] = [];
    await closingAfter(startFetchTarget(), async (target) => {
      await assert.rejects(runConformance({ baseUrl: target.baseUrl, apiKey: 'not-the-key', fetch: counted, onResult: (result) => seen.push(result) }), (error: unknown) => {
        assert.ok(error instanceof RefusedKeyError && error instanceof SetupError);
        assert.match(error.message, /^the key was refused: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets with the key answered 401 unauthorized; give a key the server accepts$/);
        assert.ok(!error.message.includes('not-the-key'));
        return true;
      });
    });
    assert.equal(requests(), 1);
    assert.deepEqual(seen, []);
  });

  test('runConformance() rejects with WrongBaseUrlError in one line when the base URL lacks the version prefix', async () => {
    await closingAfter(startFetchTarget(), async (target) => {
      const origin = new URL(target.baseUrl).origin;
      await assert.rejects(runConformance({ baseUrl: origin, apiKey: target.apiKey }), (error: unknown) => {
        assert.ok(error instanceof WrongBaseUrlError && error instanceof SetupError);
        assert.equal(error.message, `nothing answers the interface at ${origin}: does the base URL end in the version prefix, e.g. /v1? (GET ${origin}/pets with the key answered 404 not_found)`);
        return true;
      });
    });
  });

  test('runConformance() rejects with WrongBaseUrlError when what answers at the base URL is not JSON, such as a web page', async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Welcome</title>');
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const { port } = server.address() as AddressInfo;
      await assert.rejects(runConformance({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'key' }), (error: unknown) => {
        assert.ok(error instanceof WrongBaseUrlError);
        assert.match(error.message, /\(GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets with the key answered 200 \(text\/html, not JSON\)\)$/);
        return true;
      });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('runConformance() and the pets a page-size check needs', () => {
  test('runConformance() creates the pets list/default-limit and list/limit-honoured need on an empty store, named fill-N, only as many as needed', async () => {
    const store = createPetstore();
    const { fetch: counted, requests } = countingFetch();
    await closingAfter(startNodeAdapter(store), async (target) => {
      const first = await runConformance({ ...target, runId: 'first', only: ['list'], fetch: counted });
      assert.deepEqual(notPassed(first), []);
      // The fixture's four pets, then 17 more for the default page of 20, then 80 for the page of 100.
      assert.equal((await namesOf(store, 'conformance-first-fixture-')).length, 4);
      assert.deepEqual(await namesOf(store, 'conformance-first-fill-'), Array.from({ length: 97 }, (_, index) => `conformance-first-fill-${index + 1}`));
      assert.match(first.find((result) => result.id === 'list/default-limit')?.detail ?? '', /^20 pets; at least 21 pets exist, 17 of them created by this check$/);
      assert.match(first.find((result) => result.id === 'list/limit-honoured')?.detail ?? '', /^limit=1, 3, 100 answered 1, 3, 100; at least 101 pets exist, 80 of them created by this check$/);
      const second = await runConformance({ ...target, runId: 'second', only: ['list/default-limit', 'list/limit-honoured'] });
      assert.deepEqual(notPassed(second), []);
      // A page of 100 cannot tell 100 pets from more, and the interface has no other way to count: one more pet makes sure.
      assert.deepEqual(await namesOf(store, 'conformance-second-'), ['conformance-second-fill-1']);
    });
    assert.ok(requests() < 120, String(requests()));
  });

  test('runConformance() at the reference level on an empty store stays within the request budget with the pets it creates', async () => {
    const { fetch: counted, requests } = countingFetch();
    const results = await closingAfter(startNodeAdapter(), (target) => runConformance({ ...target, level: 'reference', fetch: counted }));
    assert.deepEqual(notPassed(results), []);
    assert.ok(requests() <= MAX_REQUESTS / 2, `${requests()} requests`);
  });

  test('runConformance() skips a page-size check, saying why, when the pets it needs cannot be created', async () => {
    const results = await closingAfter(startFetchTarget((handler) => (request) => (request.method === 'POST'
      ? Promise.resolve(Response.json({ code: 'internal_error', message: 'Something broke', status: 500 }, { status: 500 }))
      : handler(request))), (target) => runConformance({ ...target, only: ['list/default-limit', 'list/limit-honoured'] }));
    assert.deepEqual(results.map((result) => result.outcome), ['skip', 'skip']);
    assert.match(results[0]?.detail ?? '', /^needs at least 21 pets, but POST \/v1\/pets \(.*\) \{"name":"conformance-[0-9a-f]{8}-fill-1","categoryId":9005\} answered 500 /);
    assert.match(results[1]?.detail ?? '', /^needs at least 101 pets, but POST \/v1\/pets /);
  });
});

/** A listPets answer with more pets after those it had. */
async function withPets(response: Response, pets: readonly unknown[]): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify([...(await response.json() as unknown[]), ...pets]), { status: response.status, headers });
}

describe('runConformance() and the pets an earlier run left', () => {
  test('runConformance() says a list failure comes from an invalid pet an earlier run\'s create check left on a server that wrongly stored it', async () => {
    // A server with a validation bug: it stores a `status` outside PetStatus, and lists what it stored.
    const stored: unknown[] = [];
    const lenient = (handler: (request: Request) => Promise<Response>) => async (request: Request): Promise<Response> => {
      if (request.method === 'POST') {
        const body = await request.clone().json().catch(() => undefined) as Record<string, unknown> | undefined;
        if (body?.['status'] === 'lost') {
          const pet = { id: 900_000 + stored.length, ...body };
          stored.push(pet);
          return Response.json(pet, { status: 201 });
        }
      }
      const response = await handler(request);
      if (request.method !== 'GET' || new URL(request.url).pathname !== '/v1/pets' || response.status !== 200) return response;
      return withPets(response, stored);
    };
    await closingAfter(startFetchTarget(lenient), async (target) => {
      const [created] = await runConformance({ ...target, runId: 'earlier-run', only: ['create/invalid-status'] });
      assert.equal(created?.outcome, 'fail');
      const later = await runConformance({ ...target, runId: 'later', only: ['list/array-of-pets', 'list/status-filter'] });
      assert.deepEqual(later.map((result) => result.outcome), ['fail', 'fail']);
      for (const result of later) {
        assert.match(result.failure?.received ?? '', /; pet 900000 \(conformance-earlier-run-invalid-status\) was created by an earlier run of the kit \(run earlier-run\), probably left by its create\/invalid-status check, whose invalid body this server wrongly accepted and stored$/);
      }
    });
  });

  test('runConformance() names an invalid pet of an earlier run whose check it cannot tell, and counts the others', async () => {
    const leftovers = [{ id: 7, name: 'conformance-old-fill-3', categoryId: 'x' }, { id: 8, name: 'conformance-old-invalid-category-id', categoryId: 'one' }];
    const results = await closingAfter(startFetchTarget((handler) => async (request) => {
      const response = await handler(request);
      return request.method === 'GET' && response.status === 200 && new URL(request.url).pathname === '/v1/pets' ? withPets(response, leftovers) : response;
    }), (target) => runConformance({ ...target, only: ['list/array-of-pets'] }));
    assert.match(results[0]?.failure?.received ?? '', /; pet 7 \(conformance-old-fill-3\) was created by an earlier run of the kit, not this one; and 1 more such pet\(s\)$/);
  });

  test('runConformance() does not blame an earlier run for invalid pets the kit did not name', async () => {
    const results = await closingAfter(startFetchTarget((handler) => async (request) => {
      const response = await handler(request);
      if (request.method !== 'GET' || response.status !== 200 || !new URL(request.url).pathname.endsWith('/pets')) return response;
      return withPets(response, [{ id: 1, name: 'Rex', categoryId: 'one' }]);
    }), (target) => runConformance({ ...target, only: ['list/array-of-pets'] }));
    assert.equal(results[0]?.outcome, 'fail');
    assert.ok(!/earlier run/.test(results[0]?.detail ?? ''), results[0]?.detail);
  });
});
