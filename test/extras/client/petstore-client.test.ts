import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { PetstoreClient } from '../../../extras/client/index.js';
import type { DeprecationNotice, FetchFunction } from '../../../extras/client/index.js';
import { createPetstore } from '../../../lib/index.js';
import type { NewPet, PetstoreApi } from '../../../lib/index.js';
import { API_KEY, startTestServer } from '../../support/standalone-http.js';
import type { TestServer } from '../../support/standalone-http.js';
import { untyped } from '../../support/untyped.js';
import { failure } from '../../support/assertions.js';
import { clientFailure } from '../../support/client-assertions.js';

/** A fetch that answers every request with this status, headers and body, without a server. */
function fakeFetch(status: number, body: string, headers: Record<string, string> = {}): FetchFunction {
  return async () => new Response(status === 204 ? null : body, { status, headers });
}

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('PetstoreClient', () => {
  let server: TestServer;
  let notices: DeprecationNotice[];
  let requests: string[];
  let client: PetstoreClient;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  function connect(): PetstoreClient {
    notices = [];
    requests = [];
    return new PetstoreClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      fetch: (url, init) => {
        requests.push(`${init.method} ${url}`);
        return fetch(url, init);
      },
      onDeprecation: (notice) => notices.push(notice),
    });
  }

  test('PetstoreClient answers the three operations with the same results as the in-process store', async () => {
    client = connect();
    const local = createPetstore();
    const inputs: NewPet[] = [{ name: 'Rex', categoryId: 1, status: 'available' }, { name: 'Tom', categoryId: 2 }, { name: 'Kit', categoryId: -0, status: 'sold' }];
    for (const store of [local, client] satisfies PetstoreApi[]) {
      const results: unknown[] = [];
      for (const input of inputs) results.push(await store.createPet(input));
      results.push(await store.listPets(), await store.listPets({ status: 'sold' }), await store.listPets({ limit: 1, after: 1 }), await store.listPets({ limit: 0 }));
      results.push(await store.getPet(2));
      assert.deepEqual(results, [
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 2 },
        { id: 3, name: 'Kit', categoryId: 0, status: 'sold' },
        [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }, { id: 2, name: 'Tom', categoryId: 2 }, { id: 3, name: 'Kit', categoryId: 0, status: 'sold' }],
        [{ id: 3, name: 'Kit', categoryId: 0, status: 'sold' }],
        [{ id: 2, name: 'Tom', categoryId: 2 }],
        [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
        { id: 2, name: 'Tom', categoryId: 2 },
      ]);
      assert.ok(Object.isFrozen(results[0]));
    }
  });

  test('PetstoreClient throws the server\'s PetstoreError with its code, message, status and details', async () => {
    client = connect();
    const local = createPetstore();
    for (const input of [{}, { name: '', categoryId: 1.5, id: 3 }, null, 'Rex']) {
      const remote = await failure(() => client.createPet(untyped(input)));
      const expected = await failure(() => local.createPet(untyped(input)));
      assert.deepEqual(remote.toJSON(), expected.toJSON());
      assert.equal(remote.status, 400);
      assert.ok((remote.details ?? []).length > 0);
    }
    const missing = await failure(() => client.getPet(999));
    assert.deepEqual(missing.toJSON(), { code: 'not_found', message: 'Pet 999 was not found', status: 404 });
    assert.match(missing.stack ?? '', /\n\s+at /, 'a client error keeps the frames that show which call failed');
    for (const id of [0, -1, 2 ** 60, 1e21]) assert.equal((await failure(() => client.getPet(id))).code, 'not_found', String(id));
    for (const id of [1.5, Number.NaN]) assert.equal((await failure(() => client.getPet(id))).code, 'invalid_parameter', String(id));
    for (const query of [{ limit: 1.5 }, { after: 2 ** 60 }]) assert.equal((await failure(() => client.listPets(query))).code, 'invalid_parameter');
    const unauthorized = await failure(() => new PetstoreClient({ baseUrl: server.url, apiKey: 'wrong' }).listPets());
    assert.deepEqual([unauthorized.code, unauthorized.status], ['unauthorized', 401]);
  });

  test('PetstoreClient puts the X-Request-Id of a failed request\'s answer on its PetstoreError, to find it in the server\'s log', async () => {
    const lines: string[] = [];
    const logged = await startTestServer({ accessLog: (line) => void lines.push(line) });
    try {
      const missing = await clientFailure(() => new PetstoreClient({ baseUrl: logged.url, apiKey: API_KEY }).getPet(999));
      assert.match(missing.requestId ?? '', /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/);
      await logged.close();
      assert.deepEqual(lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId), [missing.requestId]);
    } finally {
      await logged.close();
    }
    const odd = await clientFailure(() => new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: fakeFetch(502, '<html>', { 'x-request-id': 'proxy-7' }), retry: false }).listPets());
    assert.deepEqual([odd.code, odd.requestId], ['unavailable', 'proxy-7']);
    const bare = await clientFailure(() => new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: fakeFetch(404, '{"code":"not_found","message":"no","status":404}') }).getPet(1));
    assert.deepEqual([bare.code, bare.requestId], ['not_found', undefined]);
    assert.equal(JSON.stringify(bare).includes('requestId'), false, 'never part of the Error body');
  });

  test('PetstoreClient.createPet with the caller\'s key answers the stored pet again, and the server\'s 422 when the key comes with another pet', async () => {
    client = connect();
    const pet = await client.createPet({ name: 'Keyed', categoryId: 1 }, { idempotencyKey: 'order-1042' });
    assert.deepEqual(await client.createPet({ categoryId: 1, name: 'Keyed' }, { idempotencyKey: 'order-1042' }), pet);
    const reused = await clientFailure(() => client.createPet({ name: 'Other', categoryId: 1 }, { idempotencyKey: 'order-1042' }));
    assert.deepEqual([reused.code, reused.status, reused.attempts], ['idempotency_key_reused', 422, 1]);
    assert.equal(requests.length, 3, 'a 422 is not retried');
    const all = await client.listPets({ limit: 100 });
    assert.deepEqual(all.filter((listed) => listed.name === 'Keyed'), [pet]);
    const [first, second] = [await client.createPet({ name: 'Twin', categoryId: 1 }), await client.createPet({ name: 'Twin', categoryId: 1 })];
    assert.notEqual(first.id, second.id, 'each call has a key of its own');
  });

  test('PetstoreClient.createPet whose answer is lost on the way back gets the pet the server stored, not a second one', async () => {
    const lossy = await startTestServer();
    try {
      let sent = 0;
      client = new PetstoreClient({
        baseUrl: lossy.url,
        apiKey: API_KEY,
        fetch: async (url, init) => {
          const response = await fetch(url, init);
          sent++;
          // The first two answers reach the server's store but never the caller.
          if (sent <= 2) throw new TypeError('other side closed');
          return response;
        },
        retry: { sleep: async () => undefined },
      });
      const pet = await client.createPet({ name: 'Once', categoryId: 1 });
      assert.equal(sent, 3);
      assert.deepEqual(await lossy.store.listPets(), [pet]);
    } finally {
      await lossy.close();
    }
  });

  test('PetstoreClient refuses input JSON cannot carry without sending it, as the engine would', async () => {
    client = connect();
    const cyclic: Record<string, unknown> = { name: 'Loop', categoryId: 1 };
    cyclic['self'] = cyclic;
    for (const input of [undefined, () => 1, { name: 'Big', categoryId: 1n }, cyclic]) {
      const error = await failure(() => client.createPet(untyped(input)));
      assert.equal(error.code, 'validation_failed');
    }
    assert.deepEqual(requests, []);
  });

  test('PetstoreClient.pets() follows Link: rel="next" through every page', async () => {
    const paged = await startTestServer();
    try {
      for (let index = 0; index < 25; index++) await paged.store.createPet({ name: `Pet ${index}`, categoryId: 1, status: index % 2 === 0 ? 'available' : 'sold' });
      client = new PetstoreClient({ baseUrl: new URL(`${paged.url}/`), apiKey: API_KEY, fetch: (url, init) => {
        requests.push(url);
        return fetch(url, init);
      } });
      requests = [];
      const ids: number[] = [];
      for await (const pet of client.pets({ pageSize: 10 })) ids.push(pet.id);
      assert.deepEqual(ids, Array.from({ length: 25 }, (_, index) => index + 1));
      assert.deepEqual(requests.map((url) => new URL(url).search), ['?limit=10', '?limit=10&after=10', '?limit=10&after=20']);
      const available: number[] = [];
      for await (const pet of client.pets({ status: 'available', pageSize: 5 })) available.push(pet.id);
      assert.deepEqual(available, ids.filter((id) => id % 2 === 1));
      let all = 0;
      for await (const pet of client.pets()) all += pet.id > 0 ? 1 : 0;
      assert.equal(all, 25);
    } finally {
      await paged.close();
    }
  });

  test('PetstoreClient.pets() refuses a next link to another origin or to the same page', async () => {
    for (const link of ['<http://elsewhere.example/v1/pets?after=1>; rel="next"', '<http://127.0.0.1:1/v1/pets?limit=100>; rel="next"']) {
      client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: fakeFetch(200, '[]', { link }) });
      const error = await failure(async () => {
        for await (const pet of client.pets()) assert.fail(`no pet expected, got ${pet.id}`);
      });
      assert.equal(error.code, 'unavailable');
    }
  });

  test('PetstoreClient passes the Deprecation, Sunset and Link of getPet to onDeprecation', async () => {
    client = connect();
    await client.listPets();
    await client.createPet({ name: 'Dep', categoryId: 1 });
    assert.equal(notices.length, 0);
    await failure(() => client.getPet(12345));
    const pet = await client.createPet({ name: 'Old', categoryId: 1 });
    await client.getPet(pet.id);
    assert.equal(notices.length, 2);
    const [notice] = notices;
    assert.equal(notice?.operation, 'getPet');
    assert.equal(notice?.url, `${server.url}/pets/12345`);
    assert.equal(notice?.deprecatedAt?.toISOString(), '2026-01-01T00:00:00.000Z');
    assert.equal(notice?.sunsetAt?.toISOString(), '2030-12-05T00:00:00.000Z');
    assert.equal(notice?.successor, '/v1/pets');
    assert.deepEqual(notice?.links.map((link) => link.rel), [['successor-version']]);
  });

  test('PetstoreClient reads a Deprecation without a date and a malformed Sunset as unknown dates', async () => {
    notices = [];
    client = new PetstoreClient({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: API_KEY,
      fetch: fakeFetch(200, '{"id":1,"name":"Rex","categoryId":1}', { deprecation: 'true', sunset: 'someday' }),
      onDeprecation: (notice) => notices.push(notice),
    });
    await client.getPet(1);
    assert.deepEqual(notices.map((notice) => [notice.deprecatedAt, notice.sunsetAt, notice.successor]), [[undefined, undefined, undefined]]);
  });

  test('PetstoreClient without onDeprecation emits one DeprecationWarning per operation', async () => {
    const warnings: Error[] = [];
    const listener = (warning: Error): void => void warnings.push(warning);
    process.on('warning', listener);
    try {
      client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY });
      const pet = await client.createPet({ name: 'Warn', categoryId: 1 });
      await client.getPet(pet.id);
      await client.getPet(pet.id);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(warnings.length, 1);
      assert.equal(warnings[0]?.name, 'DeprecationWarning');
      assert.match(warnings[0]?.message ?? '', /getPet is deprecated; it will be removed on 2030-12-05; use \/v1\/pets instead/);
    } finally {
      process.off('warning', listener);
    }
  });

  test('PetstoreClient turns an answer that is not the interface\'s into an unavailable PetstoreError', async () => {
    const cases: [FetchFunction, RegExp][] = [
      [fakeFetch(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' }), /HTTP 502, not an Error body \(Content-Type "text\/html"\)/],
      [fakeFetch(404, '{"code":"no_such_code","message":"x","status":404}'), /HTTP 404, not an Error body/],
      [fakeFetch(400, '{"code":"not_found","message":"x","status":404}'), /HTTP 400, not an Error body/],
      [fakeFetch(400, '{"code":"validation_failed","message":"x","status":400,"details":[1]}'), /not an Error body/],
      [fakeFetch(200, '{"id":"1","name":"Rex","categoryId":1}'), /HTTP 200, not a Pet/],
      [fakeFetch(200, '{"id":1,"name":"Rex","categoryId":1,"status":"lost"}'), /HTTP 200, not a Pet/],
      [fakeFetch(204, ''), /HTTP 204, not an Error body/],
      [fakeFetch(302, '', { location: 'https://elsewhere.example/' }), /HTTP 302/],
    ];
    for (const [fetchFunction, message] of cases) {
      client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: fetchFunction, retry: false });
      const error = await failure(() => client.getPet(1));
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, message);
    }
    client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: fakeFetch(200, '[{"id":1}]') });
    assert.match((await failure(() => client.listPets())).message, /not a Pet array/);
    client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: fakeFetch(200, '{}') });
    assert.match((await failure(() => client.listPets())).message, /not a Pet array/);
    assert.match((await failure(() => client.createPet({ name: 'Rex', categoryId: 1 }))).message, /HTTP 200, not an Error body/);
  });

  test('PetstoreClient reports a server it cannot reach as unavailable, with the cause', async () => {
    client = new PetstoreClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, apiKey: API_KEY, retry: false });
    const error = await failure(() => client.listPets());
    assert.equal(error.code, 'unavailable');
    assert.match(error.message, /^Cannot reach the Petstore at http:\/\/127\.0\.0\.1:\d+\/v1\/pets: .+ \(1 attempt in \d+\.\d s; retries are off\)$/);
    assert.ok(error.cause instanceof Error);
    client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: () => Promise.reject('plain rejection'), retry: false });
    assert.match((await failure(() => client.getPet(1))).message, /plain rejection \(1 attempt/);
  });

  test('PetstoreClient refuses a base URL or API key it cannot use', () => {
    for (const baseUrl of ['not a url', 'ftp://example.com/v1', 'http://example.com/v1?x=1', 'http://example.com/v1#top']) {
      assert.throws(() => new PetstoreClient({ baseUrl, apiKey: API_KEY }), TypeError, baseUrl);
    }
    for (const apiKey of ['', 'two words', 'tab\there']) {
      assert.throws(() => new PetstoreClient({ baseUrl: 'http://example.com/v1', apiKey }), TypeError, apiKey);
    }
  });
});
