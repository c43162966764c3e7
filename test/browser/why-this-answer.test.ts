import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { decisionOf } from '../../extras/docs-site/reference/decisions.js';
import type { DecisionId } from '../../extras/docs-site/reference/decisions.js';
import { PAST_EACH_CHECK } from '../../extras/docs-site/reference/explanations.js';
import { ORDER_OF_CHECKS } from '../../server/core/order-of-checks.js';
import { API_KEY, startTestServer } from '../support/standalone-http.js';
import { launchTestBrowser, openPage, watchPage } from './browser.js';

const chromium = await launchTestBrowser();

/** What the explanation under one answer shows. */
interface Explanation {
  status: string;
  isOpen: boolean;
  summary: string;
  /** Each check's line, with its state: `passed`, `decided`, `skipped` or `unreached`. */
  checks: { state: string; text: string; links: string[] }[];
  past: string;
  problems: string[];
  /** The decisions it names, by their anchors, each with the text it shows. */
  decisions: Map<string, string>;
}

/** The checks as the documents quote them, without their backticks, as the page shows them. */
const CHECKS = ORDER_OF_CHECKS.map(([check]) => check.replaceAll('`', ''));

/** The result box of one operation, once it shows an answer. */
function resultOf(page: Page, operationId: string): Locator {
  return page.locator(`.result[data-operation="${operationId}"]:not([aria-busy])`);
}

