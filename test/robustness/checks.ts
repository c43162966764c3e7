import { ERROR_CODES } from '../../lib/index.js';
import { JSON_HEADERS } from '../../server/core/response.js';
import type { WireExchange, WireResponse } from './wire.js';

/** The common JSON headers every error answer carries, by lower-case name as the wire parser keys them. */
const EXPECTED_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  Array.from({ length: JSON_HEADERS.length / 2 }, (_, index) => [(JSON_HEADERS[2 * index] as string).toLowerCase(), JSON_HEADERS[2 * index + 1] as string]),
);

/** The problems of a response that break a property every response must keep (empty when none). */
export function responseProblems(response: WireResponse, method: string): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`answered ${response.status}`);
  if (response.status >= 400) {
    for (const [name, value] of Object.entries(EXPECTED_HEADERS)) {
      if (response.headers[name] !== value) problems.push(`${response.status} without \`${name}: ${value}\` (got ${JSON.stringify(response.headers[name])})`);
    }
    if (method !== 'HEAD') problems.push(...errorBodyProblems(response));
  }
  return problems;
}

/** The problems of a 4xx body as the Error shape [spec 2, 7]: `code`, `message`, and `status` equal to the HTTP status. */
function errorBodyProblems(response: WireResponse): string[] {
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return [`${response.status} body is not JSON: ${JSON.stringify(response.body.toString('latin1').slice(0, 120))}`];
  }
  if (typeof body !== 'object' || body === null) return [`${response.status} body is not an object`];
  const code: unknown = Reflect.get(body, 'code');
  const message: unknown = Reflect.get(body, 'message');
  const status: unknown = Reflect.get(body, 'status');
  const problems: string[] = [];
  if (typeof code !== 'string' || !Object.hasOwn(ERROR_CODES, code)) problems.push(`unknown error code ${JSON.stringify(code)}`);
  else if (ERROR_CODES[code as keyof typeof ERROR_CODES] !== response.status) problems.push(`code ${code} sent with status ${response.status}`);
  if (typeof message !== 'string' || message.length === 0) problems.push('the Error body has no message');
  if (status !== response.status) problems.push(`Error body status ${JSON.stringify(status)} differs from HTTP status ${response.status}`);
  return problems;
}

/** The problems of an exchange of one well-framed request: one answer, no reset, no hang. */
export function exchangeProblems(exchange: WireExchange, method: string): string[] {
  const problems: string[] = [];
  if (exchange.isTimedOut) problems.push('no answer in time');
  if (exchange.isResetEarly) problems.push('connection reset before the answer');
  const [response] = exchange.responses;
  if (response === undefined) {
    if (!exchange.isTimedOut && !exchange.isResetEarly) problems.push(`connection closed without an answer (received ${JSON.stringify(exchange.leftover.slice(0, 120))})`);
    return problems;
  }
  problems.push(...responseProblems(response, method));
  return problems;
}

/** The JSON body of a response, or undefined when it is not JSON. */
export function jsonOf(response: WireResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The Error code of a response, if it has one. */
export function codeOf(response: WireResponse): string | undefined {
  const body = jsonOf(response);
  if (typeof body !== 'object' || body === null) return undefined;
  const code: unknown = Reflect.get(body, 'code');
  return typeof code === 'string' ? code : undefined;
}

/** Collects failures of a fuzzing run, keeping the first few in full. */
export class FailureLog {
  readonly #shown: string[] = [];
  #count = 0;

  /** Records the problems of one case, if any. */
  add(caseIndex: number, description: string, problems: readonly string[], hint: string): void {
    if (problems.length === 0) return;
    this.#count++;
    if (this.#shown.length < 10) this.#shown.push(`case ${caseIndex} (${description}): ${problems.join('; ')}\n    ${hint}`);
  }

  get count(): number {
    return this.#count;
  }

  /** A readable summary for an assertion message. */
  toString(): string {
    return `${this.#count} failing cases; first ones:\n  ${this.#shown.join('\n  ')}`;
  }
}
