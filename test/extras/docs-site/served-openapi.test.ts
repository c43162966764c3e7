import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPetstore, PetstoreError } from '../../../lib/index.js';
import { createOpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import type { OpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import { API_KEY, AUTH, JSON_POST, assertError, call, parseRawResponses, rawExchange, startTestServer } from '../../support/standalone-http.js';
import type { Reply, TestServer } from '../../support/standalone-http.js';
import { DEFAULT_BODY_LIMIT } from '../../../server/core/request.js';
import type { JsonValue } from '../../../extras/docs-site/openapi/types.js';
import type { OpenApiMethod } from '../../../extras/docs-site/openapi/types.js';
import type { OpenApiOperation } from '../../../extras/docs-site/openapi/types.js';
import { failingStorage } from '../../support/failing-storage.js';
import { heldStorage } from '../../support/held-storage.js';

const DOCUMENT = createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT });
const NEW_PET = '{"name":"Rex","categoryId":1}';

/** The servers a status needs: a healthy one, one whose storage throws, one whose storage is down, one whose store is full. */
interface Servers {
  healthy: TestServer;
  broken: TestServer;
  down: TestServer;
  full: TestServer;
}


/** A create with an Idempotency-Key, sent to a fresh server whose storage holds it in flight while a second one is sent: the second's reply. */
async function createWhileInFlight(): Promise<Reply> {
  const { storage, release, entered } = heldStorage();
  const server = await startTestServer({ store: createPetstore({ storage }) });
  const headers = { ...JSON_POST, 'idempotency-key': '"in-flight"' };
  try {
    const first = call(server, 'POST', '/v1/pets', { headers, body: NEW_PET });
    await entered;
    const reply = await call(server, 'POST', '/v1/pets', { headers, body: NEW_PET });
    release();
    await first;
    return reply;
  } finally {
    release();
    await server.close();
  }
}

/** Sends a request without a Host header over a raw socket, as HTTP/1.1 allows no client to. */
async function withoutHost(server: TestServer, method: string, path: string, auth = true): Promise<Reply> {
  const text = await rawExchange(server.port, [`${method} ${path} HTTP/1.1\r\n${auth ? `Authorization: Bearer ${API_KEY}\r\n` : ''}Connection: close\r\n\r\n`]);
  const [response] = parseRawResponses(text);
  assert.ok(response !== undefined, text);
  return { status: response.status, headers: response.headers, text: response.body, json: JSON.parse(response.body) };
}

type Producer = (servers: Servers) => Promise<Reply>;

/** For every documented operation, one request per status it can answer with: together, what the server really does. */
const PRODUCERS: Record<string, Record<string, Producer>> = {
  'get /pets': {
    200: ({ healthy }) => call(healthy, 'GET', '/v1/pets?limit=1', { headers: AUTH }),
    400: ({ healthy }) => call(healthy, 'GET', '/v1/pets?limit=x', { headers: AUTH }),
    401: ({ healthy }) => call(healthy, 'GET', '/v1/pets'),
    500: ({ broken }) => call(broken, 'GET', '/v1/pets', { headers: AUTH }),
    503: ({ down }) => call(down, 'GET', '/v1/pets', { headers: AUTH }),
  },
  'post /pets': {
    201: ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: NEW_PET }),
    400: ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":""}' }),
    401: ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: { authorization: 'Bearer wrong' }, body: NEW_PET }),
    413: ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: `{"name":"${'x'.repeat(DEFAULT_BODY_LIMIT)}","categoryId":1}` }),
    415: ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'text/plain' }, body: NEW_PET }),
    409: () => createWhileInFlight(),
    422: async ({ healthy }) => {
      const headers = { ...JSON_POST, 'idempotency-key': '"reused"' };
      assert.equal((await call(healthy, 'POST', '/v1/pets', { headers, body: NEW_PET })).status, 201);
      return call(healthy, 'POST', '/v1/pets', { headers, body: '{"name":"Other","categoryId":1}' });
    },
    500: ({ broken }) => call(broken, 'POST', '/v1/pets', { headers: JSON_POST, body: NEW_PET }),
    501: ({ broken }) => call(broken, 'POST', '/v1/pets', { headers: { ...JSON_POST, 'idempotency-key': '"k"' }, body: NEW_PET }),
    503: ({ down }) => call(down, 'POST', '/v1/pets', { headers: JSON_POST, body: NEW_PET }),
    507: ({ full }) => call(full, 'POST', '/v1/pets', { headers: JSON_POST, body: NEW_PET }),
  },
  'get /pets/{petId}': {
    200: ({ healthy }) => call(healthy, 'GET', '/v1/pets/1', { headers: AUTH }),
    400: ({ healthy }) => call(healthy, 'GET', '/v1/pets/abc', { headers: AUTH }),
    401: ({ healthy }) => call(healthy, 'GET', '/v1/pets/1'),
    404: ({ healthy }) => call(healthy, 'GET', '/v1/pets/999', { headers: AUTH }),
    500: ({ broken }) => call(broken, 'GET', '/v1/pets/1', { headers: AUTH }),
    503: ({ down }) => call(down, 'GET', '/v1/pets/1', { headers: AUTH }),
  },
  'get /openapi.json': {
    200: ({ healthy }) => call(healthy, 'GET', '/v1/openapi.json'),
    304: async ({ healthy }) => {
      const { etag } = (await call(healthy, 'HEAD', '/v1/openapi.json')).headers;
      return call(healthy, 'GET', '/v1/openapi.json', { headers: { 'if-none-match': etag ?? '' } });
    },
    400: ({ healthy }) => withoutHost(healthy, 'GET', '/v1/openapi.json', false),
  },
};