/** Presses Send in one operation's form and reads the answer's explanation. */
async function sendAndExplain(page: Page, operationId: string): Promise<Explanation> {
  await page.click(`form.try[data-operation="${operationId}"] button[type="submit"]`);
  const result = resultOf(page, operationId);
  await result.locator('.why').waitFor({ state: 'attached' });
  const why = result.locator('.why');
  const checks = await why.locator('ol.checks > li').evaluateAll((items) => items.map((item) => ({
    state: item.className,
    text: item.textContent ?? '',
    links: [...item.querySelectorAll('a')].map((link) => link.getAttribute('href') ?? ''),
  })));
  const notes = await why.locator('.decision-note').evaluateAll((items) => items.map((item) => [item.querySelector('a')?.getAttribute('href') ?? '', item.textContent ?? ''] as const));
  return {
    status: (await result.locator('.status').textContent()) ?? '',
    isOpen: (await why.getAttribute('open')) !== null,
    summary: (await why.locator('summary').textContent()) ?? '',
    checks,
    past: (await why.locator('.past').textContent()) ?? '',
    problems: await why.locator('.problems li').allTextContents(),
    decisions: new Map(notes.map(([href, text]) => [href.replace(/^#/, ''), text])),
  };
}

/** The check an explanation marks as the one that decided, and the checks it says were passed. */
function decidedOf(explanation: Explanation): { decided: string[]; passed: string[] } {
  const named = (state: string): string[] => explanation.checks.filter((check) => check.state === state).map((check) => CHECKS.find((text) => check.text.includes(text)) ?? check.text.slice(2));
  return { decided: named('decided'), passed: named('passed') };
}

/** Whether an explanation names a decision with the decision's own text. */
function namesDecision(explanation: Explanation, id: DecisionId): boolean {
  const { question, decision } = decisionOf(id);
  const plain = (text: string): string => text.replaceAll('`', '');
  return explanation.decisions.get(id) === `Decided where the interface is silent: ${plain(question)}: ${plain(decision)}`;
}

/** A request failing one check of the order, as a learner makes it in the console (or, for what the console always gets right, by changing its form). */
interface Failing {
  check: string;
  operationId: string;
  prepare: (page: Page) => Promise<void>;
  status: RegExp;
  decisions: DecisionId[];
}

const CREATE = 'form.try[data-operation="createPet"]';

const FAILING: Failing[] = [
  {
    check: 'base path (404)',
    operationId: 'listPets',
    prepare: (page) => page.evaluate('document.querySelector(\'form.try[data-operation="listPets"]\').setAttribute("data-path", "/../elsewhere")'),
    status: /^404 /,
    decisions: [],
  },
  { check: 'auth (401)', operationId: 'getPet', prepare: (page) => page.fill('form.try[data-operation="getPet"] [name="petId"]', '1'), status: /^401 /, decisions: ['decision-deprecation-headers'] },
  {
    check: 'path (404)',
    operationId: 'getPet',
    prepare: async (page) => {
      await page.fill('#api-key', API_KEY);
      // The form asks for a petId; without one the request is GET /v1/pets/, a path the interface has not.
      await page.evaluate('document.querySelector(\'form.try[data-operation="getPet"] [name="petId"]\').required = false');
      await page.fill('form.try[data-operation="getPet"] [name="petId"]', '');
    },
    status: /^404 /,
    decisions: [],
  },
  {
    check: 'method (405)',
    operationId: 'listPets',
    prepare: (page) => page.evaluate('(function (form) { form.setAttribute("data-path", "/pets"); form.setAttribute("data-method", "DELETE"); })(document.querySelector(\'form.try[data-operation="listPets"]\'))'),
    status: /^405 /,
    decisions: [],
  },
  { check: 'Idempotency-Key on a create (400 invalid_idempotency_key)', operationId: 'createPet', prepare: (page) => page.fill(`${CREATE} [name="Idempotency-Key"]`, '"not closed'), status: /^400 /, decisions: ['decision-idempotency-key'] },
  {
    check: 'media type (415)',
    operationId: 'createPet',
    prepare: async (page) => {
      await page.fill(`${CREATE} [name="Idempotency-Key"]`, '');
      await page.evaluate(`document.querySelector('${CREATE}').insertAdjacentHTML('beforeend', '<input type="hidden" data-in="header" name="Content-Type" value="text/plain">')`);
    },
    status: /^415 /,
    decisions: [],
  },
  {
    check: 'size (413)',
    operationId: 'createPet',
    prepare: async (page) => {
      await page.evaluate(`document.querySelector('${CREATE} [name="Content-Type"]').remove()`);
      await page.fill(`${CREATE} textarea[name="body"]`, `{"name": "${'x'.repeat(70_000)}", "categoryId": 1}`);
    },
    status: /^413 /,
    decisions: ['decision-body-limit'],
  },
  { check: 'JSON (400 invalid_json)', operationId: 'createPet', prepare: (page) => page.fill(`${CREATE} textarea[name="body"]`, '{"name": '), status: /^400 /, decisions: [] },
  {
    check: 'schema (400 validation_failed)',
    operationId: 'createPet',
    prepare: (page) => page.fill(`${CREATE} textarea[name="body"]`, '{"name": "", "categoryId": 1.5, "id": 3}'),
    status: /^400 /,
    decisions: ['decision-unknown-fields', 'decision-every-problem', 'decision-name', 'decision-category-id'],
  },
];

describe('the console\'s explanation of each answer in Chromium', () => {
  test('the console explains a request failing each check in turn: the order of checks with the deciding check marked and its clause linked, the checks passed before it, what gets past it, and the decisions that shaped it', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    const server = await startTestServer();
    const { context: browserContext, page } = await openPage(chromium.browser);
    try {
      const problems = watchPage(page, server.origin);
      await page.goto(`${server.url}/docs`);
      for (const failing of FAILING) {
        await failing.prepare(page);
        const explanation = await sendAndExplain(page, failing.operationId);
        const at = CHECKS.indexOf(failing.check);
        assert.match(explanation.status, failing.status, failing.check);
        assert.ok(explanation.isOpen, `${failing.check}: the explanation of an error is open`);
        assert.equal(explanation.summary, `Why this answer: the check “${failing.check}” refused it`);
        const { decided, passed } = decidedOf(explanation);
        assert.deepEqual(decided, [failing.check]);
        const applies = (index: number): boolean => (ORDER_OF_CHECKS[index]?.[2] ?? failing.operationId) === failing.operationId;
        assert.deepEqual(passed, CHECKS.filter((_check, index) => index < at && applies(index)), `${failing.check}: the checks before it are passed`);
        const [, clause] = ORDER_OF_CHECKS[at] ?? [];
        const line = explanation.checks.find((check) => check.state === 'decided');
        if (/^\d/.test(clause ?? '')) assert.deepEqual(line?.links, (clause ?? '').split(', ').map((number) => `docs/interface#spec-${number}`), failing.check);
        else assert.ok(line?.text.includes(`[${clause ?? ''}]`), failing.check);
        const past = PAST_EACH_CHECK[/\((\d{3})(?: `(\w+)`)?/.exec(ORDER_OF_CHECKS[at]?.[0] ?? '')?.slice(1).filter(Boolean).join(' ') ?? ''] ?? '';
        assert.equal(explanation.past, `To get past it: ${past.replaceAll('`', '')}`);
        assert.deepEqual([...explanation.decisions.keys()].sort(), [...failing.decisions, 'decision-error-codes'].sort(), failing.check);
        for (const id of failing.decisions) assert.ok(namesDecision(explanation, id), `${failing.check} names ${id} with its text: ${explanation.decisions.get(id)}`);
      }
      // Chromium logs each refused request as a console error of its own; the page itself must add none.
      assert.deepEqual([problems.pageErrors, problems.foreignRequests, problems.consoleErrors.filter((text) => !text.startsWith('Failed to load resource'))], [[], [], []]);
    } finally {
      await browserContext.close();
      await server.close();
    }
  });

  test('the console lists a validation_failed answer\'s field problems, each with its rule, as its details give them', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    const server = await startTestServer();
    const { context: browserContext, page } = await openPage(chromium.browser);
    try {
      await page.goto(`${server.url}/docs`);
      await page.fill('#api-key', API_KEY);
      await page.fill(`${CREATE} textarea[name="body"]`, '{"name": "", "categoryId": 1.5, "id": 3}');
      const explanation = await sendAndExplain(page, 'createPet');
      const answer = JSON.parse((await resultOf(page, 'createPet').locator('.body').textContent()) ?? '') as { details: { field: string; message: string }[] };
      assert.equal(answer.details.length, 3);
      assert.deepEqual(explanation.problems, answer.details.map(({ message }) => message.replaceAll('`', '')));
      assert.deepEqual(answer.details.map(({ field, message }) => message.startsWith(`\`${field}\``)), [true, true, true], 'each message names its field');
    } finally {
      await browserContext.close();
      await server.close();
    }
  });

  test('the console shows the checks a 200 and a 201 passed, and those a GET never runs; an operation\'s own refusal passed them all and names its decision', async (context) => {
    if (chromium.skip !== false) return context.skip(chromium.skip);
    const server = await startTestServer();
    const { context: browserContext, page } = await openPage(chromium.browser);
    try {
      await page.goto(`${server.url}/docs`);
      await page.fill('#api-key', API_KEY);
      const created = await sendAndExplain(page, 'createPet');
      assert.match(created.status, /^201 /);
      assert.ok(!created.isOpen, 'the explanation of a success is closed until opened');
      assert.equal(created.summary, 'Why this answer: every check passed, then createPet answered');
      assert.deepEqual(decidedOf(created), { decided: [], passed: [...CHECKS, 'createPet answered 201'] });
      assert.equal(created.past, 'It passed every check that applies to createPet.');
      await page.fill('form.try[data-operation="listPets"] [name="limit"]', '1');
      await page.fill(`${CREATE} textarea[name="body"]`, '{"name": "Second", "categoryId": 1}');
      const withoutStatus = await sendAndExplain(page, 'createPet');
      assert.deepEqual([...withoutStatus.decisions.keys()], ['decision-default-status'], 'a pet created without status has none, by a decision');
      assert.ok(!created.decisions.has('decision-default-status'), 'the example gives a status');
      const listed = await sendAndExplain(page, 'listPets');
      assert.match(listed.status, /^200 /);
      const bodyChecks = ORDER_OF_CHECKS.filter(([, , operation]) => operation === 'createPet').map(([check]) => check.replaceAll('`', ''));
      assert.deepEqual(decidedOf(listed), { decided: [], passed: [...CHECKS.filter((check) => !bodyChecks.includes(check)), 'listPets answered 200'] });
      assert.deepEqual(listed.checks.filter((check) => check.state === 'skipped').map((check) => check.text.endsWith('(only on createPet)')), bodyChecks.map(() => true));
      assert.ok(namesDecision(listed, 'decision-paging'), 'a page with Link: rel="next" names the paging decision');
      await page.fill('form.try[data-operation="getPet"] [name="petId"]', '999');
      const missing = await sendAndExplain(page, 'getPet');
      assert.match(missing.status, /^404 /);
      assert.equal(missing.summary, 'Why this answer: every check passed; getPet itself refused');
      assert.deepEqual(decidedOf(missing).decided, ['getPet answered 404']);
      assert.match(missing.past, /^The request passed every check; getPet refused it: .*999/);
      assert.ok(namesDecision(missing, 'decision-pet-id') && namesDecision(missing, 'decision-deprecation-headers'), [...missing.decisions.keys()].join());
      await page.fill('form.try[data-operation="listPets"] [name="limit"]', 'ten');
      const refused = await sendAndExplain(page, 'listPets');
      assert.deepEqual([...refused.decisions.keys()], ['decision-limit', 'decision-query', 'decision-error-codes']);
    } finally {
      await browserContext.close();
      await server.close();
    }
  });
});
