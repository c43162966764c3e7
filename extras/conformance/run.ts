import type { Check, CheckContext, Fixture } from './check.js';
import { CHECKS } from './checks/catalogue.js';
import { HttpSession, NoAnswerError, RefusedKeyError, UnreachableServerError, WrongBaseUrlError } from './exchange.js';
import type { Answer } from './exchange.js';
import { CheckFailure, CheckSkipped, describeRequest, excerpt } from './expect.js';
import { isObject } from './json-schema.js';
import { createFixture, fillStore } from './fixture.js';
import type { FillState } from './fixture.js';
import { createResponseValidator } from './response-validator.js';
import { selectChecks } from './select.js';
import { LEVELS } from './types.js';
import type { CheckInfo, CheckResult, ConformanceFetch, ConformanceRequestInit, Level } from './types.js';

/** Options of runConformance. */
export interface ConformanceOptions {
  /** Base URL of the server, version prefix included, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** A key the server accepts, sent as `Authorization: Bearer <apiKey>` [spec 5.2]. */
  apiKey: string;
  /** Default `spec`. */
  level?: Level;
  /** Default: the global `fetch`. */
  fetch?: ConformanceFetch;
  /** Time each request gets, body included (ms). Default 5000. */
  timeoutMs?: number;
  /** Run only these checks: ids, groups or sections (`4.1`). */
  only?: readonly string[];
  /** Leave these out: ids, groups or sections. */
  skip?: readonly string[];
  /** Names this run's pets `conformance-<runId>-…`. Default: 8 random hex digits. */
  runId?: string;
  /** Called with each result as soon as its check ends. */
  onResult?: (result: CheckResult) => void;
}

/** Options of listChecks. */
export interface ListOptions {
  level?: Level;
  only?: readonly string[];
  skip?: readonly string[];
}

/** Time each request gets by default (ms). */
export const DEFAULT_TIMEOUT_MS = 5_000;

/** A run id: letters, digits and dashes, so that pet names stay plain. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/;

/** A fresh run id: 8 random hex digits. */
export function newRunId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The global fetch in the kit's terms. */
const globalFetch: ConformanceFetch = (url: string, init: ConformanceRequestInit) => fetch(url, { ...init, signal: init.signal as AbortSignal });

/** Checks the options, applying the defaults in this one place; a mistake throws a TypeError naming the option. */
function settingsOf(options: ConformanceOptions): Required<Omit<ConformanceOptions, 'onResult'>> {
  if (!URL.canParse(options.baseUrl)) {
    throw new TypeError(`\`baseUrl\` must be an absolute http or https URL, not ${JSON.stringify(String(options.baseUrl).slice(0, 100))}`);
  }
  const url = new URL(options.baseUrl);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new TypeError(`\`baseUrl\` must be an http or https URL without query or fragment, not ${JSON.stringify(options.baseUrl.slice(0, 100))}`);
  }
  if (typeof options.apiKey !== 'string' || options.apiKey === '' || /[\s\u0000-\u001f\u007f]/.test(options.apiKey)) {
    throw new TypeError('`apiKey` must be a non-empty string without white space or control characters');
  }
  const level = options.level ?? 'spec';
  if (!LEVELS.includes(level)) throw new TypeError(`\`level\` must be ${LEVELS.join(' or ')}, not ${JSON.stringify(level)}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new TypeError(`\`timeoutMs\` must be a positive integer, not ${String(timeoutMs)}`);
  const runId = options.runId ?? newRunId();
  if (!RUN_ID.test(runId)) throw new TypeError('`runId` must be 1 to 32 letters, digits or dashes, starting with a letter or digit');
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    level,
    fetch: options.fetch ?? globalFetch,
    timeoutMs,
    only: options.only ?? [],
    skip: options.skip ?? [],
    runId,
  };
}

/** What a check does to the run: its context, the session behind it, and the fixture made once. */
function createContext(session: HttpSession, baseUrl: string, runId: string): CheckContext {
  let fixture: Promise<Fixture> | undefined;
  const fill: FillState = { known: 0, created: 0 };
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const context: CheckContext = {
    baseUrl,
    basePath,
    runId,
    send: (request) => session.send(request),
    fixture: () => (fixture ??= createFixture(context)),
    ensurePets: (least) => fillStore(context, { least, state: fill }),
    petName: (suffix) => `conformance-${runId}-${suffix}`,
    answersTo: (operationId) => session.answers.filter((answer) => answer.request.operation === operationId),
    validate: createResponseValidator({ basePath }),
  };
  return context;
}

