import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPetstore } from '../../lib/index.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { createCase } from './body-cases.js';
import { codeOf, exchangeProblems, FailureLog, jsonOf } from './checks.js';
import { countingStorage, createVerdict, prototypeSnapshot } from './oracle.js';
import { Random } from './prng.js';
import { requestBytes } from './requests.js';
import { ONLY_CASE, PROFILE, replayHint, report, SEED } from './settings.js';
import { comparable, exchange } from './wire.js';
import type { Delivery } from './wire.js';

const FILE = 'test/robustness/fuzz-bodies.test.ts';

/** Large enough that 100k keys and deep nesting reach the JSON parser and the validator instead of stopping at 413. */
const BIG_BODY_LIMIT = 4 * 1024 * 1024;

/** Requests up to this size are also sent one byte per write; larger ones in random small pieces. */
const BYTEWISE_MAX = 1_500;

/** Larger requests are not sent a second time: a megabyte in small pieces costs seconds and finds nothing new. */
const SPLIT_MAX = 65_536;

describe('POST /v1/pets under seeded fuzzing', () => {
  let server: TestServer;
  let counting: ReturnType<typeof countingStorage>;
  before(async () => {
    counting = countingStorage();
    server = await startTestServer({ store: createPetstore({ storage: counting.storage }), bodyLimit: BIG_BODY_LIMIT });
  });
  after(() => server.close());

  test(`POST /v1/pets answers every mutated body with 201 or an Error body, creates only on 201, and does not depend on how the bytes arrive (seed ${SEED})`, async () => {
    const failures = new FailureLog();
    const prototypeBefore = prototypeSnapshot();
    const splitEvery = Math.max(1, Math.floor(PROFILE.bodyCases / PROFILE.splitCases));
    let created = 0;
    let tried = 0;
    for (let index = 0; index < PROFILE.bodyCases; index++) {
      if (ONLY_CASE !== undefined && index !== ONLY_CASE) continue;
      tried++;
      const random = new Random(SEED, index);
      const fuzzed = createCase(random, API_KEY);
      const bytes = requestBytes({ method: 'POST', target: '/v1/pets', headers: fuzzed.headers, body: fuzzed.body, framing: fuzzed.framing }, random);
      const verdict = createVerdict(fuzzed.headers, fuzzed.body, { apiKey: API_KEY, bodyLimit: BIG_BODY_LIMIT });
      const problems: string[] = [];
      const insertsBefore = counting.inserts();
      const whole = await exchange(server.port, bytes, { methods: ['POST'] });
      problems.push(...exchangeProblems(whole, 'POST'));
      const response = whole.responses[0];
      if (response !== undefined) {
        if (response.status !== verdict.status) problems.push(`status ${response.status} (${codeOf(response)}), expected ${verdict.status}`);
        else if ('code' in verdict && codeOf(response) !== verdict.code) problems.push(`code ${codeOf(response)}, expected ${verdict.code}`);
        if (response.status === 201 && 'pet' in verdict) {
          created++;
          const body = jsonOf(response) as { id: number };
          const stored = await server.store.getPet(body.id).catch(() => undefined);
          if (JSON.stringify(stored) !== JSON.stringify({ id: body.id, ...verdict.pet })) problems.push(`stored ${JSON.stringify(stored)}, expected ${JSON.stringify(verdict.pet)}`);
          if (response.headers['location'] !== `/v1/pets/${body.id}`) problems.push(`Location ${response.headers['location']}`);
        }
      }
      const inserted = counting.inserts() - insertsBefore;
      if (inserted !== (response?.status === 201 ? 1 : 0)) problems.push(`${inserted} pets inserted for a ${response?.status ?? 'missing'} answer`);
      if (index % splitEvery === 0 && bytes.length <= SPLIT_MAX && problems.length === 0) {
        const delivery: Delivery = bytes.length <= BYTEWISE_MAX ? 'bytewise' : { pieces: random };
        const split = await exchange(server.port, bytes, { methods: ['POST'], delivery });
        problems.push(...exchangeProblems(split, 'POST'));
        if (comparable(split.responses[0]) !== comparable(response)) {
          problems.push(`${delivery === 'bytewise' ? 'one byte per write' : 'small pieces'} gave ${comparable(split.responses[0]).slice(0, 300)}, at once gave ${comparable(response).slice(0, 300)}`);
        }
        if (split.responses[0]?.status === 201) created++;
      }
      failures.add(index, fuzzed.description, problems, replayHint(FILE, index));
    }
    assert.equal(prototypeSnapshot(), prototypeBefore, 'no fuzzed body pollutes Object.prototype or Array.prototype');
    assert.equal(({} as Record<string, unknown>)['status'], undefined);
    report({ part: 'fuzz: POST bodies', cases: tried, failures: failures.count, note: `seed ${SEED}, ${created} created` });
    assert.equal(failures.count, 0, failures.toString());
    assert.equal(counting.inserts(), created, 'every insert was answered with a 201');
  });
});
