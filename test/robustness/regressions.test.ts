import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { API_KEY, AUTH, assertError, call, parseRawResponses, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';

// One test per defect the robustness suite found, named after the behaviour it pins down.
describe('defects found by the robustness suite', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('getPet answers 404 not_found for a decimal petId too long for a number (310+ digits), not 400', async () => {
    for (const id of [`1${'0'.repeat(309)}`, `-${'9'.repeat(400)}`, '7'.repeat(5_000)]) {
      const reply = await call(server, 'GET', `/v1/pets/${id}`, { headers: AUTH });
      assertError(reply, 404, 'not_found', /was not found/);
      assert.equal(reply.headers['sunset'], 'Thu, 05 Dec 2030 00:00:00 GMT');
    }
  });

  test('close() answers a request arriving on an idle keep-alive connection with Connection: close instead of resetting it', async () => {
    const closing = await startTestServer();
    const socket = connect(closing.port, '127.0.0.1');
    let received = '';
    const ended = new Promise<string>((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(`${received}<${error.code}>`));
      socket.on('close', () => resolve(received));
    });
    const request = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\n\r\n`;
    await new Promise<void>((resolve) => {
      socket.once('data', (data: Buffer) => {
        received += data.toString('latin1');
        resolve();
      });
      socket.write(request);
    });
    socket.on('data', (data: Buffer) => { received += data.toString('latin1'); });
    // The connection is idle now; shutdown begins just as the client sends its next request.
    const closed = closing.close();
    socket.write(request);
    const text = await ended;
    await closed;
    const responses = parseRawResponses(text);
    assert.deepEqual(responses.map((response) => response.status), [200, 200], text);
    assert.equal(responses[1]?.headers['connection'], 'close');
  });

  test('an answer given before a body is read says Connection the same way however the bytes arrive (fuzz seed 2262401466, case 480)', async () => {
    // Closing after a 415 once depended on whether the chunked body had fully arrived; replaying the
    // fuzz case that found it runs the fuzzer's own arrival-independence check on exactly that body.
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { resolve } = await import('node:path');
    const root = resolve(import.meta.dirname, '..', '..');
    // Without the parent runner's NODE_TEST_CONTEXT, the child reports in plain TAP instead of to the parent.
    const { NODE_TEST_CONTEXT: _parent, ...inherited } = process.env;
    const env = { ...inherited, PETSTORE_FUZZ_SEED: '2262401466', PETSTORE_FUZZ_CASE: '480' };
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--test', '--test-reporter', 'tap', 'test/robustness/fuzz-bodies.test.ts'], { cwd: root, env });
    assert.match(stdout, /^# fail 0$/m);
  });
});
