import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { createOpenApiDocument } from '../../extras/docs-site/openapi/index.js';
import { decisionOf, referenceDecisions } from '../../extras/docs-site/reference/decisions.js';
import type { DecisionId } from '../../extras/docs-site/reference/decisions.js';
import { DEFAULT_BODY_LIMIT } from '../../server/core/request.js';
import { ROOT } from './citations.js';

const CONFORMANCE = await readFile(join(ROOT, 'docs', 'spec-conformance.md'), 'utf8');
const BEHAVIOUR = await readFile(join(ROOT, 'docs', 'http-behaviour.md'), 'utf8');
const DECISIONS = referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT });

/** The rows of docs/spec-conformance.md's section on the spec's silences, by their question. */
function silentRows(markdown: string): Map<string, string> {
  const section = markdown.slice(markdown.indexOf('\n## Where the spec is silent\n'));
  return new Map([...section.matchAll(/^\| (.+?) \| (.+?) \| .*$/gm)].filter(([, question]) => question !== 'question' && !question?.startsWith('---')).map(([, question = '', decision = '']) => [question, decision]));
}

test('docs/spec-conformance.md states each decision of decisions.json word for word: its row starts with the decision and its reason', () => {
  const rows = silentRows(CONFORMANCE);
  for (const decision of DECISIONS) {
    const cell = rows.get(decision.question);
    assert.notEqual(cell, undefined, `docs/spec-conformance.md has no row “${decision.question}”`);
    const expected = `${decision.decision} ${decision.reason}`;
    assert.ok(cell?.startsWith(expected), `the row “${decision.question}” of docs/spec-conformance.md must start with decisions.json's text:\n${expected}\nnot:\n${cell}`);
  }
});

test('the OpenAPI document takes its descriptions of the decisions from decisions.json', () => {
  const document = createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT });
  const text = (id: DecisionId): string => decisionOf(id).decision;
  const pets = document.paths['/pets'];
  const pet = document.paths['/pets/{petId}'];
  // Each as JSON text, so a decision with quotes matches inside a serialised schema too.
  const described: [string, DecisionId, string | undefined][] = [
    ['the limit parameter', 'decision-limit', JSON.stringify(pets?.get?.parameters?.find((parameter) => parameter.name === 'limit')?.description)],
    ['the petId parameter', 'decision-pet-id', JSON.stringify(pet?.parameters?.find((parameter) => parameter.name === 'petId')?.description)],
    ['createPet', 'decision-idempotency-key', JSON.stringify(pets?.post?.description)],
    ['the Deprecation header', 'decision-deprecation-date', JSON.stringify(pet?.get?.responses)],
    ['NewPet', 'decision-name', JSON.stringify(document.components.schemas.NewPet)],
    ['NewPet', 'decision-category-id', JSON.stringify(document.components.schemas.NewPet)],
  ];
  for (const [where, id, description] of described) {
    assert.ok((description ?? '').includes(JSON.stringify(text(id)).slice(1, -1)), `${where} states ${id} as decisions.json words it`);
  }
});

test('docs/http-behaviour.md repeats no decision: each of its decisions is one decisions.json does not hold', () => {
  const section = BEHAVIOUR.slice(BEHAVIOUR.indexOf('\n## Decisions of the HTTP layer\n'));
  assert.ok(section.length > 30, 'docs/http-behaviour.md has its section of the HTTP layer\'s decisions');
  const questions = [...section.matchAll(/^\| (.+?) \|/gm)].map(([, question = '']) => question.toLowerCase());
  for (const decision of DECISIONS) assert.ok(!questions.includes(decision.question.toLowerCase()), decision.question);
  assert.match(BEHAVIOUR, /\(spec-conformance\.md#where-the-spec-is-silent\)/);
});