/** More requests per operation, each of whose answers must be documented: the other half of "documented equals real". */
const PROBES: Record<string, readonly Producer[]> = {
  'get /pets': [
    ({ healthy }) => call(healthy, 'GET', '/v1/pets', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'HEAD', '/v1/pets', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets?limit=0&status=sold&after=-5&unknown=1', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets?status=lost', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets?after=99999999999999999999', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets?limit=1&limit=2', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets', { headers: { authorization: 'Basic abc' } }),
    ({ healthy }) => withoutHost(healthy, 'GET', '/v1/pets'),
  ],
  'post /pets': [
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: '' }),
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: '{' }),
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: Buffer.from([0xff]) }),
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"x","categoryId":1,"id":5}' }),
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: JSON_POST, body: '[]' }),
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: { ...AUTH, 'content-type': 'application/json; charset=utf-8' }, body: '{"name":"x","categoryId":2,"status":"sold"}' }),
    ({ healthy }) => call(healthy, 'POST', '/v1/pets', { headers: AUTH, body: NEW_PET }),
    ({ healthy }) => withoutHost(healthy, 'POST', '/v1/pets'),
  ],
  'get /pets/{petId}': [
    ({ healthy }) => call(healthy, 'HEAD', '/v1/pets/1', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets/-1', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets/99999999999999999999', { headers: AUTH }),
    ({ healthy }) => call(healthy, 'GET', '/v1/pets/1.5', { headers: AUTH }),
    ({ healthy }) => withoutHost(healthy, 'GET', '/v1/pets/1'),
  ],
  'get /openapi.json': [
    ({ healthy }) => call(healthy, 'HEAD', '/v1/openapi.json'),
    ({ healthy }) => call(healthy, 'GET', '/v1/openapi.json', { headers: { authorization: 'Bearer wrong' } }),
  ],
};

function documentedOperations(document: OpenApiDocument): [string, OpenApiOperation][] {
  const operations: [string, OpenApiOperation][] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post'] as const satisfies readonly OpenApiMethod[]) {
      const operation = item[method];
      if (operation !== undefined) operations.push([`${method} ${path}`, operation]);
    }
  }
  return operations;
}

function jsonAt(value: JsonValue | undefined, ...keys: (string | number)[]): JsonValue | undefined {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = Array.isArray(current) ? (current as readonly JsonValue[])[Number(key)] : (current as { readonly [key: string]: JsonValue })[key];
  }
  return current;
}

/** Asserts a reply is one the operation documents: its status, its Error code, its required headers and their fixed values. */
function assertDocumented(name: string, operation: OpenApiOperation, reply: Reply): void {
  const response = operation.responses[String(reply.status)];
  assert.ok(response !== undefined, `${name} answered ${reply.status}, which it does not document: ${reply.text}`);
  const schema = response.content?.['application/json']?.schema;
  const codes = jsonAt(schema, 'allOf', 1, 'properties', 'code', 'enum');
  if (Array.isArray(codes)) {
    const body = reply.json as { code: string; status: number };
    assert.ok(codes.includes(body.code), `${name} ${reply.status}: code ${body.code} is not among ${JSON.stringify(codes)}`);
    assert.equal(body.status, reply.status);
  }
  for (const [header, definition] of Object.entries(response.headers ?? {})) {
    const value = reply.headers[header.toLowerCase()];
    if (definition.required === true) assert.notEqual(value, undefined, `${name} ${reply.status} lacks ${header}`);
    const fixed = definition.schema['const'];
    if (value !== undefined && typeof fixed === 'string') assert.equal(value, fixed, `${name} ${reply.status} ${header}`);
    const pattern = definition.schema['pattern'];
    if (value !== undefined && typeof pattern === 'string') assert.match(value, new RegExp(pattern), `${name} ${reply.status} ${header}`);
  }
}

