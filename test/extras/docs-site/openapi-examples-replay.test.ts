import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetstore, seedPets } from '../../../lib/index.js';
import { createOpenApiDocument } from '../../../extras/docs-site/openapi/index.js';
import type { PetStorage } from '../../../lib/index.js';
import { createPostgresStorage } from '../../../extras/postgres/index.js';
import { API_KEY, AUTH, call, parseRawResponses, rawExchange, startTestServer } from '../../support/standalone-http.js';
import type { Reply, TestServer } from '../../support/standalone-http.js';
import { EXAMPLE_PETS, operationsOf, refusedRequestsOf, requestKeysOf, schemaValidator, statusOfExample } from '../../support/openapi-examples.js';
import type { DocumentedOperation, RefusedRequest } from '../../support/openapi-examples.js';
import { DEFAULT_BODY_LIMIT } from '../../../server/core/request.js';
import type { JsonValue } from '../../../extras/docs-site/openapi/types.js';
import type { OpenApiExample } from '../../../extras/docs-site/openapi/types.js';
import type { OpenApiResponse } from '../../../extras/docs-site/openapi/types.js';
import { failingStorage } from '../../support/failing-storage.js';
import { heldStorage } from '../../support/held-storage.js';

const DOCUMENT = createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT });
const check = schemaValidator(DOCUMENT);
/** The refused requests the document states beside the examples of its 400 answers, which are replayed as a learner would send them. */
const REFUSED_REQUESTS = refusedRequestsOf(DOCUMENT);

/** The servers an answer needs: the store the examples assume (with no room left when full), a storage that throws, a database that refuses, a short header timeout. */
type ServerKind = 'seeded' | 'full' | 'broken' | 'down' | 'slow';


/** A PostgreSQL storage whose database answers the set-up, then refuses every connection, as a stopped server does. */
async function refusedPostgresStorage(): Promise<PetStorage> {
  let isDown = false;
  const storage = await createPostgresStorage({
    query: async () => {
      if (isDown) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      return { rows: [{ encoding: 'UTF8' }] };
    },
  });
  isDown = true;
  return storage;
}

/** Starts a fresh server of a kind, runs `exchange` against it and stops it. */
async function withServer(kind: ServerKind, exchange: (server: TestServer) => Promise<Reply>): Promise<Reply> {
  const quiet = { logError: () => undefined };
  const server = kind === 'broken'
    ? await startTestServer({ ...quiet, store: createPetstore({ storage: failingStorage(new Error('storage bug')) }) })
    : kind === 'down'
      ? await startTestServer({ ...quiet, store: createPetstore({ storage: await refusedPostgresStorage() }) })
      : kind === 'slow'
        ? await startTestServer({ timeouts: { headers: 200, connectionsCheckingInterval: 50 } })
        : kind === 'full'
          ? await startTestServer({ store: createPetstore({ capacity: { maxPets: EXAMPLE_PETS.length } }) })
          : await startTestServer();
  try {
    if (kind === 'seeded' || kind === 'full') assert.deepEqual(await seedPets(server.store, EXAMPLE_PETS), { seeded: EXAMPLE_PETS.length, skipped: false });
    return await exchange(server);
  } finally {
    await server.close();
  }
}

/** One request, as `call` sends it, or as raw text for what no HTTP client sends. */
interface ExampleRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends raw text and reads the one answer. */
async function sendRaw(server: TestServer, text: string): Promise<Reply> {
  const [response] = parseRawResponses(await rawExchange(server.port, [text]));
  assert.ok(response !== undefined, text);
  return { status: response.status, headers: response.headers, text: response.body, json: JSON.parse(response.body) };
}

/** Sends a request to a fresh server of a kind. */
function send(request: ExampleRequest, kind: ServerKind = 'seeded'): Promise<Reply> {
  return withServer(kind, (server) => call(server, request.method, request.path, request.body === undefined ? { headers: request.headers } : { headers: request.headers, body: request.body }));
}

/** The request an operation's examples start from: the key, the `valid` body, and the first pet's id. */
function baseRequest(operation: DocumentedOperation): ExampleRequest {
  const path = `/v1${operation.path.replace('{petId}', '1')}`;
  const body = operation.operation.requestBody?.content['application/json']?.examples?.['valid'];
  if (body === undefined) return { method: operation.method.toUpperCase(), path, headers: { ...AUTH } };
  return { method: operation.method.toUpperCase(), path, headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body.value) };
}

