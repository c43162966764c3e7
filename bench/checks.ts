import { deepStrictEqual } from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { Scenario } from './http.js';
import type { CapturedAnswer } from './servers/ceiling.js';
import { rawHeaderOf } from './servers/ceiling.js';
import { BENCH_KEY, PREFILLED_PETS, prefillPets } from './servers/fixture.js';

/** One answer as a client received it: status, headers in the case and order sent, body text. */
export interface Answer {
  status: number;
  /** Flat `[name, value, …]` list, as node:http's `rawHeaders`. */
  rawHeaders: string[];
  body: string;
}

/** What a scenario's answer must be, and which of the project's headers are only recorded. */
export interface AnswerCheck {
  /** Throws, naming what is wrong, when the answer's status, `Content-Type` or body is not what a client of the scenario needs. */
  verify(answer: Answer): void;
  /** Throws when the answer lacks a header a client needs (`Location` on a create); asked of every server but the plain ceiling. */
  verifyHeaders(answer: Answer): void;
  /** Headers the project sends here that a client may read but the check does not require: a server without one is listed as differing. */
  optionalHeaders: readonly string[];
}

/** Headers the project sends on every answer: no caching, no sniffing, the request's id. */
const EVERY_ANSWER = ['Cache-Control', 'X-Content-Type-Options', 'X-Request-Id'] as const;

/** Shape of the project's request ids: a 16-character base64url prefix, `-`, a base-36 counter. */
const REQUEST_ID_SHAPE = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

/** An HTTP date in the IMF-fixdate form [RFC 9110 §5.6.7], as node:http writes `Date`. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

interface FixturePet { id: number; name: string; categoryId: number; status: string }

/** The pets every server starts with, with the ids they get (1 to 1,000 in order). */
const FIXTURE: readonly FixturePet[] = prefillPets().map((pet, index) => ({ id: index + 1, ...pet }));

function expectStatus(answer: Answer, status: number): void {
  if (answer.status !== status) throw new Error(`expected status ${status}, got ${answer.status} ${answer.body.slice(0, 300)}`);
}

/** Status, then a JSON `Content-Type`, then the body parsed. */
function jsonOf(answer: Answer, status: number): unknown {
  expectStatus(answer, status);
  const contentType = rawHeaderOf(answer.rawHeaders, 'content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) throw new Error(`expected a JSON Content-Type, got ${JSON.stringify(contentType)}`);
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new Error(`the body is not JSON: ${answer.body.slice(0, 300)}`);
  }
}

/** A check of an answer of this status with a JSON body that `verifyBody` accepts; no header required beyond `Content-Type` unless `verifyHeaders` says. */
function answerCheck(status: number, verifyBody: (body: unknown, answer: Answer) => void, optionalHeaders: readonly string[], verifyHeaders = (_answer: Answer): void => undefined): AnswerCheck {
  return { verify: (answer) => verifyBody(jsonOf(answer, status), answer), verifyHeaders, optionalHeaders };
}

/** A `listPets` page: 200, and exactly the first `limit` pets of the prefill (with `status` only, when given), in id order. */
export function pageCheck(limit: number, status?: string): AnswerCheck {
  const expected = FIXTURE.filter((pet) => status === undefined || pet.status === status).slice(0, limit);
  const message = `the page is not the first ${limit} pets${status === undefined ? '' : ` with status ${status}`}`;
  return answerCheck(200, (body) => deepStrictEqual(body, expected, message), [...EVERY_ANSWER, 'Link']);
}

/** A `getPet`: 200 and the prefilled pet of this id, field for field. */
export function petCheck(id: number): AnswerCheck {
  const expected = FIXTURE[id - 1];
  if (expected === undefined) throw new Error(`pet ${id} is not among the ${PREFILLED_PETS} prefilled pets`);
  return answerCheck(200, (body) => deepStrictEqual(body, expected, `the body is not pet ${id}`), [...EVERY_ANSWER, 'Deprecation', 'Sunset', 'Link']);
}

/** A rejection: this status and an Error body, `{code, message, status}` with the same status [spec 7]. */
export function errorCheck(status: number): AnswerCheck {
  return answerCheck(status, (body, answer) => {
    const isError = typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string'
      && 'message' in body && typeof body.message === 'string' && 'status' in body && body.status === status;
    if (!isError) throw new Error(`the body is not an Error body with status ${status}: ${answer.body.slice(0, 300)}`);
  }, status === 401 ? [...EVERY_ANSWER, 'WWW-Authenticate'] : EVERY_ANSWER);
}

/** The id of a created pet: a safe integer above the prefill's ids. */
function createdIdOf(answer: Answer): number {
  const body = jsonOf(answer, 201);
  const id = typeof body === 'object' && body !== null && 'id' in body ? body.id : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= PREFILLED_PETS) throw new Error(`the created pet has no new integer id: ${answer.body}`);
  return id;
}

