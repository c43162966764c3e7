import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { captureAnswers, checkSameHeaders, missingHeaders, requestAnswer } from '../../bench/checks.js';
import { SCENARIOS } from '../../bench/http.js';
import { createBaselineServer } from '../../bench/servers/baseline.js';
import { createCeilingServer, rawHeaderOf } from '../../bench/servers/ceiling.js';
import type { CapturedAnswer } from '../../bench/servers/ceiling.js';
import { createFastifyServer } from '../../bench/servers/fastify.js';
import { BENCH_KEY, prefillPets } from '../../bench/servers/fixture.js';
import { createPetstore } from '../../lib/index.js';
import { startServer } from '../../server/node/index.js';

/** The project's server on port 0 with the bench's 1,000 pets, its answers captured as the benchmark captures them. */
async function captureFromProject(): Promise<CapturedAnswer[]> {
  const store = createPetstore();
  for (const pet of prefillPets()) await store.createPet(pet);
  const running = await startServer({ store, apiKeys: [BENCH_KEY], port: 0 });
  try {
    return await captureAnswers(new URL(running.url).origin, SCENARIOS);
  } finally {
    running.server.closeIdleConnections();
    await running.close();
  }
}

async function listening(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const close = (): Promise<void> => {
    server.closeAllConnections();
    return new Promise<void>((closed) => server.close(() => closed()));
  };
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

describe('the bench capture and checks', () => {
  test('captureAnswers() takes each scenario\'s answer from the project\'s server, checked, with the headers as sent', async () => {
    const captured = await captureFromProject();
    assert.deepEqual(captured.map(({ method, target, status }) => `${method} ${target} ${status}`), [
      'GET /v1/pets?limit=20 200', 'GET /v1/pets?limit=100&status=available 200', 'GET /v1/pets/42 200', 'GET /v1/pets 401', 'POST /v1/pets 201', 'POST /v1/pets 201',
    ]);
    const [page, , pet, refused, created, createdWithKey] = captured;
    assert.deepEqual(captured.map((answer) => answer.hasIdempotencyKey === true), [false, false, false, false, false, true]);
    assert.equal(rawHeaderOf(createdWithKey?.rawHeaders ?? [], 'location'), '/v1/pets/1002', 'the create with a key stored a pet of its own');
    assert.equal(rawHeaderOf(createdWithKey?.rawHeaders ?? [], 'idempotent-replayed'), undefined);
    assert.equal(rawHeaderOf(page?.rawHeaders ?? [], 'link'), '</v1/pets?limit=20&after=20>; rel="next"');
    assert.equal(rawHeaderOf(pet?.rawHeaders ?? [], 'deprecation'), '@1767225600');
    assert.equal(rawHeaderOf(refused?.rawHeaders ?? [], 'www-authenticate'), 'Bearer realm="petstore"');
    assert.equal(rawHeaderOf(created?.rawHeaders ?? [], 'location'), '/v1/pets/1001');
    // A keep-alive request, as wrk's: the connection headers are the ones the project sends under load.
    assert.equal(rawHeaderOf(pet?.rawHeaders ?? [], 'connection'), 'keep-alive');
    for (const [index, scenario] of SCENARIOS.entries()) {
      assert.deepEqual(missingHeaders(scenario.check, { status: 0, rawHeaders: captured[index]?.rawHeaders ?? [], body: '' }), [], scenario.name);
    }
  });

  test('captureAnswers() stops at an answer its scenario\'s check refuses, naming the scenario', async () => {
    const served = await listening(createBaselineServer());
    try {
      const [firstScenario] = SCENARIOS;
      assert.ok(firstScenario !== undefined);
      await assert.rejects(captureAnswers(served.origin, [{ ...firstScenario, path: '/v1/pets?limit=19' }]), /capture of the project's answers, GET \/v1\/pets\?limit=20: the page is not the first 20 pets/);
    } finally {
      await served.close();
    }
  });

  test('both ceilings made from the capture pass every scenario\'s body check, and the same-headers one its header check too, with the project\'s headers', async () => {
    const captured = await captureFromProject();
    for (const headers of ['plain', 'same'] as const) {
      const served = await listening(createCeilingServer(captured, headers));
      try {
        for (const [index, scenario] of SCENARIOS.entries()) {
          const answer = await requestAnswer(served.origin, scenario);
          scenario.check.verify(answer);
          const projectAnswer = captured[index];
          assert.ok(projectAnswer !== undefined);
          if (headers === 'same') {
            scenario.check.verifyHeaders(answer);
            checkSameHeaders(projectAnswer, answer);
          } else {
            assert.deepEqual(missingHeaders(scenario.check, answer), scenario.check.optionalHeaders);
          }
        }
      } finally {
        await served.close();
      }
    }
  });

  test('the baseline and fastify servers of the benchmark pass every scenario\'s check', async () => {
    const baseline = await listening(createBaselineServer());
    const fastify = createFastifyServer();
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const origin of [baseline.origin, `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`]) {
        for (const scenario of SCENARIOS) {
          const answer = await requestAnswer(origin, scenario);
          scenario.check.verify(answer);
          scenario.check.verifyHeaders(answer);
        }
      }
    } finally {
      await baseline.close();
      await fastify.close();
    }
  });
});
