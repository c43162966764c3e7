/**
 * What every host guide must hold, checked against the bare `node:http` handler: the same status,
 * media type and body, byte for byte, for the same requests in the same order.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { API_KEY, AUTH, call, JSON_POST } from '../support/http.js';
import type { Reply } from '../support/http.js';

/** The keys every host of these tests is built with. */
export const API_KEYS: readonly string[] = [API_KEY];

/** A host listening on 127.0.0.1, and how to stop it. */
export interface RunningHost {
  origin: string;
  close(): Promise<void>;
}

/** A `node:http` server already listening, as a RunningHost. */
export function hostOf(server: Server): RunningHost {
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Serves a request listener (an Express app, a Koa app's callback) on 127.0.0.1, port 0. */
export async function listen(listener: RequestListener): Promise<RunningHost> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return hostOf(server);
}

/** One create request: a body and its media type. */
export interface CreateCase {
  name: string;
  body: string | Buffer;
  contentType?: string;
}

/** Create requests every common JSON parser hands on: valid and invalid pets, and bodies refused on their head. */
export const PARSED_CASES: readonly CreateCase[] = [
  { name: 'a valid pet', body: '{"name":"Rex","categoryId":1,"status":"available"}' },
  { name: 'a valid pet without status', body: ' {"categoryId": 2, "name": "Tom"} ' },
  { name: 'an empty name', body: '{"name":"","categoryId":1}' },
  { name: 'a missing categoryId', body: '{"name":"Rex"}' },
  { name: 'wrong types and an unknown field', body: '{"name":7,"categoryId":"1","status":"lost","colour":"red"}' },
  { name: 'a fractional categoryId', body: '{"name":"Rex","categoryId":1.5}' },
  { name: 'a name of a lone surrogate', body: '{"name":"\\ud800","categoryId":1}' },
  { name: 'a repeated field', body: '{"name":"Rex","name":"","categoryId":1}' },
  { name: 'a __proto__ field', body: '{"__proto__":{"admin":true},"name":"Rex","categoryId":1}' },
  { name: 'an array', body: '[{"name":"Rex","categoryId":1}]' },
  { name: 'an empty body', body: '' },
  { name: 'a text body', body: 'name=Rex', contentType: 'text/plain' },
  { name: 'a form body', body: 'name=Rex&categoryId=1', contentType: 'application/x-www-form-urlencoded' },
  { name: 'no media type', body: '{"name":"Rex","categoryId":1}', contentType: '' },
  { name: 'a valid pet once more', body: '{"name":"Max","categoryId":3,"status":"sold"}' },
];

/** Create requests a host's JSON parser refuses before the handler sees them, with its own answer. */
export const REFUSED_CASES: readonly CreateCase[] = [
  { name: 'JSON cut short', body: '{"name":"Rex",' },
  { name: 'a JSON string', body: '"Rex"' },
  { name: 'bytes that are not UTF-8', body: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0xff, 0x7d]) },
];

function headersOf(create: CreateCase): Record<string, string> {
  if (create.contentType === undefined) return JSON_POST;
  return create.contentType === '' ? AUTH : { ...AUTH, 'content-type': create.contentType };
}

/** What a test compares of an answer: status, media type, the headers the interface sets, and the body. */
function comparable(reply: Reply, prefix: string): Record<string, unknown> {
  const location = reply.headers['location'];
  return {
    status: reply.status,
    contentType: reply.headers['content-type'],
    location: location?.startsWith(prefix) === true ? location.slice(prefix.length) : location,
    link: reply.headers['link']?.replaceAll(`<${prefix}/`, '</'),
    body: reply.text,
  };
}

