import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runConformance, runConformanceCommand, SetupError } from '../../../extras/conformance/index.js';
import type { CheckResult } from '../../../extras/conformance/index.js';
import { MUTANTS, SETUP_MISTAKES } from './support/mutants.js';
import type { Mutant } from './support/mutants.js';
import { KIT_KEY, startFetchTarget, storeWithPets } from './support/targets.js';
import { formatResult } from '../../../extras/conformance/report.js';

/** Pets already in each variant's store: more than the default limit, of every status, so each defect can show. */
const RESIDENT_PETS = 25;

/** The checks that judge page sizes, which need more pets than a small store holds. */
const PAGE_SIZE_CHECKS: readonly string[] = ['list/default-limit', 'list/limit-honoured'];

describe('the conformance kit against deliberately broken variants of the interface', () => {
  test('the mutant table holds at least the twelve defects the kit must catch, each with its checks', () => {
    assert.ok(MUTANTS.length >= 12);
    for (const mutant of MUTANTS) assert.ok(mutant.caughtBy.length > 0, mutant.name);
    assert.equal(new Set(MUTANTS.map((mutant) => mutant.name)).size, MUTANTS.length);
  });

  for (const mutant of MUTANTS) {
    const checks = mutant.caughtBy.map(({ id, clause }) => `${id} [${clause}]`).join(', ');
    test(`runConformance() fails the variant where ${mutant.defect} (${mutant.name}) in ${checks}`, async () => {
      assertCaught(mutant, await runMutant(mutant, RESIDENT_PETS));
    });
  }

  // On a store smaller than a page, a page-size check passes only by creating the pets it needs.
  for (const mutant of MUTANTS.filter((candidate) => candidate.caughtBy.some(({ id }) => PAGE_SIZE_CHECKS.includes(id)))) {
    test(`runConformance() fails the variant where ${mutant.defect} (${mutant.name}) on an empty store too`, async () => {
      assertCaught(mutant, await runMutant(mutant, 0));
    });
  }
});

/** The kit's results against a variant serving a store of `pets` resident pets. */
async function runMutant(mutant: Mutant, pets: number): Promise<CheckResult[]> {
  const target = await startFetchTarget((handler) => mutant.wrap(handler, KIT_KEY), await storeWithPets(pets));
  try {
    return await runConformance({ baseUrl: target.baseUrl, apiKey: target.apiKey, level: mutant.level });
  } finally {
    await target.close();
  }
}

/** The variant failed every check meant for it, each naming its section and what was sent, expected and received. */
function assertCaught(mutant: Mutant, results: readonly CheckResult[]): void {
  for (const { id, clause } of mutant.caughtBy) {
    const result = results.find((candidate) => candidate.id === id);
    assert.equal(result?.outcome, 'fail', `${id}: ${result?.detail ?? 'not run'}`);
    assert.equal(result.clause, clause);
    assert.ok(formatResult(result).startsWith(`FAIL ${id} [${clause}] sent `), formatResult(result));
    assert.ok(result.failure !== undefined && result.failure.sent !== '' && result.failure.expected !== '' && result.failure.received !== '');
  }
}

describe('the conformance kit pointed wrongly at a correct server', () => {
  for (const setup of SETUP_MISTAKES) {
    test(`runConformance() stops before any check with one line when ${setup.mistake} (${setup.name}), and the command exits 2`, async () => {
      const target = await startFetchTarget();
      try {
        const given = setup.given(target);
        await assert.rejects(runConformance({ ...given, onResult: () => assert.fail('no check may run') }), (error: unknown) => {
          assert.ok(error instanceof SetupError);
          assert.match(error.message, setup.message);
          return true;
        });
        let stdout = '';
        let stderr = '';
        const code = await runConformanceCommand([given.baseUrl, '--key', given.apiKey], { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
        assert.equal(code, 2);
        assert.equal(stdout, '');
        assert.equal(stderr.split('\n').length, 2, stderr);
        assert.match(stderr.replace(/^petstore-reference conformance: /, '').trimEnd(), setup.message);
      } finally {
        await target.close();
      }
    });
  }
});