/** The request of the request example `key`: its parameters in the path and query, and its body. */
function exampleRequest(operation: DocumentedOperation, key: string): ExampleRequest {
  let path = operation.path;
  const query: string[] = [];
  const headers: Record<string, string> = { ...AUTH };
  for (const parameter of operation.parameters) {
    const value = parameter.examples?.[key]?.value;
    if (parameter.in === 'header') {
      if (value !== undefined) headers[parameter.name.toLowerCase()] = String(value);
    } else if (parameter.in === 'path') {
      assert.ok(value !== undefined, `${operation.path}: the request example ${key} gives no ${parameter.name}`);
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    } else if (value !== undefined) {
      query.push(`${parameter.name}=${encodeURIComponent(String(value))}`);
    }
  }
  const target = `/v1${path}${query.length === 0 ? '' : `?${query.join('&')}`}`;
  const body = operation.operation.requestBody?.content['application/json']?.examples?.[key];
  const method = operation.method.toUpperCase();
  if (body === undefined) return { method, path: target, headers };
  return { method, path: target, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body.value) };
}

/** Sends two requests to one fresh seeded server, answering the second's reply: a repeat, or a reuse of the first's key. */
function sendTwice(first: ExampleRequest, second: ExampleRequest): Promise<Reply> {
  return withServer('seeded', async (server) => {
    const reply = await call(server, first.method, first.path, { headers: first.headers, body: first.body ?? '' });
    assert.equal(reply.status, 201, reply.text);
    return call(server, second.method, second.path, { headers: second.headers, body: second.body ?? '' });
  });
}

/** Sends a request twice to a seeded server whose storage holds the first create in flight, answering the second's reply. */
async function sendWhileInFlight(request: ExampleRequest): Promise<Reply> {
  const { storage, release, entered } = heldStorage();
  const server = await startTestServer({ store: createPetstore({ storage }) });
  try {
    await seedPets(server.store, EXAMPLE_PETS);
    const first = call(server, request.method, request.path, { headers: request.headers, body: request.body ?? '' });
    await entered;
    const reply = await call(server, request.method, request.path, { headers: request.headers, body: request.body ?? '' });
    release();
    assert.equal((await first).status, 201);
    return reply;
  } finally {
    release();
    await server.close();
  }
}

/** The request a refused request of the examples sends, below `/v1`. */
function refusedRequest(refused: RefusedRequest): ExampleRequest {
  const path = `/v1${refused.target}`;
  if (refused.body === undefined) return { method: refused.method, path, headers: { ...AUTH } };
  return { method: refused.method, path, headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(refused.body) };
}

/** The refused requests of the examples, by operationId and key. */
const REFUSED = new Map(REFUSED_REQUESTS.map((refused) => [`${refused.operationId} ${refused.key}`, refused]));

/** Whether `actual` holds everything `expected` does: an abridged example of a larger answer. */
function contains(actual: unknown, expected: JsonValue): boolean {
  if (typeof expected !== 'object' || expected === null) return actual === expected;
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) => contains(Reflect.get(actual, key), value));
}

/** What an answer is checked against: the documented response, the example's key, and the keys of the bodies its header examples may belong to. */
interface Expectation {
  status: number;
  response: OpenApiResponse;
  key: string;
  /** The body examples of the response (of the GET, for a HEAD), whose keys a header example may share. */
  answers: Record<string, OpenApiExample>;
  isHead?: boolean;
  isAbridged?: boolean;
}

/**
 * Checks an answer against its example: the status, the body exactly (the store is the one the
 * examples assume, so nothing varies), and each documented header: present when required, valid
 * against its schema, equal to its example of the same key, and absent when its examples belong to
 * other answers (the `Link` of a page with a next one).
 */
function assertAnswer(where: string, reply: Reply, expected: Expectation): void {
  const { status, response, key, answers } = expected;
  assert.equal(reply.status, status, `${where}: ${reply.text}`);
  if (expected.isHead === true) {
    assert.equal(reply.text, '', where);
  } else {
    const example = answers[key];
    assert.ok(example !== undefined, `${where}: no example ${key}`);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8', where);
    if (expected.isAbridged === true) assert.ok(contains(reply.json, example.value), `${where}: ${reply.text.slice(0, 200)}`);
    else assert.deepEqual(reply.json, example.value, where);
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = reply.headers[name.toLowerCase()];
    if (header.required === true) assert.notEqual(value, undefined, `${where}: no ${name}`);
    if (value !== undefined) assert.ok(check(header.schema, value).valid, `${where}: ${name}: ${value}`);
    const examples = header.examples ?? {};
    const own = examples[key];
    if (own !== undefined) assert.equal(value, own.value, `${where}: ${name}`);
    else if (Object.keys(examples).some((other) => answers[other] !== undefined)) assert.equal(value, undefined, `${where}: ${name} belongs to other answers`);
  }
}

/** The JSON body examples of a response. */
function bodyExamples(response: OpenApiResponse | undefined): Record<string, OpenApiExample> {
  return response?.content?.['application/json']?.examples ?? {};
}