describe('the OpenAPI description against the server', () => {
  let servers: Servers;
  before(async () => {
    const healthy = await startTestServer();
    await healthy.store.createPet({ name: 'Rex', categoryId: 1 });
    await healthy.store.createPet({ name: 'Tom', categoryId: 1 });
    servers = {
      healthy,
      broken: await startTestServer({ store: createPetstore({ storage: failingStorage(new Error('storage bug')) }), logError: () => {} }),
      down: await startTestServer({ store: createPetstore({ storage: failingStorage(new PetstoreError('unavailable', 'The database is unreachable')) }) }),
      full: await startTestServer({ store: createPetstore({ capacity: { maxPets: 0 } }) }),
    };
  });
  after(async () => {
    await Promise.all([servers.healthy.close(), servers.broken.close(), servers.down.close(), servers.full.close()]);
  });

  test('the OpenAPI description documents exactly the statuses the server produces for each operation', async () => {
    const operations = documentedOperations(DOCUMENT);
    assert.deepEqual(operations.map(([name]) => name).sort(), Object.keys(PRODUCERS).sort());
    for (const [name, operation] of operations) {
      const producers = PRODUCERS[name] ?? {};
      assert.deepEqual(Object.keys(operation.responses).sort(), Object.keys(producers).sort(), `${name}: documented vs produced statuses`);
      for (const [status, produce] of Object.entries(producers)) {
        const reply = await produce(servers);
        assert.equal(String(reply.status), status, `${name}: ${reply.text}`);
        assertDocumented(name, operation, reply);
      }
    }
  });

  test('the OpenAPI description documents every answer to further requests on each operation', async () => {
    for (const [name, operation] of documentedOperations(DOCUMENT)) {
      for (const probe of PROBES[name] ?? []) assertDocumented(name, operation, await probe(servers));
    }
  });

  test('the OpenAPI description\'s x-allow of each path is the Allow the server sends to OPTIONS, without a key, and with a 405', async () => {
    const { healthy } = servers;
    const targets: Record<string, string> = { '/pets': '/v1/pets', '/pets/{petId}': '/v1/pets/1', '/openapi.json': '/v1/openapi.json' };
    assert.deepEqual(Object.keys(DOCUMENT.paths), Object.keys(targets));
    for (const [path, target] of Object.entries(targets)) {
      const allow = DOCUMENT.paths[path]?.['x-allow'];
      const options = await call(healthy, 'OPTIONS', target);
      assert.equal(options.status, 204, path);
      assert.equal(options.headers['allow'], allow, path);
      const other = await call(healthy, 'PATCH', target, { headers: AUTH });
      assertError(other, 405, 'method_not_allowed');
      assert.equal(other.headers['allow'], allow, path);
    }
  });

  test('the OpenAPI description\'s shared responses are what the server answers outside any operation', async () => {
    const { healthy } = servers;
    const shared = DOCUMENT['x-shared-responses'];
    const replies: [string, Reply][] = [
      ['UnknownPath', await call(healthy, 'GET', '/v1/nothing', { headers: AUTH })],
      ['MethodNotAllowed', await call(healthy, 'DELETE', '/v1/pets', { headers: AUTH })],
      ['ExpectationFailed', await call(healthy, 'GET', '/v1/pets', { headers: { ...AUTH, expect: 'teapot' } })],
    ];
    for (const [text, name] of [['GARBAGE\r\n\r\n', 'MalformedRequest'], [`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 'HeadersTooLarge']] as const) {
      const [response] = parseRawResponses(await rawExchange(healthy.port, [text]));
      assert.ok(response !== undefined);
      replies.push([name, { status: response.status, headers: response.headers, text: response.body, json: JSON.parse(response.body) }]);
    }
    const slow = await startTestServer({ timeouts: { headers: 200, connectionsCheckingInterval: 50 } });
    try {
      const [response] = parseRawResponses(await rawExchange(slow.port, ['GET /v1/pets HTTP/1.1\r\n']));
      assert.ok(response !== undefined);
      replies.push(['RequestTimeout', { status: response.status, headers: response.headers, text: response.body, json: JSON.parse(response.body) }]);
    } finally {
      await slow.close();
    }
    assert.deepEqual(replies.map(([name]) => name).sort(), Object.keys(shared).sort());
    for (const [name, reply] of replies) {
      const response = shared[name];
      assert.ok(response !== undefined);
      assertDocumented(name, { summary: name, responses: { [String(reply.status)]: response } }, reply);
    }
    assert.equal(replies.find(([name]) => name === 'MethodNotAllowed')?.[1].headers['allow'], 'GET, HEAD, POST, OPTIONS');
  });
});
