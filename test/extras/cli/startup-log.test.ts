import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { test } from 'node:test';
import { boundAddress } from '../../../extras/cli/serve.js';
import { createStartupLog, humanLine } from '../../../extras/cli/startup-log.js';

const now = (): Date => new Date('2026-01-02T03:04:05.678Z');

test('createStartupLog() holds the events of the start and writes them as JSON lines once released, then every later one at once', () => {
  const written: string[] = [];
  const startup = createStartupLog({ level: 'info', write: (line) => written.push(line), now });
  startup.log({ level: 'info', msg: 'Storage opened', storage: 'memory' });
  startup.log({ level: 'debug', msg: 'Below the level' });
  assert.equal(written.length, 0);
  startup.release();
  startup.log({ level: 'info', msg: 'Server listening', port: 80 });
  assert.deepEqual(written, [
    '{"time":"2026-01-02T03:04:05.678Z","level":"info","msg":"Storage opened","storage":"memory"}\n',
    '{"time":"2026-01-02T03:04:05.678Z","level":"info","msg":"Server listening","port":80}\n',
  ]);
});

test('createStartupLog() abandoned gives the held warnings and errors, within the level, as human-readable lines and writes nothing', () => {
  const written: string[] = [];
  const startup = createStartupLog({ level: 'warn', write: (line) => written.push(line), now });
  startup.log({ level: 'info', msg: 'API keys loaded', keys: 1 });
  startup.log({ level: 'warn', msg: 'Storage note', storage: 'file', note: 'a torn final record was cut' });
  assert.deepEqual(startup.abandon(), ['petstore-reference: warning: Storage note (storage: file, note: a torn final record was cut)\n']);
  assert.equal(written.length, 0);
  const quiet = createStartupLog({ level: 'error', write: (line) => written.push(line), now });
  quiet.log({ level: 'warn', msg: 'Storage note', note: 'left out' });
  assert.deepEqual(quiet.abandon(), []);
});

test('humanLine() writes an event without fields as its level and message, and other values as JSON', () => {
  assert.equal(humanLine({ level: 'error', msg: 'Failed' }), 'petstore-reference: error: Failed\n');
  assert.equal(humanLine({ level: 'warn', msg: 'Keys', keys: 2, mode: '0644', requestId: 'left-out' }), 'petstore-reference: warning: Keys (keys: 2, mode: 0644)\n');
});

test('boundAddress() gives the port the socket is bound to, 80 included, which a URL leaves out', () => {
  const on = (address: ReturnType<Server['address']>): Pick<Server, 'address'> => ({ address: () => address });
  const server = (address: ReturnType<Server['address']>): Server => Object.assign(Object.create(null) as Server, on(address));
  assert.deepEqual(boundAddress({ url: 'http://127.0.0.1/v1', server: server({ address: '127.0.0.1', family: 'IPv4', port: 80 }) }), { address: '127.0.0.1', port: 80 });
  assert.deepEqual(boundAddress({ url: 'http://[::1]:8080/v1', server: server({ address: '::1', family: 'IPv6', port: 8080 }) }), { address: '::1', port: 8080 });
  assert.deepEqual(boundAddress({ url: 'http://127.0.0.1/v1', server: server(null) }), { address: '127.0.0.1', port: 80 });
});
