import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PetstoreClient, RETRY_DEFAULTS } from '../../../extras/client/index.js';
import type { FetchFunction, FetchInit, PetstoreClientOptions, RetryOptions } from '../../../extras/client/index.js';
import { createPetstore, MAX_IDEMPOTENCY_KEY_LENGTH } from '../../../lib/index.js';
import { Random } from '../../robustness/prng.js';
import { failure } from '../../support/assertions.js';
import { clientFailure } from '../../support/client-assertions.js';

const BASE_URL = 'http://127.0.0.1:1/v1';
const API_KEY = 'retry-key-0123456789';
const PET = { id: 7, name: 'Rex', categoryId: 1 };
const NEW_PET = { name: 'Rex', categoryId: 1 };
/** A quoted version 4 UUID, as a Structured Field String. */
const FRESH_KEY = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;
/** The fake clock's start: a whole second, so HTTP-dates (whole seconds) fall where a test puts them. */
const EPOCH = Date.UTC(2026, 0, 1);

/** One scripted step of a fake server: an answer, a rejected fetch, or an answer whose body breaks off. */
type Step = { status: number; body?: string; headers?: Record<string, string> } | 'network' | 'cut body';

/** A request the fake fetch was given, at the fake clock's time. */
interface Sent {
  url: string;
  init: FetchInit;
  at: number;
}

/** A client on a fake fetch and a fake clock: it answers from `steps` (the last one repeats), and waits only on the clock. */
function scripted(steps: readonly Step[], options: Partial<PetstoreClientOptions> = {}, retry: RetryOptions = {}): {
  client: PetstoreClient;
  sent: Sent[];
  waits: number[];
  clock: { now: number };
} {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const clock = { now: EPOCH };
  const fetch: FetchFunction = async (url, init) => {
    const step = steps[Math.min(sent.length, steps.length - 1)] ?? 'network';
    sent.push({ url, init, at: clock.now });
    if (step === 'network') throw new TypeError('fetch failed');
    if (step === 'cut body') return { status: 200, headers: new Headers(), text: () => Promise.reject(new TypeError('terminated')) };
    return new Response(step.body ?? JSON.stringify(PET), { status: step.status, headers: step.headers ?? {} });
  };
  const client = new PetstoreClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    fetch,
    onDeprecation: () => undefined,
    retry: {
      sleep: async (milliseconds) => {
        waits.push(milliseconds);
        clock.now += milliseconds;
      },
      random: () => 0.5,
      now: () => clock.now,
      ...retry,
    },
    ...options,
  });
  return { client, sent, waits, clock };
}

function keysSent(sent: readonly Sent[]): (string | undefined)[] {
  return sent.map((request) => request.init.headers['idempotency-key']);
}

function errorBody(code: string, status: number, message = 'Try again'): string {
  return JSON.stringify({ code, message, status });
}