/** A check's description without its code. */
function infoOf(check: Check): CheckInfo {
  return { id: check.id, group: check.group, clause: check.clause, level: check.level, title: check.title, source: check.source };
}

/** Runs one check; whatever it throws becomes a fail or a skip with its reason, never a rejection. */
async function runCheck(check: Check, context: CheckContext): Promise<CheckResult> {
  const started = Date.now();
  const result = (outcome: CheckResult['outcome'], detail: string, failure?: CheckResult['failure']): CheckResult => ({
    ...infoOf(check), outcome, detail, ...(failure === undefined ? {} : { failure }), durationMs: Date.now() - started,
  });
  const failed = (report: NonNullable<CheckResult['failure']>): CheckResult => result('fail', `sent ${report.sent}; expected ${report.expected}; received ${report.received}`, report);
  try {
    return result('pass', await check.run(context));
  } catch (error) {
    if (error instanceof CheckFailure) return failed(error.report);
    if (error instanceof CheckSkipped) return result('skip', error.message);
    if (error instanceof NoAnswerError) return failed({ sent: describeRequest(error.request), expected: 'an answer', received: error.message });
    // A defect of the kit itself, or an answer it did not foresee: the check fails, saying so, and the run goes on.
    return failed({ sent: '(see the check)', expected: 'the check to run to its end', received: `the check itself failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** The HTTP statuses that say a key was refused: 401 [spec 5.4], and 403 as proxies and gateways answer. */
const REFUSED_KEY_STATUSES: readonly number[] = [401, 403];

/**
 * Checks the base URL and the key with one `GET /pets` [spec 4.1] before any check runs, so that a
 * mistake in either is one clear error rather than a failure in every check: a refused connection
 * is an UnreachableServerError, a 401 a RefusedKeyError, and a 404 or an answer that is not JSON a
 * WrongBaseUrlError. Any other answer lets the checks judge it.
 */
async function probe(session: HttpSession, baseUrl: string): Promise<void> {
  let answer: Answer;
  try {
    answer = await session.send({ method: 'GET', path: '/pets' });
  } catch (error) {
    // A server that takes the connection and then hangs is reachable: its checks fail on their timeouts.
    if (error instanceof NoAnswerError && !error.isTimeout) throw new UnreachableServerError(baseUrl, error.message.replace(/^no answer: /, ''));
    return;
  }
  const code = isObject(answer.json) && typeof answer.json['code'] === 'string' ? ` ${excerpt(answer.json['code'], 40)}` : '';
  const form = answer.json === undefined ? ` (${excerpt(answer.headers.get('content-type') ?? 'no Content-Type', 60)}, not JSON)` : '';
  const evidence = `GET ${answer.request.url} with the key answered ${answer.status}${code}${form}`;
  if (REFUSED_KEY_STATUSES.includes(answer.status)) throw new RefusedKeyError(evidence);
  if (answer.status === 404 || answer.json === undefined) throw new WrongBaseUrlError(baseUrl, evidence);
}

/** The checks a level and selection run, as `--list` shows them, without sending a request. */
export function listChecks(options: ListOptions = {}): CheckInfo[] {
  return selectChecks(CHECKS, { level: options.level ?? 'spec', only: options.only ?? [], skip: options.skip ?? [] }).map(infoOf);
}

/**
 * Runs the conformance checks against a server over HTTP and resolves to one result per selected
 * check. Safe against a live store: it only creates pets, all named `conformance-<runId>-…`,
 * assumes no ids and no emptiness, sends at most 400 requests, and gives each request `timeoutMs`.
 * Rejects with a TypeError for invalid options, and before any check with a SetupError: an
 * UnreachableServerError when nothing answers, a RefusedKeyError when the key is refused, a
 * WrongBaseUrlError when what answers is not the interface.
 */
export async function runConformance(options: ConformanceOptions): Promise<CheckResult[]> {
  const settings = settingsOf(options);
  const checks = selectChecks(CHECKS, settings);
  const session = new HttpSession({ ...settings, invalidKey: `conformance-${settings.runId}-not-a-key` });
  await probe(session, settings.baseUrl);
  const context = createContext(session, settings.baseUrl, settings.runId);
  const results: CheckResult[] = [];
  for (const check of checks) {
    const result = await runCheck(check, context);
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
