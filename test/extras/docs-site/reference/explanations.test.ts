import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_CODES } from '../../../../lib/index.js';
import { DEFAULT_BODY_LIMIT } from '../../../../server/core/request.js';
import { ORDER_OF_CHECKS } from '../../../../server/core/order-of-checks.js';
import { referenceDecisions } from '../../../../extras/docs-site/reference/decisions.js';
import { PAST_EACH_CHECK, checkViews, refusalOf, shapedAnswers } from '../../../../extras/docs-site/reference/explanations.js';

describe('the console\'s explanations', () => {
  test('refusalOf() reads the status and the Error code a check names, and nothing from a check that answers a success', () => {
    assert.deepEqual(['auth (401)', 'JSON (400 `invalid_json`)', '`OPTIONS` on a known path (204, no key)', 'the root routes of the host and its plug-ins (no key)'].map(refusalOf), ['401', '400 invalid_json', undefined, undefined]);
  });

  test('checkViews() is ORDER_OF_CHECKS in its order, each refusal with what gets a request past it', () => {
    const views = checkViews();
    assert.deepEqual(views.map((view) => [view.check, view.clause, view.operation]), ORDER_OF_CHECKS.map(([check, clause, operation]) => [check, clause, operation]));
    for (const view of views) {
      if (view.status === undefined) continue;
      assert.ok(view.past !== undefined && view.past.length > 20, `${view.check} says what gets past it`);
      if (view.code !== undefined) assert.equal(ERROR_CODES[view.code as keyof typeof ERROR_CODES], view.status, view.check);
    }
    assert.deepEqual(views.filter((view) => view.status === undefined).map((view) => view.check), ORDER_OF_CHECKS.filter(([check]) => refusalOf(check) === undefined).map(([check]) => check));
    const refusals = new Set(ORDER_OF_CHECKS.map(([check]) => refusalOf(check)));
    assert.deepEqual(Object.keys(PAST_EACH_CHECK).filter((refusal) => !refusals.has(refusal)), [], 'no line for a refusal no check gives');
  });

  test('shapedAnswers() gives each decision\'s answers, each naming an operation of the decision and a code the server sends', () => {
    const decisions = new Map(referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT }).map((decision) => [decision.id, decision]));
    const shaped = shapedAnswers();
    assert.ok(shaped.length >= 10, `${shaped.length} decisions shape answers`);
    for (const [id, answers] of shaped) {
      const decision = decisions.get(id);
      assert.ok(decision !== undefined && answers.length > 0, id);
      for (const answer of answers) {
        if (answer.operation !== undefined) assert.ok(decision.operations.includes(answer.operation), `${id}: ${answer.operation}`);
        if (answer.code !== undefined) assert.ok(answer.code in ERROR_CODES || answer.code === '*', `${id}: ${answer.code}`);
        if (answer.code !== undefined && answer.status !== undefined) assert.equal(ERROR_CODES[answer.code as keyof typeof ERROR_CODES], answer.status, id);
      }
    }
  });

  test('every decision names the answers it shapes, but the order of checks, which every explanation links, and those no answer of the console meets', () => {
    const without = referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT }).filter((decision) => decision.answers === undefined).map((decision) => decision.id);
    // The console sends no OPTIONS or HEAD and no request without an operation, cannot see which key matched, and is not the quickstart's; no answer is rate limited.
    assert.deepEqual(without, ['decision-order-of-checks', 'decision-public', 'decision-head', 'decision-key-rotation', 'decision-quickstart-home', 'decision-quickstart-errors', 'decision-rate-limits']);
  });
});
