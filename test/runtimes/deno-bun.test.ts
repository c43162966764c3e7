import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createPetstore } from '../../lib/index.js';
import { startServer } from '../../server/node/index.js';
import {
  assertSameAnswer, buildPackage, MUST_HAVE_RUNTIMES, readReadmeRequests, runtimeProblem, sendRequest, startRuntimeServer,
} from '../support/runtimes.js';
import type { PackageBuild, ReadmeRequests, RuntimeName, RuntimeServer, WireAnswer, WireRequest } from '../support/runtimes.js';
import { docsSite } from '../../extras/docs-site/index.js';

/** A request beyond the README's, where runtimes could part ways: what the server does with the bytes before the handler sees them. */
interface EdgeCase {
  name: string;
  request: (apiKey: string) => WireRequest;
  /**
   * Where a runtime's own HTTP layer decides before the handler runs (the fetch API hides the raw
   * request), by runtime: the status it answers and why. Asserted, so a runtime that changes shows up.
   */
  departures?: Partial<Record<RuntimeName, { status: number; why: string }>>;
}

const EDGE_CASES: readonly EdgeCase[] = [
  {
    name: 'a chunked body over the limit, which only the limit while streaming can refuse',
    request: (apiKey) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(100_000), categoryId: 1 })),
    }),
  },
  {
    name: 'a JSON body cut short, whose message is the project\'s own, not the JavaScript engine\'s',
    request: (apiKey) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"name":'),
    }),
  },
  {
    name: 'a path with dot segments, without a key',
    request: () => ({ method: 'GET', path: '/v1/pets/../openapi.json', headers: {} }),
    departures: {
      bun: {
        status: 200,
        why: 'Bun resolves dot segments (`..`, `.`, `%2e%2e`) in request.url before the handler runs, so the handler sees /v1/openapi.json; '
          + 'Node and Deno hand on the raw target, which matches no route, and answer 401',
      },
    },
  },
  {
    name: 'an HTTP/1.1 request without Host',
    request: () => ({ method: 'GET', path: '/v1/openapi.json', headers: {}, omitsHost: true }),
    departures: {
      deno: {
        status: 200,
        why: 'Deno hands the request on, and the fetch API does not tell the HTTP version, so the handler cannot apply RFC 9112 §3.2 '
          + 'and serves the document, where Node answers 400 bad_request',
      },
      bun: { status: 400, why: 'Bun refuses it itself, with an empty body and Connection: close, not the Error body' },
    },
  },
  {
    name: 'a request with two Host headers',
    request: () => ({ method: 'GET', path: '/v1/openapi.json', headers: { host: ['a.test', 'b.test'] } }),
    departures: {
      deno: { status: 400, why: 'Deno refuses it itself, with an empty body, not the Error body' },
    },
  },
  {
    name: 'a Host header with a slash in it',
    request: () => ({ method: 'GET', path: '/v1/openapi.json', headers: { host: 'a.test/b' } }),
  },
];

/** Sends the requests one after the other, each over a connection of its own. */
async function replay(origin: string, requests: readonly WireRequest[]): Promise<WireAnswer[]> {
  const answers: WireAnswer[] = [];
  for (const request of requests) answers.push(await sendRequest(origin, request));
  return answers;
}

function labelOf(request: WireRequest): string {
  return `${request.method} ${request.path}`;
}

const RUNTIMES: readonly { name: RuntimeName; serve: string; problem: string | undefined }[] = [
  { name: 'deno', serve: 'Deno.serve', problem: await runtimeProblem('deno') },
  { name: 'bun', serve: 'Bun.serve', problem: await runtimeProblem('bun') },
];

