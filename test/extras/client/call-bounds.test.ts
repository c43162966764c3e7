import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { largestValidAnswerBytes, MAX_ANSWER_BYTES, MAX_EMPTY_PAGES, PetstoreClient, PetstoreClientError } from '../../../extras/client/index.js';
import type { Pet } from '../../../lib/index.js';
import { MAX_LIMIT, MAX_NAME_LENGTH } from '../../../lib/index.js';
import { MAX_SAFE_ID } from '../../../lib/limits.js';
import { failure } from '../../support/assertions.js';
import { clientFailure } from '../../support/client-assertions.js';

const API_KEY = 'bounds-key-0123456789';
/** Generous: the old client took 300 s on a server that never answers; these tests end in about a second. */
const TEST_TIMEOUT = 30_000;
/** What a server that sends forever sends at most, so the loop ends even when nobody stops reading. */
const ENDLESS_CAP = 64 * 1024 * 1024;

/** A node:http server on 127.0.0.1, port 0, answering with `handler`; `close` ends every connection. */
async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void>; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `chunk` until the client goes away or ENDLESS_CAP is reached, waiting for drain; resolves with the bytes written. */
function sendForever(response: ServerResponse, chunk: Buffer): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    let isClosed = false;
    response.on('close', () => {
      isClosed = true;
      resolve(written);
    });
    const pump = (): void => {
      while (!isClosed && written < ENDLESS_CAP) {
        written += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
      if (!isClosed) {
        response.end();
        resolve(written);
      }
    };
    pump();
  });
}