/** How to produce an answer that no request example of the operation produces, by the key of its example. */
type Provoker = (operation: DocumentedOperation) => Promise<Reply>;

/** A request without `Host`, which no HTTP client sends. */
function withoutHost(request: ExampleRequest): Promise<Reply> {
  return withServer('seeded', (server) => sendRaw(server, `${request.method} ${request.path} HTTP/1.1\r\nAuthorization: Bearer ${API_KEY}\r\nConnection: close\r\n\r\n`));
}

/** The operations' answers to requests their examples cannot carry: a header, a framing, a failing server. */
const OPERATION_PROVOKERS: Readonly<Record<string, Provoker>> = {
  missingHost: (operation) => withoutHost(baseRequest(operation)),
  missingKey: (operation) => {
    const { authorization, ...headers } = baseRequest(operation).headers;
    return send({ ...baseRequest(operation), headers });
  },
  invalidKey: (operation) => send({ ...baseRequest(operation), headers: { ...baseRequest(operation).headers, authorization: 'Bearer wrong-key' } }),
  emptyBody: (operation) => send({ ...baseRequest(operation), body: '' }),
  tooLarge: (operation) => send({ ...baseRequest(operation), body: `{"name":"${'x'.repeat(DEFAULT_BODY_LIMIT)}","categoryId":1}` }),
  notJson: (operation) => send({ ...baseRequest(operation), headers: { ...baseRequest(operation).headers, 'content-type': 'text/plain' } }),
  internalError: (operation) => send(baseRequest(operation), 'broken'),
  unavailable: (operation) => send(baseRequest(operation), 'down'),
  storeFull: (operation) => send(baseRequest(operation), 'full'),
  abridged: (operation) => send(baseRequest(operation)),
  malformedKey: (operation) => send({ ...baseRequest(operation), headers: { ...baseRequest(operation).headers, 'idempotency-key': '"8e03978e-40d5' } }),
  replayed: (operation) => sendTwice(exampleRequest(operation, 'withKey'), exampleRequest(operation, 'withKey')),
  keyReused: (operation) => {
    const withKey = exampleRequest(operation, 'withKey');
    return sendTwice(withKey, { ...baseRequest(operation), headers: { ...baseRequest(operation).headers, 'idempotency-key': withKey.headers['idempotency-key'] ?? '' } });
  },
  keyInFlight: (operation) => sendWhileInFlight(exampleRequest(operation, 'withKey')),
  idempotencyUnsupported: (operation) => send(exampleRequest(operation, 'withKey'), 'broken'),
};

/** The answers no operation owns (`x-shared-responses`), by the key of their example. */
const SHARED_PROVOKERS: Readonly<Record<string, () => Promise<Reply>>> = {
  unknownPath: () => send({ method: 'GET', path: '/v1/store/orders', headers: { ...AUTH } }),
  deletePets: () => send({ method: 'DELETE', path: '/v1/pets', headers: { ...AUTH } }),
  malformedRequest: () => withServer('seeded', (server) => sendRaw(server, 'GARBAGE\r\n\r\n')),
  requestTimeout: () => withServer('slow', (server) => sendRaw(server, 'GET /v1/pets HTTP/1.1\r\n')),
  unknownExpectation: () => send({ method: 'GET', path: '/v1/pets', headers: { ...AUTH, expect: 'teapot' } }),
  headersTooLarge: () => withServer('seeded', (server) => sendRaw(server, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)),
};

/** The operations whose answers carry a body to compare with an example. */
function bodyOperations(): DocumentedOperation[] {
  return operationsOf(DOCUMENT).filter((operation) => operation.method === 'get' || operation.method === 'post');
}

