import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { Answer } from './checks.js';
import type { Scenario } from './http.js';
import type { CapturedAnswer } from './servers/ceiling.js';
import { BENCH_KEY } from './servers/fixture.js';

/**
 * Sends one scenario's request, as wrk sends it (HTTP/1.1, keep-alive, the bench key when the
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

/**
 * Captures the project server's answer to each scenario, in the scenarios' order (so the create
 * comes after the reads, as in a round), each checked as the scenario checks every server.
 */
export async function captureAnswers(origin: string, scenarios: readonly Scenario[]): Promise<CapturedAnswer[]> {
  const captured: CapturedAnswer[] = [];
  for (const scenario of scenarios) {
    const answer = await requestAnswer(origin, scenario);
    try {
      scenario.check.verify(answer);
      scenario.check.verifyHeaders(answer);
    } catch (error) {
      throw new Error(`capture of the project's answers, ${scenario.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const request = { method: scenario.method, target: scenario.path, status: answer.status, rawHeaders: answer.rawHeaders, body: answer.body };
    captured.push(scenario.hasIdempotencyKey === true ? { ...request, hasIdempotencyKey: true } : request);
  }
  return captured;
}