/** A `createPet`: 201, the sent fields with a new id above the prefill's, and `Location` naming that pet, which a client needs [RFC 9110 §15.3.2]. */
export function createdCheck(sent: { name: string; categoryId: number; status: string }): AnswerCheck {
  return answerCheck(201, (body, answer) => deepStrictEqual(body, { id: createdIdOf(answer), ...sent }, 'the created pet is not the one sent'), EVERY_ANSWER, (answer) => {
    const location = rawHeaderOf(answer.rawHeaders, 'location');
    if (location !== `/v1/pets/${createdIdOf(answer)}`) throw new Error(`expected Location /v1/pets/${createdIdOf(answer)}, got ${String(location)}`);
  });
}

/** The optional headers of a check that an answer lacks. */
export function missingHeaders(check: AnswerCheck, answer: Answer): string[] {
  return check.optionalHeaders.filter((name) => rawHeaderOf(answer.rawHeaders, name.toLowerCase()) === undefined);
}

/**
 * Checks that the same-headers ceiling answered exactly what the project's server did: the same
 * status, body and headers, names in the same case and order, the same values except the two that
 * change per request, `X-Request-Id` (the project's shape; its counter goes on from the captured
 * ids, so it grows in length as the project's does under the same load) and `Date` (an HTTP date).
 */
export function checkSameHeaders(captured: CapturedAnswer, answer: Answer): void {
  expectStatus(answer, captured.status);
  if (answer.body !== captured.body) throw new Error(`the body differs from the project's: ${answer.body.slice(0, 300)}`);
  const names = (headers: readonly string[]): string[] => headers.filter((_, index) => index % 2 === 0);
  deepStrictEqual(names(answer.rawHeaders), names(captured.rawHeaders), 'the header names differ from the project\'s');
  for (let index = 1; index < answer.rawHeaders.length; index += 2) {
    const name = (answer.rawHeaders[index - 1] as string).toLowerCase();
    const value = answer.rawHeaders[index] as string;
    const projectValue = captured.rawHeaders[index] as string;
    const isSame = name === 'x-request-id' ? REQUEST_ID_SHAPE.test(value)
      : name === 'date' ? HTTP_DATE.test(value)
        : value === projectValue;
    if (!isSame) throw new Error(`header ${name}: the project sent ${JSON.stringify(projectValue)}, the ceiling ${JSON.stringify(value)}`);
  }
}

/**
 * Sends one scenario's request as wrk sends it (HTTP/1.1, keep-alive, the bench key when the
 * scenario is authenticated, a fresh idempotency key when it has one), and gives the answer with its
 * headers as they came on the wire.
 */
export function requestAnswer(origin: string, scenario: Scenario): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (scenario.isAuthenticated) headers['Authorization'] = `Bearer ${BENCH_KEY}`;
  if (scenario.body !== undefined) headers['Content-Type'] = 'application/json';
  if (scenario.hasIdempotencyKey === true) headers['Idempotency-Key'] = `"${randomUUID()}"`;
  // A keep-alive agent, as wrk keeps its connections: without one, the server would answer `Connection: close`.
  const agent = new Agent({ keepAlive: true });
  return new Promise<Answer>((done, fail) => {
    const request = httpRequest(`${origin}${scenario.path}`, { method: scenario.method, headers, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('error', fail);
      response.on('end', () => done({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body }));
    });
    request.on('error', fail);
    request.end(scenario.body);
  }).finally(() => agent.destroy());
}

/** Sends a scenario's request and checks the answer as the scenario checks every server (`isHeaderChecked`: its headers too), naming `who` when it fails. */
export async function checkedAnswer(origin: string, scenario: Scenario, who: string, isHeaderChecked = true): Promise<Answer> {
  const answer = await requestAnswer(origin, scenario);
  try {
    scenario.check.verify(answer);
    if (isHeaderChecked) scenario.check.verifyHeaders(answer);
  } catch (error) {
    throw new Error(`${who}, ${scenario.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return answer;
}

/** The project server's answer to each scenario, in the scenarios' order (the create after the reads, as in a round), each checked. */
export async function captureAnswers(origin: string, scenarios: readonly Scenario[]): Promise<CapturedAnswer[]> {
  const captured: CapturedAnswer[] = [];
  for (const scenario of scenarios) {
    const { status, rawHeaders, body } = await checkedAnswer(origin, scenario, 'capture of the project\'s answers');
    captured.push({ method: scenario.method, target: scenario.path, status, rawHeaders, body, ...(scenario.hasIdempotencyKey === true ? { hasIdempotencyKey: true } : {}) });
  }
  return captured;
}
