import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFetchHandler } from '../../../server/fetch/index.js';
import { startServer } from '../../../server/node/index.js';
import { inject } from '../../../server/testing/index.js';
import type { InjectResponse } from '../../../server/testing/index.js';
import { API_KEY } from '../../support/http.js';
import { bodyBytes, createPrefilledStore, PARITY_CASES, wireHeaders } from '../../support/parity-cases.js';
import type { ParityCase } from '../../support/parity-cases.js';
import { assertSameAnswer, sendRequest } from '../../support/runtimes.js';
import type { WireAnswer } from '../../support/runtimes.js';

/** The node:http server's answer over a real socket, from a server of its own over a fresh prefilled store. */
async function answerOfNodeServer(parityCase: ParityCase): Promise<WireAnswer> {
  const running = await startServer({ store: await createPrefilledStore(), apiKeys: [API_KEY], port: 0 });
  try {
    const body = bodyBytes(parityCase);
    const request = { method: parityCase.method, path: parityCase.path, headers: wireHeaders(parityCase) };
    return await sendRequest(new URL(running.url).origin, body === undefined ? request : { ...request, body });
  } finally {
    await running.close();
  }
}

/** The fetch handler's answer, called directly with a `Request` carrying what the wire would. */
async function answerOfFetchHandler(parityCase: ParityCase): Promise<WireAnswer> {
  const handler = createFetchHandler({ store: await createPrefilledStore(), apiKeys: [API_KEY] });
  const init: RequestInit = { method: parityCase.method, headers: wireHeaders(parityCase) };
  const body = bodyBytes(parityCase);
  if (body !== undefined) init.body = body;
  const response = await handler(new Request(`http://127.0.0.1${parityCase.path}`, init));
  return { status: response.status, headers: [...response.headers], body: Buffer.from(await response.arrayBuffer()) };
}

function wireAnswerOf(answer: InjectResponse): WireAnswer {
  return { status: answer.status, headers: Object.entries(answer.headers), body: Buffer.from(answer.body, 'utf8') };
}

/** inject()'s answers, given the case as a consumer's test would write it: with handler options, and with a fetch handler. */
async function answersOfInject(parityCase: ParityCase): Promise<{ options: WireAnswer; fetchHandler: WireAnswer }> {
  const request = { method: parityCase.method, url: parityCase.path, headers: parityCase.headers ?? {} };
  const withBody = parityCase.body === undefined ? request : { ...request, body: parityCase.body };
  const options = await inject({ store: await createPrefilledStore(), apiKeys: [API_KEY] }, withBody);
  const fetchHandler = await inject(createFetchHandler({ store: await createPrefilledStore(), apiKeys: [API_KEY] }), withBody);
  return { options: wireAnswerOf(options), fetchHandler: wireAnswerOf(fetchHandler) };
}

describe('createFetchHandler() and inject() against the node:http server', () => {
  test('the parity table covers every status the interface answers a request with', () => {
    assert.ok(PARITY_CASES.length >= 40);
    assert.equal(new Set(PARITY_CASES.map((parityCase) => parityCase.name)).size, PARITY_CASES.length, 'case names are unique');
  });

  for (const parityCase of PARITY_CASES) {
    const request = `${parityCase.method} ${parityCase.path} (${parityCase.name})`;
    test(`createFetchHandler() and inject() answer ${request} as the node:http server does`, async () => {
      const expected = await answerOfNodeServer(parityCase);
      assertSameAnswer(await answerOfFetchHandler(parityCase), expected, 'createFetchHandler()');
      const injected = await answersOfInject(parityCase);
      assertSameAnswer(injected.options, expected, 'inject(options)');
      assertSameAnswer(injected.fetchHandler, expected, 'inject(fetchHandler)');
    });
  }
});
