import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startMessagesServer } from '../../examples/quickstart-messages.js';
import type { QueuedMessage, RunningMessagesServer } from '../../examples/quickstart-messages.js';
import { assertError, call, JSON_POST, startTestServer } from '../support/standalone-http.js';
import { runExample } from './run-example.js';

const KEY = 'messages-key-0123456789';
const POST = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('examples/quickstart-messages.ts', () => {
  let server: RunningMessagesServer;
  const queued: QueuedMessage[] = [];
  before(async () => {
    server = await startMessagesServer({ apiKeys: [KEY], onQueued: (message) => queued.push(message) });
  });
  after(() => server.close());

  test('quickstart-messages answers 202 Accepted with id, message, status queued and createdAt [spec 4.4]', async () => {
    const before = Date.now();
    const reply = await call(server, 'POST', '/messages', { headers: POST, body: '{"message":"Hello, world"}' });
    assert.equal(reply.status, 202);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    const body = reply.json as QueuedMessage;
    assert.deepEqual(Object.keys(body), ['id', 'message', 'status', 'createdAt']);
    assert.match(body.id, UUID);
    assert.equal(body.message, 'Hello, world');
    assert.equal(body.status, 'queued');
    assert.match(body.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(Date.parse(body.createdAt) >= before - 1000);
    assert.deepEqual(queued.at(-1), body);
    const second = await call(server, 'POST', '/messages', { headers: POST, body: '{"message":"Again"}' });
    assert.notEqual((second.json as QueuedMessage).id, body.id);
  });

  test('quickstart-messages answers 401 for a missing or invalid key, in the Error shape', async () => {
    const missing = await call(server, 'POST', '/messages', { headers: { 'content-type': 'application/json' }, body: '{"message":"x"}' });
    assertError(missing, 401, 'unauthorized');
    assert.equal(missing.headers['www-authenticate'], 'Bearer realm="petstore"');
    const invalid = await call(server, 'POST', '/messages', { headers: { ...POST, authorization: 'Bearer wrong' }, body: '{"message":"x"}' });
    assertError(invalid, 401, 'unauthorized');
    assert.match(invalid.headers['www-authenticate'] ?? '', /error="invalid_token"/);
  });

  test('quickstart-messages answers 400 for invalid JSON or a missing, empty or non-string message', async () => {
    for (const body of ['', '{', '{"message":"x"']) assertError(await call(server, 'POST', '/messages', { headers: POST, body }), 400, 'invalid_json');
    for (const [body, message] of [['{}', /`message` is required/], ['[]', /`message` is required/], ['null', /required/], ['{"message":""}', /non-empty string/], ['{"message":42}', /non-empty string/]] as const) {
      const error = assertError(await call(server, 'POST', '/messages', { headers: POST, body }), 400, 'validation_failed', message);
      assert.equal(error.details?.[0]?.field, 'message');
    }
  });

  test('quickstart-messages answers POST /messages with only the spec\'s errors: a wrong or missing media type and a body over the limit are 400s, not 415 and 413 [spec 4.4]', async () => {
    for (const headers of [{ ...POST, 'content-type': 'text/plain' }, { authorization: POST.authorization }, { ...POST, 'content-type': 'application/jsonx' }]) {
      const wrongType = await call(server, 'POST', '/messages', { headers, body: '{"message":"x"}' });
      assertError(wrongType, 400, 'invalid_json', /send the body as JSON with `Content-Type: application\/json`/);
    }
    const withCharset = await call(server, 'POST', '/messages', { headers: { ...POST, 'content-type': 'Application/JSON; charset=utf-8' }, body: '{"message":"x"}' });
    assert.equal(withCharset.status, 202);
    const large = await call(server, 'POST', '/messages', { headers: POST, body: JSON.stringify({ message: 'x'.repeat(20_000) }) });
    const error = assertError(large, 400, 'validation_failed', /at most 16384 bytes/);
    assert.equal(error.details?.[0]?.field, 'message');
    assert.equal(large.headers['connection'], 'close');
    assertError(await call(server, 'POST', '/messages', { headers: POST, body: Buffer.from([0x7b, 0xff, 0x7d]) }), 400, 'invalid_json');
  });

  test('quickstart-messages answers a request that is not POST /messages with 404 or 405, like the Petstore does', async () => {
    assertError(await call(server, 'POST', '/elsewhere', { headers: POST, body: '{}' }), 404, 'not_found');
    const get = await call(server, 'GET', '/messages?x=1', { headers: POST });
    assertError(get, 405, 'method_not_allowed');
    assert.equal(get.headers['allow'], 'POST');
  });

  test('quickstart-messages runs on PORT=0 with MESSAGES_API_KEY and stops on SIGINT', async () => {
    const example = runExample('quickstart-messages.ts', { PORT: '0', MESSAGES_API_KEY: KEY });
    const [, url = ''] = await example.waitFor(/messages listening on (http:\/\/\S+)/);
    const { origin } = new URL(url);
    const reply = await call({ origin }, 'POST', '/messages', { headers: POST, body: '{"message":"from the CLI"}' });
    assert.equal(reply.status, 202);
    await example.waitFor(new RegExp(`queued ${(reply.json as QueuedMessage).id}`));
    example.child.kill('SIGINT');
    assert.equal(await example.exited, 0);
  });

  test('quickstart-messages is found from the README and from the reference page, which say that POST /v1/messages is not the Petstore\'s', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    // Named, not linked: the README is installed with the package, which does not ship the examples.
    assert.match(readme, /`examples\/quickstart-messages\.ts` \(in the repository\)/, 'the README names the example');
    assert.match(readme, /^npx tsx examples\/quickstart-messages\.ts /m, 'and how to run it');
    const petstore = await startTestServer();
    try {
      assertError(await call(petstore, 'POST', '/v1/messages', { headers: JSON_POST, body: '{"message":"x"}' }), 404, 'not_found');
      const page = await call(petstore, 'GET', '/v1/docs');
      assert.match(page.text, /<code>POST \/messages<\/code>/);
      assert.match(page.text, /<code>npx tsx examples\/quickstart-messages\.ts<\/code>/);
    } finally {
      await petstore.close();
    }
  });
});