describe('createFetchHandler() served by Deno and Bun, against the node:http server', () => {
  let build: PackageBuild | undefined;
  let readme: ReadmeRequests;
  let nodeAnswers: WireAnswer[];
  let nodeEdgeAnswers: WireAnswer[];
  let nodeDescription: WireAnswer | undefined;

  before(async () => {
    readme = await readReadmeRequests();
    const node = await startServer({ store: createPetstore(), apiKeys: [readme.apiKey], port: 0, plugins: [docsSite()] });
    try {
      nodeAnswers = await replay(new URL(node.url).origin, readme.requests);
      nodeEdgeAnswers = await replay(new URL(node.url).origin, EDGE_CASES.map((edge) => edge.request(readme.apiKey)));
      nodeDescription = await sendRequest(new URL(node.url).origin, { method: 'GET', path: '/v1/openapi.json', headers: {} });
    } finally {
      await node.close();
    }
    if (RUNTIMES.some((runtime) => runtime.problem === undefined)) build = await buildPackage();
  });
  after(() => build?.remove());

  test('the README curl samples replay as a session: creates, lists, gets and errors, each answered by the node:http server with the status the README shows', () => {
    assert.ok(readme.requests.length >= 8, `${readme.requests.length} curl requests in README.md`);
    const statuses = new Set(nodeAnswers.map((answer) => answer.status));
    for (const status of [200, 201, 400, 401, 404]) assert.ok(statuses.has(status), `the README shows a ${status}: ${[...statuses].join(', ')}`);
    assert.deepEqual(nodeAnswers.map((answer) => answer.status), readme.statuses, 'each answer has the status the README shows under its command');
  });

  for (const { name, serve, problem } of RUNTIMES) {
    // Outside CI a missing runtime skips; under CI=true it must be there, so its absence fails.
    const skip = problem !== undefined && !MUST_HAVE_RUNTIMES ? problem : false;
    describe(`${serve} with createFetchHandler()`, { skip }, () => {
      let server: RuntimeServer | undefined;
      before(async () => {
        if (problem !== undefined) throw new Error(`${name} cannot run, and CI=true requires it: ${problem}`);
        assert.ok(build !== undefined);
        server = await startRuntimeServer(name, build.dist, readme.apiKey);
      });
      after(() => server?.stop());

      test(`${serve} with createFetchHandler() answers every README curl request as the node:http server does`, async () => {
        assert.ok(server !== undefined);
        const answers = await replay(server.origin, readme.requests);
        readme.requests.forEach((request, index) => {
          const [answer, expected] = [answers[index], nodeAnswers[index]];
          assert.ok(answer !== undefined && expected !== undefined);
          assertSameAnswer(answer, expected, `${serve}: ${labelOf(request)} (request ${index + 1})`);
        });
      });

      test(`${serve} with createFetchHandler() sends the description compressed in the coding the request prefers, decompressing to the node:http server's bytes, and pets uncompressed`, async () => {
        assert.ok(server !== undefined);
        const identity = await sendRequest(server.origin, { method: 'GET', path: '/v1/openapi.json', headers: {} });
        assert.equal(identity.body.toString('latin1'), nodeDescription?.body.toString('latin1'), 'the same document as the node:http server');
        const identityTag = new Map(identity.headers.map(([header, value]) => [header.toLowerCase(), value])).get('etag') ?? '';
        // Deno and Bun both have brotli in CompressionStream, so br is offered beside gzip.
        const cases: [string, string, (bytes: Buffer) => Buffer][] = [['gzip', 'gzip', gunzipSync], ['br', 'br', brotliDecompressSync], ['gzip, deflate, br', 'br', brotliDecompressSync]];
        for (const [acceptEncoding, coding, decompress] of cases) {
          const answer = await sendRequest(server.origin, { method: 'GET', path: '/v1/openapi.json', headers: { 'accept-encoding': acceptEncoding } });
          const headers = new Map(answer.headers.map(([header, value]) => [header.toLowerCase(), value]));
          assert.equal(headers.get('content-encoding'), coding, acceptEncoding);
          assert.equal(headers.get('etag'), `${identityTag.slice(0, -1)}-${coding}"`, acceptEncoding);
          assert.equal(headers.get('vary'), 'Accept-Encoding', acceptEncoding);
          // Compressed once, by the handler: the runtime did not compress it again.
          assert.deepEqual(decompress(answer.body), identity.body, acceptEncoding);
        }
        const pets = await sendRequest(server.origin, { method: 'GET', path: '/v1/pets?limit=100', headers: { authorization: `Bearer ${readme.apiKey}`, 'accept-encoding': 'gzip, br' } });
        assert.equal(pets.status, 200);
        assert.equal(pets.headers.find(([header]) => header.toLowerCase() === 'content-encoding'), undefined, `${serve} leaves pet answers uncompressed`);
        assert.ok(Array.isArray(JSON.parse(pets.body.toString('utf8'))));
      });

      EDGE_CASES.forEach((edge, index) => {
        const departure = edge.departures?.[name];
        const outcome = departure === undefined ? 'as the node:http server does' : `with ${departure.status}, decided by ${name} itself`;
        test(`${serve} with createFetchHandler() answers ${edge.name} ${outcome}`, async () => {
          assert.ok(server !== undefined);
          const request = edge.request(readme.apiKey);
          const expected = nodeEdgeAnswers[index];
          assert.ok(expected !== undefined);
          const answer = await sendRequest(server.origin, request);
          if (departure === undefined) return assertSameAnswer(answer, expected, `${serve}: ${labelOf(request)}`);
          assert.equal(answer.status, departure.status, departure.why);
          assert.notDeepEqual(answer, expected, `${serve} now answers ${labelOf(request)} as Node does: drop the departure`);
        });
      });
    });
  }
});
