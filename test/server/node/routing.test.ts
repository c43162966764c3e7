import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import { createHandler } from '../../../server/node/index.js';
import { API_KEY, AUTH, JSON_POST, assertError, call, startTestServer } from '../../support/http.js';
import type { TestServer } from '../../support/http.js';
import { failingStorage } from '../../support/failing-storage.js';

describe('routing', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('an HTTP/1.1 request without Host is a 400', async () => {
    const { rawExchange, parseRawResponses } = await import('../../support/http.js');
    const text = await rawExchange(server.port, ['GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ' + API_KEY + '\r\n\r\n'], { until: /\}$/ });
    const [response] = parseRawResponses(text);
    assert.equal(response?.status, 400);
    assert.equal(JSON.parse(response?.body ?? '').code, 'bad_request');
  });

  test('an absolute-form request target is served like its origin form (RFC 9112 §3.2.2)', async () => {
    const { rawExchange, parseRawResponses } = await import('../../support/http.js');
    const rooted = await startTestServer({ plugins: [() => ({ rootRoutes: [{ path: '/', operation: 'root', answer: () => ({ status: 204, headers: [], body: '' }) }] })] });
    const requests = [
      `GET http://example.com/v1/pets?limit=1 HTTP/1.1\r\nHost: example.com\r\nAuthorization: Bearer ${API_KEY}\r\n\r\n`,
      `GET HTTP://EXAMPLE.COM:80/v2 HTTP/1.1\r\nHost: example.com\r\n\r\n`,
      `GET http://example.com HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n`,
    ];
    try {
      const responses = parseRawResponses(await rawExchange(rooted.port, requests));
      // The last one is `/`, answered by the route at the root.
      assert.deepEqual(responses.map((response) => response.status), [200, 404, 204]);
    } finally {
      await rooted.close();
    }
  });
});

describe('errors from the store', () => {
  test('an unexpected exception is a generic 500 whose detail goes to the log only, and serving goes on', async () => {
    const logged: unknown[] = [];
    const server = await startTestServer({ store: createPetstore({ storage: failingStorage(new Error('secret database detail')) }), logError: (error) => logged.push(error) });
    try {
      for (const [method, path, body] of [['GET', '/v1/pets', undefined], ['GET', '/v1/pets/1', undefined], ['POST', '/v1/pets', '{"name":"x","categoryId":1}']] as const) {
        const reply = await call(server, method, path, body === undefined ? { headers: AUTH } : { headers: JSON_POST, body });
        assertError(reply, 500, 'internal_error');
        assert.ok(!reply.text.includes('secret'));
      }
      assert.equal(logged.length, 3);
      assert.match(String(logged[0]), /secret database detail/);
      assertError(await call(server, 'GET', '/v1/pets'), 401, 'unauthorized');
    } finally {
      await server.close();
    }
  });
});

describe('createHandler() mounted in a host server', () => {
  let origin = '';
  let close: () => Promise<void> = async () => {};

  before(async () => {
    const store = createPetstore();
    const petstore = createHandler({ store, apiKeys: [API_KEY] });
    const mounted = createHandler({ store, apiKeys: [API_KEY], basePath: '' });
    const host = createServer((request, response) => {
      if (request.url === '/status') {
        response.end('host ok');
        return;
      }
      if (request.url?.startsWith('/api/')) {
        // What a framework does when it strips a mount prefix: the handler sees the rest.
        Object.assign(request, { originalUrl: request.url, url: request.url.slice('/api/v1'.length) });
        return mounted(request, response);
      }
      petstore(request, response, () => {
        response.statusCode = 418;
        response.end('host fallback');
      });
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => host.close(() => resolve()));
  });
  after(() => close());

  test('the handler serves /v1 beside the host\'s own routes', async () => {
    assert.equal((await call({ origin }, 'GET', '/status')).text, 'host ok');
    const created = await call({ origin }, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Mounted","categoryId":1}' });
    assert.equal(created.status, 201);
    assert.equal((await call({ origin }, 'GET', '/v1/pets/1', { headers: AUTH })).status, 200);
  });

  test('the handler passes requests outside its base path to next()', async () => {
    const reply = await call({ origin }, 'GET', '/elsewhere');
    assert.equal(reply.status, 418);
    assert.equal(reply.text, 'host fallback');
  });

  test('with basePath \'\' behind a mount prefix, Location and Link use the prefix the client sees', async () => {
    const created = await call({ origin }, 'POST', '/api/v1/pets', { headers: JSON_POST, body: '{"name":"Prefixed","categoryId":1}' });
    assert.equal(created.status, 201);
    assert.equal(created.headers['location'], '/api/v1/pets/2');
    const listed = await call({ origin }, 'GET', '/api/v1/pets?limit=1', { headers: AUTH });
    assert.equal(listed.headers['link'], '</api/v1/pets?limit=1&after=1>; rel="next"');
    const fetched = await call({ origin }, 'GET', '/api/v1/pets/2', { headers: AUTH });
    assert.equal(fetched.headers['link'], '</api/v1/pets>; rel="successor-version"');
  });

  test('createHandler() refuses a malformed basePath or bodyLimit', () => {
    const store = createPetstore();
    for (const basePath of ['v1', '/v1/']) assert.throws(() => createHandler({ store, apiKeys: [API_KEY], basePath }), TypeError);
    for (const bodyLimit of [0, -1, 1.5]) assert.throws(() => createHandler({ store, apiKeys: [API_KEY], bodyLimit }), TypeError);
  });
});
