import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPetstore, PET_STATUSES } from '../../lib/index.js';
import type { Pet } from '../../lib/index.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import type { TestServer } from '../support/standalone-http.js';
import { codeOf, exchangeProblems, FailureLog, jsonOf } from './checks.js';
import { countingStorage, prototypeSnapshot } from './oracle.js';
import { Random } from './prng.js';
import { requestBytes } from './requests.js';
import { ONLY_CASE, PROFILE, replayHint, report, SEED } from './settings.js';
import { queryCase, queryVerdict, targetCase, targetVerdict } from './target-cases.js';
import type { TargetVerdict } from './target-cases.js';
import { comparable, exchange } from './wire.js';
import type { WireExchange, WireResponse } from './wire.js';

const FILE = 'test/robustness/fuzz-targets.test.ts';

/** Pets in the store before fuzzing: enough for several pages, with every status and none. */
const SEEDED_PETS = 150;

/** The problems of a response measured against the verdict of the interface's rules. */
function verdictProblems(response: WireResponse, method: string, verdict: TargetVerdict): string[] {
  const accepted = [verdict, ...(verdict.orElse === undefined ? [] : [verdict.orElse])];
  const match = accepted.find((candidate) => candidate.status === response.status && (candidate.code === undefined || method === 'HEAD' || candidate.code === codeOf(response)));
  if (match === undefined) return [`answered ${response.status} ${codeOf(response) ?? ''}, expected ${accepted.map((candidate) => `${candidate.status} ${candidate.code ?? ''}`).join(' or ')}`];
  const problems: string[] = [];
  if (match.page !== undefined) {
    if (method !== 'HEAD') {
      const body = jsonOf(response);
      const ids = Array.isArray(body) ? body.map((pet: Pet) => pet.id) : body;
      if (JSON.stringify(ids) !== JSON.stringify(match.page.ids)) problems.push(`listed ${JSON.stringify(ids)}, expected ${JSON.stringify(match.page.ids)}`);
    }
    if ((response.headers['link'] !== undefined) !== match.page.hasNext) problems.push(`Link ${JSON.stringify(response.headers['link'])} but a next page ${match.page.hasNext ? 'exists' : 'does not exist'}`);
  }
  if (match.petId !== undefined) {
    if (method !== 'HEAD' && (jsonOf(response) as Pet | undefined)?.id !== match.petId) problems.push(`returned ${response.body.toString('utf8').slice(0, 100)}, expected pet ${match.petId}`);
    if (response.headers['sunset'] === undefined || response.headers['deprecation'] === undefined) problems.push('getPet answered without Deprecation and Sunset');
  }
  return problems;
}

describe('request targets under seeded fuzzing', () => {
  let server: TestServer;
  let counting: ReturnType<typeof countingStorage>;
  let pets: Pet[];
  before(async () => {
    counting = countingStorage();
    server = await startTestServer({ store: createPetstore({ storage: counting.storage }) });
    pets = [];
    for (let index = 0; index < SEEDED_PETS; index++) {
      const status = index % 4 === 3 ? undefined : PET_STATUSES[index % 4];
      pets.push(await server.store.createPet({ name: `Pet ${index}`, categoryId: index % 7, ...(status === undefined ? {} : { status }) }));
    }
  });
  after(() => server.close());

  /** Sends one request at once (and, for some, one byte per write), checking every property; returns the problems. */
  async function tryRequest(bytes: Buffer, method: string, verdict: TargetVerdict, isSplit: boolean): Promise<{ problems: string[]; whole: WireExchange }> {
    const insertsBefore = counting.inserts();
    const whole = await exchange(server.port, bytes, { methods: [method] });
    const problems = exchangeProblems(whole, method);
    const response = whole.responses[0];
    if (response !== undefined) problems.push(...verdictProblems(response, method, verdict));
    const inserted = counting.inserts() - insertsBefore;
    if (inserted !== (response?.status === 201 ? 1 : 0)) problems.push(`${inserted} pets inserted for a ${response?.status ?? 'missing'} answer`);
    if (isSplit && problems.length === 0 && bytes.length <= 4_096) {
      const split = await exchange(server.port, bytes, { methods: [method], delivery: 'bytewise' });
      problems.push(...exchangeProblems(split, method));
      if (comparable(split.responses[0]) !== comparable(response)) problems.push(`one byte per write gave ${comparable(split.responses[0]).slice(0, 300)}, at once gave ${comparable(response).slice(0, 300)}`);
    }
    return { problems, whole };
  }

  test(`GET /v1/pets answers every fuzzed query string with the page the rules give or a 400 Error body (seed ${SEED})`, async () => {
    const failures = new FailureLog();
    const splitEvery = Math.max(1, Math.floor(PROFILE.queryCases / (PROFILE.splitCases / 2)));
    let tried = 0;
    for (let index = 0; index < PROFILE.queryCases; index++) {
      if (ONLY_CASE !== undefined && index !== ONLY_CASE) continue;
      tried++;
      const random = new Random(SEED, 1_000_000 + index);
      const query = queryCase(random);
      const method = random.chance(0.1) ? 'HEAD' : 'GET';
      const bytes = requestBytes({ method, target: `/v1/pets?${query}`, headers: [['Authorization', `Bearer ${API_KEY}`]] });
      const { problems } = await tryRequest(bytes, method, queryVerdict(query, pets), index % splitEvery === 0);
      failures.add(index, `${method} /v1/pets?${JSON.stringify(query.slice(0, 200))}`, problems, replayHint(FILE, index));
    }
    report({ part: 'fuzz: query strings', cases: tried, failures: failures.count, note: `seed ${SEED}` });
    assert.equal(failures.count, 0, failures.toString());
  });

  test(`the server answers every fuzzed method and request target as the routing rules say, never 5xx (seed ${SEED})`, async () => {
    const failures = new FailureLog();
    const prototypeBefore = prototypeSnapshot();
    const existing = new Set(pets.map((pet) => pet.id));
    const knownIds = [...existing];
    const splitEvery = Math.max(1, Math.floor(PROFILE.pathCases / (PROFILE.splitCases / 2)));
    let tried = 0;
    for (let index = 0; index < PROFILE.pathCases; index++) {
      if (ONLY_CASE !== undefined && index !== ONLY_CASE) continue;
      tried++;
      const random = new Random(SEED, 2_000_000 + index);
      const fuzzed = targetCase(random, API_KEY, knownIds);
      const headers: [string, string][] = fuzzed.authorization === undefined ? [] : [['Authorization', fuzzed.authorization]];
      const body = fuzzed.method === 'POST' ? Buffer.from(`{"name":"Target ${index}","categoryId":${index}}`) : undefined;
      if (body !== undefined) headers.push(['Content-Type', 'application/json']);
      const bytes = requestBytes({ method: fuzzed.method, target: fuzzed.target, headers, ...(body === undefined ? {} : { body }) });
      const { problems, whole } = await tryRequest(bytes, fuzzed.method, targetVerdict(fuzzed, API_KEY, existing), index % splitEvery === 0);
      const response = whole.responses[0];
      if (response?.status === 201) existing.add((jsonOf(response) as Pet).id);
      failures.add(index, `${fuzzed.method} ${JSON.stringify(fuzzed.target.slice(0, 200))}`, problems, replayHint(FILE, index));
    }
    assert.equal(prototypeSnapshot(), prototypeBefore);
    report({ part: 'fuzz: paths and methods', cases: tried, failures: failures.count, note: `seed ${SEED}` });
    assert.equal(failures.count, 0, failures.toString());
  });
});
