import type { Answer, SentRequest } from './exchange.js';
import type { Departure } from './json-schema.js';
import { asSpecPet, departuresFromSpec, SPEC_MEDIA_TYPE } from './spec.js';
import type { SpecError, SpecPet, SpecShape } from './spec.js';
import type { FailureReport } from './types.js';

/** A check's verdict that the server departs from what the check expects. */
export class CheckFailure extends Error {
  readonly report: FailureReport;
  constructor(report: FailureReport) {
    super(`expected ${report.expected}; received ${report.received}`);
    this.name = 'CheckFailure';
    this.report = report;
  }
}

/** A check could not be run: something it needs (a pet this run created) could not be had. */
export class CheckSkipped extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

/** Longest excerpt of a body in a report. */
const EXCERPT_LENGTH = 200;

/** Text cut to `length` characters, on one line. */
export function excerpt(text: string, length = EXCERPT_LENGTH): string {
  const line = text.replace(/[\r\n\t]+/g, ' ');
  return line.length > length ? `${line.slice(0, length - 3)}...` : line;
}

/** A request in one line: method, path and query, the headers that matter, the body. */
export function describeRequest(request: SentRequest): string {
  const url = new URL(request.url);
  const headers = request.shownHeaders.length === 0 ? ' (no Authorization)' : ` (${request.shownHeaders.join(', ')})`;
  return `${request.method} ${url.pathname}${url.search}${headers}${request.body === undefined ? '' : ` ${excerpt(request.body, 120)}`}`;
}

/** An answer in one line: status, the named headers (Content-Type always), the body. */
export function describeAnswer(answer: Answer, headerNames: readonly string[] = []): string {
  const headers = ['Content-Type', ...headerNames].map((name) => {
    const value = answer.headers.get(name);
    return value === null ? `no ${name}` : `${name}: ${excerpt(value, 100)}`;
  });
  return `${answer.status} (${headers.join(', ')})${answer.text.length === 0 ? ' no body' : ` ${excerpt(answer.text)}`}`;
}

/** The first few departures in one line. */
export function describeDepartures(departures: readonly Departure[]): string {
  const shown = departures.slice(0, 3).map((departure) => `${departure.location} ${departure.message}`);
  return departures.length > 3 ? `${shown.join('; ')}; and ${departures.length - 3} more` : shown.join('; ');
}

/** Fails the check on this answer. */
export function fail(answer: Answer, expected: string, received = describeAnswer(answer)): never {
  throw new CheckFailure({ sent: describeRequest(answer.request), expected, received });
}

/** Whether a `Content-Type` is `application/json` [spec 1], parameters allowed (RFC 9110 §8.3.1). */
export function isJsonContentType(value: string | null): boolean {
  return value !== null && value.split(';')[0]?.trim().toLowerCase() === SPEC_MEDIA_TYPE;
}

/** The answer has this status. */
export function expectStatus(answer: Answer, status: number, expected: string): void {
  if (answer.status !== status) fail(answer, expected);
}

/** The answer's body is JSON of a shape of spec 2, sent as `application/json` [spec 1]. */
export function expectShape(answer: Answer, shape: SpecShape, expected: string): void {
  if (!isJsonContentType(answer.headers.get('content-type'))) fail(answer, `${expected}, as ${SPEC_MEDIA_TYPE} [spec 1]`);
  if (answer.json === undefined) fail(answer, `${expected}: a JSON body`);
  const departures = departuresFromSpec(shape, answer.json);
  if (departures.length > 0) fail(answer, expected, `${answer.status} with ${describeDepartures(departures)}: ${excerpt(answer.text)}`);
}

/** The answer is an error with this status and the Error body, whose `status` is the HTTP status [spec 2, 7]. */
export function expectError(answer: Answer, status: number, why: string): SpecError {
  const expected = `${status} with the Error body (${why})`;
  expectStatus(answer, status, expected);
  expectShape(answer, 'Error', expected);
  const body = answer.json as SpecError;
  if (body.status !== answer.status) fail(answer, `${expected}, whose status is ${answer.status} [spec 2]`, `status ${body.status} in the body of a ${answer.status}: ${excerpt(answer.text)}`);
  return body;
}

/** The answer is the Error body with this status and this code; resolves to the line a passing check reports. */
export function expectErrorCode(answer: Answer, status: number, code: string, why: string): string {
  const error = expectError(answer, status, why);
  if (error.code !== code) fail(answer, `${status} with code ${code}`);
  return `${status} ${code}`;
}

/** The answer is a Pet with this status [spec 2]. */
export function expectPet(answer: Answer, status: number, expected: string): SpecPet {
  expectStatus(answer, status, expected);
  expectShape(answer, 'Pet', expected);
  return asSpecPet(answer.json) as SpecPet;
}

/** The answer is a 200 with a JSON array of Pets [spec 2, 4.1]. */
export function expectPets(answer: Answer, expected: string): readonly SpecPet[] {
  expectStatus(answer, 200, expected);
  expectShape(answer, 'Pets', expected);
  return (answer.json as readonly unknown[]).map((pet) => asSpecPet(pet) as SpecPet);
}

/** The pet has exactly the fields sent, plus its id [spec 4.2: the Pet echoes the NewPet]. */
export function echoes(pet: SpecPet, sent: { name: string; categoryId: number; status?: string }): boolean {
  return pet.name === sent.name && pet.categoryId === sent.categoryId && (sent.status === undefined || pet.status === sent.status);
}
