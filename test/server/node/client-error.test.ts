import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { describe, test } from 'node:test';
import { handleClientError } from '../../../server/node/standalone/client-error.js';

/** A connected pair of sockets over loopback: the server's side, and what its client receives until the server ends or cuts it. */
async function connectedPair(): Promise<{ server: Socket; received: Promise<{ text: string; errorCode: string | undefined }>; close: () => void }> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  const client = connect((listener.address() as AddressInfo).port, '127.0.0.1');
  const received = new Promise<{ text: string; errorCode: string | undefined }>((resolve) => {
    let text = '';
    let errorCode: string | undefined;
    client.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    client.on('error', (error: NodeJS.ErrnoException) => (errorCode = error.code));
    // The server half-closes after its answer; the client then ends its side, as HTTP clients do.
    client.on('end', () => client.end());
    client.on('close', () => resolve({ text, errorCode }));
  });
  const server = await accepted;
  return { server, received, close: () => { client.destroy(); listener.close(); } };
}

const PARSE_ERROR = Object.assign(new Error('Parse Error: Invalid method encountered'), { code: 'HPE_INVALID_METHOD' });

describe('handleClientError()', () => {
  test('handleClientError() answers a parse error with a 400 Error body when no response on the connection has begun', async () => {
    const pair = await connectedPair();
    try {
      const response = new ServerResponse(new IncomingMessage(pair.server));
      // As Node's server does for the answer that holds the connection.
      response.assignSocket(pair.server);
      handleClientError(PARSE_ERROR, pair.server, response);
      const { text } = await pair.received;
      assert.match(text, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(text, /"code":"bad_request"/);
    } finally {
      pair.close();
    }
  });

  test('handleClientError() cuts the connection, writing nothing, when a response on it has begun and not finished', async () => {
    const pair = await connectedPair();
    try {
      const response = new ServerResponse(new IncomingMessage(pair.server));
      // As Node's server does for the answer that holds the connection.
      response.assignSocket(pair.server);
      response.writeHead(200, { 'content-type': 'application/json' });
      handleClientError(PARSE_ERROR, pair.server, response);
      assert.equal(pair.server.destroyed, true);
      const { text } = await pair.received;
      assert.equal(text, '', 'no answer is written into the one already begun');
    } finally {
      pair.close();
    }
  });

  test('handleClientError() cuts the connection, writing nothing, when the latest response waits behind another: a 400 would read as the earlier answer', async () => {
    const pair = await connectedPair();
    try {
      const holding = new ServerResponse(new IncomingMessage(pair.server));
      holding.assignSocket(pair.server);
      handleClientError(PARSE_ERROR, pair.server, new ServerResponse(new IncomingMessage(pair.server)));
      assert.equal(pair.server.destroyed, true);
      assert.equal((await pair.received).text, '');
    } finally {
      pair.close();
    }
  });
});