describe('PetstoreClient bounds', () => {
  test('PetstoreClient gives up on a server that accepts and never answers after the attempt timeout, saying so', { timeout: TEST_TIMEOUT }, async () => {
    let requests = 0;
    const silent = await serve(() => void requests++);
    try {
      const client = new PetstoreClient({ baseUrl: silent.url, apiKey: API_KEY, retry: { attempts: 1, attemptTimeout: 200 } });
      const error = await failure(() => client.listPets());
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, /^No answer from the Petstore at http:\/\/127\.0\.0\.1:\d+\/v1\/pets within the 0\.2 s attempt timeout \(1 attempt in \d+\.\d s; retries are off\)$/);
      assert.equal(error.cause instanceof Error && error.cause.name, 'TimeoutError');
      // On a busy machine the request may be cut off before the server's handler sees it.
      assert.ok(requests <= 1, `${requests} requests`);
    } finally {
      await silent.close();
    }
  });

  test('PetstoreClient ends a call to a server that never answers within its budget, each attempt cut by the time left, and says the budget is spent', { timeout: TEST_TIMEOUT }, async () => {
    let requests = 0;
    const silent = await serve(() => void requests++);
    try {
      // The attempt timeout is longer than the budget: the budget ends the first request.
      const client = new PetstoreClient({ baseUrl: silent.url, apiKey: API_KEY, retry: { totalTime: 300, attemptTimeout: 60_000 } });
      const error = await clientFailure(() => client.createPet({ name: 'Rex', categoryId: 1 }));
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, /^No answer from the Petstore at http:\/\/127\.0\.0\.1:\d+\/v1\/pets before the call's budget ran out \(\d+ ms of it were left for this attempt\) \(1 attempt in \d+\.\d s; the 0\.3 s budget is spent\)$/);
      assert.equal(error.attempts, 1);
      // Several attempts, each cut by the attempt timeout, then one by what the budget leaves.
      const retried = new PetstoreClient({ baseUrl: silent.url, apiKey: API_KEY, retry: { totalTime: 700, attemptTimeout: 150, baseDelay: 1, maxDelay: 1 } });
      const spent = await clientFailure(() => retried.listPets());
      assert.match(spent.message, /^No answer from the Petstore at .+ \(\d+ attempts in \d+\.\d s; the 0\.7 s (budget is spent|budget leaves no time for another attempt)\)$/);
      assert.ok((spent.attempts ?? 0) >= 2, `${spent.attempts} attempts`);
    } finally {
      await silent.close();
    }
  });

  test('PetstoreClient ends an attempt whose fetch ignores the abort signal', { timeout: TEST_TIMEOUT }, async () => {
    const client = new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, fetch: () => new Promise(() => undefined), retry: { attempts: 1, attemptTimeout: 50 } });
    const error = await failure(() => client.getPet(1));
    assert.match(error.message, /within the 0\.1 s attempt timeout \(1 attempt/);
  });

  test('PetstoreClient stops reading an endless answer at maxAnswerBytes and refuses it as too large, without retrying', { timeout: TEST_TIMEOUT }, async () => {
    let requests = 0;
    let sent: Promise<number> = Promise.resolve(0);
    const endless = await serve((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      sent = sendForever(response, Buffer.from(`${JSON.stringify({ id: 1, name: 'x'.repeat(200), categoryId: 1 })},`.repeat(200)));
    });
    try {
      const client = new PetstoreClient({ baseUrl: endless.url, apiKey: API_KEY });
      const error = await failure(() => client.listPets({ limit: 100 }));
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, /^Unexpected answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=100: HTTP 200, larger than 1048576 bytes, the client's `maxAnswerBytes`; not read further$/);
      assert.equal(requests, 1, 'a body too large is not asked for again');
      const written = await sent;
      assert.ok(written < ENDLESS_CAP, `the client closed the connection after ${written} bytes, before the server's cap`);
    } finally {
      await endless.close();
    }
  });

  test('PetstoreClient refuses an answer whose Content-Length is past maxAnswerBytes before reading it, and not as an unreachable server', { timeout: TEST_TIMEOUT }, async () => {
    const huge = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 30) });
      response.write('[');
    });
    try {
      const client = new PetstoreClient({ baseUrl: huge.url, apiKey: API_KEY, retry: { attemptTimeout: 5_000 } });
      const error = await failure(() => client.getPet(1));
      assert.match(error.message, /HTTP 200, larger than 1048576 bytes, the client's `maxAnswerBytes`; not read further$/);
      assert.doesNotMatch(error.message, /Cannot reach/);
      const small = new PetstoreClient({ baseUrl: huge.url, apiKey: API_KEY, maxAnswerBytes: 10 });
      assert.match((await failure(() => small.getPet(1))).message, /larger than 10 bytes/);
    } finally {
      await huge.close();
    }
  });

  test('PetstoreClient reads the largest valid answer, a page of 100 pets with names of 256 code points each escaped at worst, and the default bound is above it', { timeout: TEST_TIMEOUT }, async () => {
    // U+1F600 escaped as a surrogate pair: 12 bytes for one code point.
    const name = '\\ud83d\\ude00'.repeat(MAX_NAME_LENGTH);
    const pets = Array.from({ length: MAX_LIMIT }, (_, index) => `{"id":${MAX_SAFE_ID - MAX_LIMIT + index + 1},"name":"${name}","categoryId":${-MAX_SAFE_ID},"status":"available"}`);
    const body = `[${pets.join(',')}]`;
    assert.ok(Buffer.byteLength(body) <= largestValidAnswerBytes(), `${Buffer.byteLength(body)} bytes`);
    assert.equal(largestValidAnswerBytes(), 315_801);
    assert.ok(MAX_ANSWER_BYTES >= 3 * largestValidAnswerBytes());
    const widest = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    try {
      const client = new PetstoreClient({ baseUrl: widest.url, apiKey: API_KEY });
      const page: Pet[] = await client.listPets({ limit: 100 });
      assert.equal(page.length, MAX_LIMIT);
      assert.equal([...(page[0]?.name ?? '')].length, MAX_NAME_LENGTH);
      const tight = new PetstoreClient({ baseUrl: widest.url, apiKey: API_KEY, maxAnswerBytes: Buffer.byteLength(body) - 1 });
      assert.match((await failure(() => tight.listPets({ limit: 100 }))).message, /larger than \d+ bytes/);
      assert.equal((await new PetstoreClient({ baseUrl: widest.url, apiKey: API_KEY, maxAnswerBytes: Buffer.byteLength(body) }).listPets({ limit: 100 })).length, MAX_LIMIT);
    } finally {
      await widest.close();
    }
  });

  test('PetstoreClient refuses a maxAnswerBytes that is not a whole number of bytes', () => {
    for (const maxAnswerBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => new PetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, maxAnswerBytes }), /`maxAnswerBytes` must be a whole number of bytes/, String(maxAnswerBytes));
    }
  });

  test('PetstoreClient against a server that always answers 503 with Retry-After: 0 waits its own backoff, so the attempts stay within what the backoff allows in the budget', { timeout: TEST_TIMEOUT }, async () => {
    let requests = 0;
    const eager = await serve((_request, response) => {
      requests++;
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(JSON.stringify({ code: 'unavailable', message: 'Busy', status: 503 }));
    });
    try {
      const budget = 2_000;
      const retry = { totalTime: budget, baseDelay: 100, maxDelay: 2_000, attempts: 30, random: () => 0.5 };
      // The fake clock moves only by the client's waits: no wall time is spent waiting.
      let now = 0;
      const client = new PetstoreClient({ baseUrl: eager.url, apiKey: API_KEY, retry: { ...retry, now: () => now, sleep: async (milliseconds) => void (now += milliseconds) } });
      const error = await clientFailure(() => client.listPets());
      // The most attempts the drawn waits (half of 100, 200, 400, … ms) leave room for within the budget.
      let bound = 1;
      for (let elapsed = 0; ; bound++) {
        const wait = Math.floor(retry.random() * Math.min(retry.maxDelay, retry.baseDelay * 2 ** (bound - 1)));
        if (elapsed + wait >= budget) break;
        elapsed += wait;
      }
      assert.equal(bound, 6);
      assert.ok(requests <= bound, `${requests} requests, at most ${bound} expected`);
      assert.equal(error.attempts, requests);
      assert.match(error.message, /^Busy \(\d+ attempts in \d+\.\d s; the 2\.0 s budget leaves no time for another attempt\)$/);
    } finally {
      await eager.close();
    }
  });

  test('PetstoreClient.pets() ends with an error when the next link does not move past the last id seen, instead of looping', { timeout: TEST_TIMEOUT }, async () => {
    const pet = (id: number): string => JSON.stringify({ id, name: `Pet ${id}`, categoryId: 1 });
    // Each server answers by the `after` it is asked for.
    const servers: [string, (after: string | null) => { body: string; next?: string }, number[]][] = [
      ['two next links in turn', (after) => (after === '1' ? { body: `[${pet(2)}]`, next: 'after=0' } : { body: `[${pet(1)}]`, next: 'after=1' }), [1, 2]],
      ['a next link without a cursor', (after) => (after === '1' ? { body: `[${pet(2)}]`, next: 'limit=100' } : { body: `[${pet(1)}]`, next: 'after=1' }), [1, 2]],
      ['a cursor ignored', () => ({ body: `[${pet(1)},${pet(2)}]`, next: 'after=2' }), [1, 2]],
      ['empty pages on one cursor', (after) => (after === null ? { body: `[${pet(1)}]`, next: 'after=1' } : { body: '[]', next: 'after=1' }), [1]],
    ];
    for (const [label, page, expected] of servers) {
      const circling = await serve((request, response) => {
        const answer = page(new URL(request.url ?? '/', 'http://x').searchParams.get('after'));
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (answer.next !== undefined) headers['link'] = `</v1/pets?${answer.next}>; rel="next"`;
        response.writeHead(200, headers);
        response.end(answer.body);
      });
      try {
        const client = new PetstoreClient({ baseUrl: circling.url, apiKey: API_KEY });
        const ids: number[] = [];
        const error = await failure(async () => {
          for await (const listed of client.pets()) {
            ids.push(listed.id);
            // Bounded, for the code before the fix, which never ended.
            if (ids.length >= 1_000) break;
          }
        });
        assert.equal(error.code, 'unavailable', label);
        assert.match(error.message, /does not move forward|goes back/, label);
        assert.deepEqual(ids, expected, label);
      } finally {
        await circling.close();
      }
    }
  });
  test('PetstoreClient.pets() ends with a PetstoreClientError after MAX_EMPTY_PAGES pages in a row without a pet, when each links one id further, instead of never yielding', { timeout: TEST_TIMEOUT }, async () => {
    const pet = (id: number): string => JSON.stringify({ id, name: `Pet ${id}`, categoryId: 1 });
    let requests = 0;
    // The first page has pet 1; every later one is empty and links to the next id, forever.
    const creeping = await serve((request, response) => {
      requests++;
      const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after') ?? '0');
      response.writeHead(200, { 'content-type': 'application/json', link: `</v1/pets?limit=100&after=${after + 1}>; rel="next"` });
      response.end(after === 0 ? `[${pet(1)}]` : '[]');
    });
    try {
      const client = new PetstoreClient({ baseUrl: creeping.url, apiKey: API_KEY });
      const ids: number[] = [];
      const error = await clientFailure(async () => {
        for await (const listed of client.pets()) ids.push(listed.id);
      });
      assert.ok(error instanceof PetstoreClientError);
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, /^The pages of http:\/\/127\.0\.0\.1:\d+\/v1\/pets make no progress: 11 pages in a row listed no pet, past the client's `maxEmptyPages` of 10, and the last links to http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=100&after=12; stopped after 1 pet$/);
      assert.deepEqual(ids, [1]);
      assert.equal(MAX_EMPTY_PAGES, 10);
      assert.equal(requests, 1 + MAX_EMPTY_PAGES + 1);
      requests = 0;
      const strict = await clientFailure(async () => {
        for await (const listed of client.pets({ maxEmptyPages: 2 })) ids.push(listed.id);
      });
      assert.match(strict.message, /3 pages in a row listed no pet, past the client's `maxEmptyPages` of 2/);
      assert.equal(requests, 4);
      for (const maxEmptyPages of [0, -1, 1.5, Number.NaN]) {
        await assert.rejects(async () => {
          for await (const listed of client.pets({ maxEmptyPages })) ids.push(listed.id);
        }, /`maxEmptyPages` must be a whole number of pages, at least 1/, String(maxEmptyPages));
      }
    } finally {
      await creeping.close();
    }
  });

  test('PetstoreClient.pets() follows up to MAX_EMPTY_PAGES empty pages in a row and goes on once a pet comes', { timeout: TEST_TIMEOUT }, async () => {
    const pet = (id: number): string => JSON.stringify({ id, name: `Pet ${id}`, categoryId: 1 });
    // Pets 1, 12 and 23, each followed by ten empty pages that move one id forward; the last page has no next link.
    const sparse = await serve((request, response) => {
      const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after') ?? '0');
      const id = after + 1;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (id < 23) headers['link'] = `</v1/pets?limit=100&after=${id}>; rel="next"`;
      response.writeHead(200, headers);
      response.end(id % 11 === 1 ? `[${pet(id)}]` : '[]');
    });
    try {
      const client = new PetstoreClient({ baseUrl: sparse.url, apiKey: API_KEY });
      const ids: number[] = [];
      for await (const listed of client.pets()) ids.push(listed.id);
      assert.deepEqual(ids, [1, 12, 23]);
    } finally {
      await sparse.close();
    }
  });

  test('PetstoreClient refuses an answer it cannot decode (six nested gzip layers, a broken gzip or brotli body) as an unexpected answer, not an unreachable server, without retrying', { timeout: TEST_TIMEOUT }, async () => {
    let nested: Buffer = Buffer.from('[]');
    for (let layer = 0; layer < 6; layer++) nested = gzipSync(nested);
    const bodies: [string, string, Buffer, RegExp][] = [
      ['six gzip layers', 'gzip, gzip, gzip, gzip, gzip, gzip', nested, /too many content-encodings/],
      ['a body that is not gzip', 'gzip', Buffer.from('not gzip at all'), /incorrect header check/],
      ['a body that is not brotli', 'br', Buffer.from('not brotli!!'), /Decompression failed/],
    ];
    for (const [label, encoding, body, cause] of bodies) {
      let requests = 0;
      const server = await serve((_request, response) => {
        requests++;
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        response.end(body);
      });
      try {
        const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY });
        const error = await clientFailure(() => client.listPets());
        assert.equal(error.code, 'unavailable', label);
        assert.doesNotMatch(error.message, /Cannot reach/, label);
        assert.match(error.message, /^Unexpected answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets: its body cannot be decoded \(.+\); not retried, as the same answer would come again$/, label);
        assert.match(error.message, cause, label);
        assert.equal(requests, 1, `${label}: not retried`);
        assert.equal(error.attempts, 1, label);
      } finally {
        await server.close();
      }
    }
    // Five layers are what fetch decodes, and brotli too: those answers are read.
    let five: Buffer = Buffer.from('[]');
    for (let layer = 0; layer < 5; layer++) five = gzipSync(five);
    for (const [encoding, body] of [['gzip, gzip, gzip, gzip, gzip', five], ['br', brotliCompressSync('[]')]] as const) {
      const server = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        response.end(body);
      });
      try {
        assert.deepEqual(await new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY }).listPets(), [], encoding);
      } finally {
        await server.close();
      }
    }
  });

  test('PetstoreClient does not repeat a create without a key whose answer cannot be decoded, and says the pet may have been stored', { timeout: TEST_TIMEOUT }, async () => {
    let creates = 0;
    const server = await serve((request, response) => {
      if (request.headers['idempotency-key'] !== undefined) {
        response.writeHead(501, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 'idempotency_unsupported', message: 'No keys here', status: 501 }));
        return;
      }
      creates++;
      response.writeHead(201, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end('not gzip');
    });
    try {
      const client = new PetstoreClient({ baseUrl: server.url, apiKey: API_KEY });
      const error = await clientFailure(() => client.createPet({ name: 'Rex', categoryId: 1 }));
      assert.match(error.message, /its body cannot be decoded .*; the pet may or may not have been stored/);
      assert.equal(creates, 1);
    } finally {
      await server.close();
    }
  });
});