describe('PetstoreClient retries', () => {
  test('PetstoreClient.createPet retries every retryable status with the same key and answers the pet', async () => {
    for (const status of [408, 409, 429, 502, 503, 504]) {
      const { client, sent, waits } = scripted([{ status, body: '<html>busy</html>' }, { status, body: '' }, { status: 201 }]);
      assert.deepEqual(await client.createPet(NEW_PET), PET, String(status));
      assert.equal(sent.length, 3, String(status));
      const [key] = keysSent(sent);
      assert.match(key ?? '', FRESH_KEY);
      assert.deepEqual(keysSent(sent), [key, key, key], `${status}: the same key on every attempt`);
      assert.deepEqual(sent.map((request) => request.init.body), Array(3).fill(JSON.stringify(NEW_PET)));
      assert.deepEqual(waits, [50, 100], `${status}: full jitter below 100, then 200 ms`);
    }
  });

  test('PetstoreClient.createPet retries a fetch that rejects and an answer whose body breaks off', async () => {
    const { client, sent } = scripted(['network', 'cut body', 'network', { status: 201 }]);
    assert.deepEqual(await client.createPet(NEW_PET), PET);
    assert.equal(sent.length, 4);
    assert.equal(new Set(keysSent(sent)).size, 1);
  });

  test('PetstoreClient.listPets, pets() and getPet retry as createPet does, without a key', async () => {
    const list = scripted(['network', { status: 503, body: errorBody('unavailable', 503) }, { status: 200, body: JSON.stringify([PET]) }]);
    assert.deepEqual(await list.client.listPets({ limit: 1 }), [PET]);
    assert.deepEqual(list.sent.map((request) => request.url), Array(3).fill(`${BASE_URL}/pets?limit=1`));
    assert.deepEqual(keysSent(list.sent), [undefined, undefined, undefined]);
    const pages = scripted([{ status: 502 }, { status: 200, body: JSON.stringify([PET]) }]);
    const pets: unknown[] = [];
    for await (const pet of pages.client.pets()) pets.push(pet);
    assert.deepEqual([pets, pages.sent.length], [[PET], 2]);
    const get = scripted([{ status: 504 }, { status: 429 }, { status: 200 }]);
    assert.deepEqual(await get.client.getPet(7), PET);
    assert.deepEqual(get.sent.map((request) => `${request.init.method} ${request.url}`), Array(3).fill(`GET ${BASE_URL}/pets/7`));
  });

  test('PetstoreClient does not retry a 400, 401, 404, 422 or 500 and keeps the server\'s message', async () => {
    const cases: [number, string][] = [
      [400, errorBody('validation_failed', 400, 'Cannot create pet: `name` is required')],
      [401, errorBody('unauthorized', 401, 'Missing or invalid API key')],
      [404, errorBody('not_found', 404, 'Not found')],
      [422, errorBody('idempotency_key_reused', 422, 'Cannot create pet: the key was used with another pet')],
      [500, errorBody('internal_error', 500, 'The server failed')],
    ];
    for (const [status, body] of cases) {
      const { client, sent, waits } = scripted([{ status, body }, { status: 201 }]);
      const error = await clientFailure(() => client.createPet(NEW_PET));
      assert.deepEqual([sent.length, waits, error.attempts], [1, [], 1], String(status));
      assert.deepEqual(error.toJSON(), JSON.parse(body));
      assert.doesNotMatch(error.message, /attempt/);
    }
  });

  test('PetstoreClient says how many attempts a call made when its answer came after retries', async () => {
    const { client } = scripted([{ status: 503 }, 'network', { status: 404, body: errorBody('not_found', 404, 'Pet 7 was not found') }]);
    const error = await clientFailure(() => client.getPet(7));
    assert.deepEqual([error.code, error.message, error.attempts], ['not_found', 'Pet 7 was not found (3 attempts)', 3]);
    const odd = scripted([{ status: 503 }, { status: 200, body: '{}' }]);
    const unexpected = await clientFailure(() => odd.client.getPet(7));
    assert.match(unexpected.message, /HTTP 200, not a Pet: "\{\}" \(2 attempts\)$/);
    assert.equal(unexpected.attempts, 2);
  });

  test('PetstoreClient sends a fresh Idempotency-Key per createPet call, as a quoted UUID', async () => {
    const { client, sent } = scripted([{ status: 201 }]);
    for (let call = 0; call < 5; call++) await client.createPet(NEW_PET);
    const keys = keysSent(sent);
    for (const key of keys) assert.match(key ?? '', FRESH_KEY);
    assert.equal(new Set(keys).size, 5);
  });

  test('PetstoreClient makes a version 4 UUID itself where crypto.randomUUID is missing, as in a browser page over plain HTTP', async () => {
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const { client, sent } = scripted([{ status: 201 }]);
      for (let call = 0; call < 20; call++) await client.createPet(NEW_PET);
      for (const key of keysSent(sent)) assert.match(key ?? '', FRESH_KEY);
      assert.equal(new Set(keysSent(sent)).size, 20);
    } finally {
      assert.ok(Reflect.deleteProperty(crypto, 'randomUUID'));
    }
    assert.equal(typeof crypto.randomUUID, 'function');
  });

  test('PetstoreClient sends the caller\'s own key as a Structured Field String on every attempt', async () => {
    const { client, sent } = scripted(['network', { status: 201 }]);
    await client.createPet(NEW_PET, { idempotencyKey: 'order-17 "gift" \\ card' });
    await client.createPet(NEW_PET, { idempotencyKey: 'order-17 "gift" \\ card' });
    assert.deepEqual(keysSent(sent), Array(3).fill('"order-17 \\"gift\\" \\\\ card"'));
  });

  test('PetstoreClient refuses a key the engine refuses, with the engine\'s error and without sending anything', async () => {
    const { client, sent } = scripted([{ status: 201 }]);
    const engine = createPetstore();
    for (const idempotencyKey of ['', 'naïve', 'line\nbreak', 'tab\there', '\u007f', 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1)]) {
      const error = await failure(() => client.createPet(NEW_PET, { idempotencyKey }));
      const expected = await failure(() => engine.createPet(NEW_PET, { idempotencyKey }));
      assert.deepEqual(error.toJSON(), expected.toJSON(), JSON.stringify(idempotencyKey));
      assert.equal(error.code, 'invalid_idempotency_key');
    }
    assert.equal(sent.length, 0);
    await client.createPet(NEW_PET, { idempotencyKey: 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH) });
    assert.equal(sent[0]?.init.headers['idempotency-key'], `"${'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH)}"`);
  });

  test('PetstoreClient waits as long as a Retry-After in seconds asks, but never less than its own backoff', async () => {
    const { client, waits } = scripted([{ status: 429, headers: { 'retry-after': '3' } }, { status: 409, headers: { 'retry-after': ' 0 ' } }, { status: 201 }]);
    await client.createPet(NEW_PET);
    assert.deepEqual(waits, [3000, 100], 'Retry-After: 0 waits the drawn 100 ms (half of the 200 ms ceiling)');
  });

  test('PetstoreClient waits until the HTTP-date of a Retry-After, its own drawn wait for one past, and for one it cannot read', async () => {
    // RFC 9110 §5.6.7: the IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must read too.
    const dates: [string, number][] = [
      [new Date(EPOCH + 5000).toUTCString(), 5000],
      ['Thursday, 01-Jan-26 00:00:02 GMT', 2000],
      ['Thu Jan  1 00:00:04 2026', 4000],
      [new Date(EPOCH - 60_000).toUTCString(), 50],
    ];
    for (const [date, wait] of dates) {
      const { client, waits } = scripted([{ status: 503, headers: { 'retry-after': date } }, { status: 201 }]);
      await client.createPet(NEW_PET);
      assert.deepEqual(waits, [wait], date);
    }
    for (const unreadable of ['soon', '-1', '3.5', '+4', 'Thu, 01 Jan 2026 00:00:04 PST']) {
      const { client, waits } = scripted([{ status: 503, headers: { 'retry-after': unreadable } }, { status: 201 }]);
      await client.createPet(NEW_PET);
      assert.deepEqual(waits, [50], `${unreadable}: a drawn wait instead`);
    }
  });

  test('PetstoreClient gives up at once when a Retry-After asks for longer than the budget leaves', async () => {
    const { client, sent, waits } = scripted([{ status: 503, body: errorBody('unavailable', 503, 'Down for maintenance'), headers: { 'retry-after': '120' } }]);
    const error = await clientFailure(() => client.createPet(NEW_PET));
    assert.deepEqual([sent.length, waits, error.code, error.attempts], [1, [], 'unavailable', 1]);
    assert.equal(error.message, 'Down for maintenance (1 attempt in 0.0 s; Retry-After asks for 120.0 s, past the 10.0 s budget)');
  });

  test('PetstoreClient with retries off sends one request, for the client or for one call', async () => {
    const off = scripted(['network', { status: 201 }], { retry: false });
    const error = await clientFailure(() => off.client.createPet(NEW_PET));
    assert.match(error.message, /^Cannot reach the Petstore at http:\/\/127\.0\.0\.1:1\/v1\/pets: fetch failed \(1 attempt in 0\.0 s; retries are off\)$/);
    assert.deepEqual([off.sent.length, error.attempts, error.code], [1, 1, 'unavailable']);
    assert.ok(error.cause instanceof TypeError);
    assert.match(off.sent[0]?.init.headers['idempotency-key'] ?? '', FRESH_KEY, 'a key even without retries');
    const perCall = scripted([{ status: 503, body: errorBody('unavailable', 503, 'Busy') }, { status: 201 }]);
    const once = await failure(() => perCall.client.createPet(NEW_PET, { retry: false }));
    assert.deepEqual([once.message, perCall.sent.length], ['Busy (1 attempt in 0.0 s; retries are off)', 1]);
    assert.deepEqual(await perCall.client.createPet(NEW_PET), PET, 'the next call retries again');
    const getOnce = scripted(['network', { status: 200 }]);
    await failure(() => getOnce.client.getPet(7, { retry: { attempts: 1 } }));
    await failure(() => getOnce.client.listPets({}, { retry: false }));
    assert.equal(getOnce.sent.length, 2);
  });

  test('PetstoreClient stops when the attempts are spent and says so, with the last failure\'s code and request id', async () => {
    const { client, sent, waits } = scripted([{ status: 502, body: '<html>Bad gateway</html>', headers: { 'x-request-id': 'edge-1' } }], {}, { attempts: 4 });
    const error = await clientFailure(() => client.listPets());
    assert.equal(sent.length, 4);
    assert.deepEqual(waits, [50, 100, 200]);
    assert.deepEqual([error.code, error.attempts, error.requestId], ['unavailable', 4, 'edge-1']);
    assert.match(error.message, /^Unexpected answer to GET http:\/\/127\.0\.0\.1:1\/v1\/pets: HTTP 502, not an Error body .* \(4 attempts in 0\.3 s; the retry budget of 4 attempts is spent\)$/);
  });

  test('PetstoreClient by default keeps trying an unreachable server while a wait fits in 10 s, then says how many attempts it made', async () => {
    const { client, sent, clock } = scripted(['network'], {}, { random: () => 0.999 });
    const error = await clientFailure(() => client.createPet(NEW_PET));
    // Waits of 99, 199, 399, 799, 1,598, then 1,998 ms: the ninth attempt at 9,088 ms, and the next wait would end past 10 s.
    assert.equal(clock.now - EPOCH, 9088, 'no wait is taken that would end past the budget');
    assert.ok(clock.now - EPOCH < RETRY_DEFAULTS.totalTime);
    assert.equal(sent.length, 9);
    assert.equal(error.attempts, 9);
    assert.match(error.message, /: fetch failed \(9 attempts in 9\.1 s; the 10\.0 s budget leaves no time for another attempt\)$/);
    assert.equal(new Set(keysSent(sent)).size, 1);
  });

  test('PetstoreClient with its default budget rides out 5 s of an unreachable server, with the longest waits and with 20 seeded draws', async () => {
    const draws: [string, () => number][] = [['longest waits', () => 0.999999], ...Array.from({ length: 20 }, (_, seed): [string, () => number] => {
      const random = new Random(seed, 7);
      return [`seed ${seed}`, () => random.next() / 0x1_0000_0000];
    })];
    for (const [label, random] of draws) {
      const sent: Sent[] = [];
      const clock = { now: EPOCH };
      // Down until 5 s after the first request; every attempt takes 1 ms, as a refused connection does.
      const fetchDown: FetchFunction = async (url, init) => {
        sent.push({ url, init, at: clock.now });
        clock.now += 1;
        if (clock.now - EPOCH <= 5000) throw new TypeError('connect ECONNREFUSED');
        return new Response(JSON.stringify(PET), { status: 201 });
      };
      const client = new PetstoreClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: fetchDown, retry: { sleep: async (milliseconds) => void (clock.now += milliseconds), random, now: () => clock.now } });
      assert.deepEqual(await client.createPet(NEW_PET), PET, label);
      assert.ok(sent.length > 1, label);
      assert.equal(new Set(keysSent(sent)).size, 1, label);
    }
  });

  test('PetstoreClient refuses a retry budget no call could keep', () => {
    const cases: RetryOptions[] = [
      { attempts: 0 }, { attempts: 1.5 }, { attempts: Number.NaN }, { totalTime: -1 }, { totalTime: 0 }, { attemptTimeout: 0 }, { attemptTimeout: Number.POSITIVE_INFINITY },
      { baseDelay: Number.POSITIVE_INFINITY }, { maxDelay: Number.NaN },
    ];
    for (const retry of cases) {
      assert.throws(() => new PetstoreClient({ baseUrl: BASE_URL, apiKey: API_KEY, retry }), /`retry\.\w+` must be/, JSON.stringify(retry));
    }
    const { client } = scripted([{ status: 201 }]);
    return assert.rejects(client.createPet(NEW_PET, { retry: { attempts: -1 } }), TypeError);
  });

  test('PetstoreClient with a zero base delay retries at once, without a NaN wait however many attempts it makes', async () => {
    const { client, waits } = scripted(['network'], {}, { baseDelay: 0, attempts: 80 });
    const error = await clientFailure(() => client.listPets());
    assert.equal(error.attempts, 80);
    assert.deepEqual(new Set(waits), new Set([0]));
  });
});