describe('the OpenAPI description\'s examples against the server', () => {
  test('the OpenAPI description the server serves is the one whose examples are replayed', async () => {
    const reply = await send({ method: 'GET', path: '/v1/openapi.json', headers: {} });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, JSON.parse(JSON.stringify(DOCUMENT)));
  });

  test('the OpenAPI description\'s request examples get the answer of their key: status, body and headers', async () => {
    let replayed = 0;
    for (const operation of bodyOperations()) {
      for (const key of requestKeysOf(operation)) {
        const status = statusOfExample(operation.operation, key);
        assert.ok(status !== undefined, `${operation.method} ${operation.path}: ${key} has no answer`);
        const response = operation.operation.responses[String(status)];
        assert.ok(response !== undefined);
        const request = exampleRequest(operation, key);
        const where = `${request.method} ${request.path} (${key})`;
        assertAnswer(where, await send(request), { status, response, key, answers: bodyExamples(response) });
        replayed++;
      }
    }
    // createPet's three bodies, listPets' three queries, getPet's two ids.
    assert.equal(replayed, 8);
  });

  test('the OpenAPI description\'s refused requests, described in the 400 answers\' examples, get the answer of their key', async () => {
    let replayed = 0;
    for (const operation of bodyOperations()) {
      const response = operation.operation.responses['400'];
      for (const refused of REFUSED_REQUESTS.filter((candidate) => candidate.operationId === operation.operation.operationId)) {
        assert.ok(response !== undefined, refused.operationId);
        const request = refusedRequest(refused);
        assertAnswer(`${request.method} ${request.path} (${refused.key})`, await send(request), { status: 400, response, key: refused.key, answers: bodyExamples(response) });
        replayed++;
      }
    }
    // createPet's three bodies, listPets' two queries, getPet's one id.
    assert.equal(replayed, 6);
  });

  test('the OpenAPI description\'s request examples of GET get the same status and headers over HEAD, without a body', async () => {
    // The document states HEAD in each path's description, as GET's answer without its body.
    for (const operation of bodyOperations().filter((candidate) => candidate.method === 'get')) {
      const refused = REFUSED_REQUESTS.filter((candidate) => candidate.operationId === operation.operation.operationId);
      const requests: [string, ExampleRequest][] = [
        ...requestKeysOf(operation).map((key): [string, ExampleRequest] => [key, exampleRequest(operation, key)]),
        ...refused.map((candidate): [string, ExampleRequest] => [candidate.key, refusedRequest(candidate)]),
      ];
      for (const [key, get] of requests) {
        const status = statusOfExample(operation.operation, key);
        const response = operation.operation.responses[String(status)];
        assert.ok(status !== undefined && response !== undefined, `${operation.path} ${key}`);
        const request = { ...get, method: 'HEAD' };
        assertAnswer(`${request.method} ${request.path} (${key})`, await send(request), { status, response, key, answers: bodyExamples(response), isHead: true });
      }
    }
  });

  test('the OpenAPI description\'s other Error and body examples are what the server answers to the request their summary names', async () => {
    let provoked = 0;
    for (const operation of bodyOperations()) {
      const requestKeys = new Set(requestKeysOf(operation));
      for (const [status, response] of Object.entries(operation.operation.responses)) {
        const answers = bodyExamples(response);
        const refusedKeys = new Set([...REFUSED.values()].filter((refused) => refused.operationId === operation.operation.operationId).map((refused) => refused.key));
        for (const key of Object.keys(answers).filter((candidate) => !requestKeys.has(candidate) && !refusedKeys.has(candidate))) {
          const provoke = OPERATION_PROVOKERS[key];
          assert.ok(provoke !== undefined, `${operation.method} ${operation.path} ${status}: nothing produces the example ${key}`);
          const where = `${operation.method} ${operation.path} ${status} (${key})`;
          assertAnswer(where, await provoke(operation), { status: Number(status), response, key, answers, isAbridged: key === 'abridged' });
          provoked++;
        }
      }
    }
    assert.ok(provoked >= 20, `${provoked} answers provoked`);
  });

  test('the OpenAPI description\'s shared responses are what the server answers to the request their example\'s summary names', async () => {
    const shared = Object.entries(DOCUMENT['x-shared-responses']);
    assert.equal(shared.length, Object.keys(SHARED_PROVOKERS).length);
    for (const [name, response] of shared) {
      const answers = bodyExamples(response);
      for (const [key, example] of Object.entries(answers)) {
        const provoke = SHARED_PROVOKERS[key];
        assert.ok(provoke !== undefined, `${name}: nothing produces the example ${key}`);
        const status: unknown = typeof example.value === 'object' && example.value !== null ? Reflect.get(example.value, 'status') : undefined;
        assert.ok(typeof status === 'number', name);
        assertAnswer(`${name} (${key})`, await provoke(), { status, response, key, answers });
      }
    }
  });

  test('the replay notices an example the server does not answer', async () => {
    const listPets = bodyOperations().find((operation) => operation.operation.operationId === 'listPets');
    assert.ok(listPets !== undefined);
    const response = listPets.operation.responses['200'];
    assert.ok(response !== undefined);
    const reply = await send(exampleRequest(listPets, 'firstPage'));
    const answers = bodyExamples(response);
    assertAnswer('firstPage', reply, { status: 200, response, key: 'firstPage', answers });
    // The same answer against another example's body, against a 400, and without its Link: each must fail.
    assert.throws(() => assertAnswer('firstPage as sold', reply, { status: 200, response, key: 'sold', answers }), assert.AssertionError);
    assert.throws(() => assertAnswer('firstPage as 400', reply, { status: 400, response, key: 'firstPage', answers }), assert.AssertionError);
    const { link, ...headers } = reply.headers;
    assert.ok(link !== undefined);
    assert.throws(() => assertAnswer('firstPage without Link', { ...reply, headers }, { status: 200, response, key: 'firstPage', answers }), assert.AssertionError);
  });
});
