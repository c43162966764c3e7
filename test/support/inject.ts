import { createPetstore } from '../../lib/index.js';
import type { Petstore } from '../../lib/index.js';
import { inject } from '../../server/testing/index.js';
import type { InjectTarget } from '../../server/testing/index.js';
import { API_KEY } from './http.js';
import type { CallOptions, Reply } from './http.js';

/** The handler options inject takes: every option of the request core a test may set. */
export type CoreOptions = Exclude<InjectTarget, (request: Request) => Promise<Response>>;

/** The request core of one test, reached through inject: its options and its own in-memory store. */
export interface TestCore {
  options: CoreOptions;
  store: Petstore;
}

/** A core with a fresh store unless one is given, accepting the test key unless other keys are given. */
export function createTestCore(options: Partial<CoreOptions> = {}): TestCore {
  const store = options.store ?? createPetstore();
  const coreOptions: CoreOptions = { apiKeys: [API_KEY], ...options, store };
  return { options: coreOptions, store };
}

/** Sends one request through inject and answers it as the socket tests' `call` does. */
export async function call(core: TestCore, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const request = { method, url: path, headers: options.headers ?? {} };
  const answer = await inject(core.options, options.body === undefined ? request : { ...request, body: options.body });
  let json: unknown;
  try {
    json = answer.body.length > 0 ? answer.json() : undefined;
  } catch {
    json = undefined;
  }
  return { status: answer.status, headers: answer.headers, text: answer.body, json };
}