/** Sends each create, then a list and a request without a key, to the host under `prefix`; what each answered. */
async function session(origin: string, prefix: string, creates: readonly CreateCase[]): Promise<Record<string, unknown>[]> {
  const answers: Record<string, unknown>[] = [];
  for (const create of creates) answers.push(comparable(await call({ origin }, 'POST', `${prefix}/v1/pets`, { headers: headersOf(create), body: create.body }), prefix));
  answers.push(comparable(await call({ origin }, 'GET', `${prefix}/v1/pets?limit=1`, { headers: AUTH }), prefix));
  answers.push(comparable(await call({ origin }, 'GET', `${prefix}/v1/pets?limit=1&after=1`, { headers: AUTH }), prefix));
  answers.push(comparable(await call({ origin }, 'GET', `${prefix}/v1/pets`), prefix));
  return answers;
}

/** The bare handler's answers to the same session, served by `node:http` alone. */
async function bareSession(creates: readonly CreateCase[]): Promise<Record<string, unknown>[]> {
  const bare = await listen(createHandler({ store: createPetstore(), apiKeys: API_KEYS }));
  try {
    return await session(bare.origin, '', creates);
  } finally {
    await bare.close();
  }
}

/**
 * Asserts that the host under `prefix` answers every create in `creates`, a list (200 with `Link`),
 * and a request without a key (401) exactly as the bare handler does, with `Location` and `Link`
 * carrying `prefix`; the first create must be a 201.
 */
export async function assertSameAsBare(host: RunningHost, creates: readonly CreateCase[], prefix = ''): Promise<void> {
  const seen = await session(host.origin, prefix, creates);
  const expected = await bareSession(creates);
  assert.equal(expected[0]?.['status'], 201);
  assert.equal(expected.at(-1)?.['status'], 401);
  assert.equal(expected.at(-3)?.['status'], 200);
  for (const [index, answer] of expected.entries()) {
    const what = creates[index]?.name ?? ['a list', 'its next page', 'a list without a key'][index - creates.length];
    assert.deepEqual(seen[index], answer, `${what}: the host answered otherwise than the bare handler`);
  }
  // Location and Link really carry the prefix, not only after it is taken off.
  const created = await call(host, 'POST', `${prefix}/v1/pets`, { headers: JSON_POST, body: '{"name":"Kit","categoryId":4}' });
  assert.equal(created.status, 201, created.text);
  assert.match(created.headers['location'] ?? '', new RegExp(`^${prefix}/v1/pets/\\d+$`));
  const page = await call(host, 'GET', `${prefix}/v1/pets?limit=1`, { headers: AUTH });
  assert.equal(page.headers['link'], `<${prefix}/v1/pets?limit=1&after=1>; rel="next"`);
}

/** Asserts the answer is the 500 that names a host's body parser as the cause and says how to fix it, in each host of the guides. */
export function assertHostParserError(reply: Reply, left: RegExp): void {
  assert.equal(reply.status, 500, reply.text);
  assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
  const body = reply.json as { code?: unknown; message?: unknown; status?: unknown };
  assert.equal(body.code, 'internal_error');
  assert.equal(body.status, 500);
  assert.match(String(body.message), /^The request body was read by a middleware before the Petstore handler, which left /);
  assert.match(String(body.message), left);
  assert.match(String(body.message), /mount the Petstore handler before the body parser/);
  for (const host of ['Express', 'Koa', 'Fastify', 'hono', 'NestJS', 'hapi']) assert.ok(String(body.message).includes(`${host}: `), `the 500 names no fix for ${host}`);
}

/** The imports of an example as an installed package's user writes them. */
const PACKAGE_NAMES: readonly [string, string][] = [
  ["'../../lib/index.js'", "'petstore-reference'"],
  ["'../../server/node/index.js'", "'petstore-reference/server'"],
  ["'../../server/fetch/index.js'", "'petstore-reference/fetch'"],
];

/** An example as docs/embedding.md shows it: without its opening comment lines, with the package's names in its imports. */
export function asShown(source: string): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => !line.startsWith('//'));
  let shown = lines.slice(start).join('\n');
  for (const [path, name] of PACKAGE_NAMES) shown = shown.replaceAll(path, name);
  return shown.trimEnd();
}
