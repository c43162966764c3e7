import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runConformance } from '../../conformance/index.js';
import { MUTANTS } from './support/mutants.js';
import { KIT_KEY, startFetchTarget, storeWithPets } from './support/targets.js';
import { formatResult } from '../../conformance/report.js';

/** Pets already in each variant's store: more than the default limit, of every status, so each defect can show. */
const RESIDENT_PETS = 25;

describe('the conformance kit against deliberately broken variants of the interface', () => {
  test('the mutant table holds at least the twelve defects the kit must catch, each with its checks', () => {
    assert.ok(MUTANTS.length >= 12);
    for (const mutant of MUTANTS) assert.ok(mutant.caughtBy.length > 0, mutant.name);
    assert.equal(new Set(MUTANTS.map((mutant) => mutant.name)).size, MUTANTS.length);
  });

  for (const mutant of MUTANTS) {
    const checks = mutant.caughtBy.map(({ id, clause }) => `${id} [${clause}]`).join(', ');
    test(`runConformance() fails the variant where ${mutant.defect} (${mutant.name}) in ${checks}`, async () => {
      const target = await startFetchTarget((handler) => mutant.wrap(handler, KIT_KEY), await storeWithPets(RESIDENT_PETS));
      try {
        const results = await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level: mutant.level });
        for (const { id, clause } of mutant.caughtBy) {
          const result = results.find((candidate) => candidate.id === id);
          assert.equal(result?.outcome, 'fail', `${id}: ${result?.detail ?? 'not run'}`);
          assert.equal(result.clause, clause);
          assert.ok(formatResult(result).startsWith(`FAIL ${id} [${clause}] sent `), formatResult(result));
          assert.ok(result.failure !== undefined && result.failure.sent !== '' && result.failure.expected !== '' && result.failure.received !== '');
        }
      } finally {
        await target.close();
      }
    });
  }
});
