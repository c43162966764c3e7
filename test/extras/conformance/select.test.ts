import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listChecks } from '../../../extras/conformance/index.js';

function ids(options: Parameters<typeof listChecks>[0]): string[] {
  return listChecks(options).map((check) => check.id);
}

describe('listChecks() selection', () => {
  test('listChecks() with only a section runs the checks of that section and its subsections', () => {
    assert.ok(listChecks({ only: ['4.1'] }).every((check) => check.clause === '4.1'));
    assert.deepEqual(ids({ only: ['5'] }), ids({ only: ['5.4'] }));
    const four = listChecks({ level: 'reference', only: ['4'] });
    assert.ok(four.some((check) => check.clause === '4') && four.some((check) => check.clause === '4.3'));
    assert.ok(four.every((check) => check.clause === '4' || check.clause.startsWith('4.')));
  });

  test('listChecks() with only a group, an id prefix or an id runs those checks', () => {
    assert.deepEqual(ids({ only: ['auth/missing-key/listPets'] }), ['auth/missing-key/listPets']);
    assert.deepEqual(ids({ only: ['auth/missing-key'] }), ['auth/missing-key/listPets', 'auth/missing-key/createPet', 'auth/missing-key/getPet']);
    assert.equal(ids({ only: ['auth'] }).length, 6);
    assert.equal(ids({ level: 'reference', only: ['auth'] }).length, 9);
    assert.deepEqual(ids({ only: ['auth/missing-key/listPets', 'get/missing-pet'] }), ['auth/missing-key/listPets', 'get/missing-pet']);
  });

  test('listChecks() with skip leaves those checks out, after only', () => {
    assert.deepEqual(ids({ only: ['auth/missing-key'], skip: ['auth/missing-key/createPet'] }), ['auth/missing-key/listPets', 'auth/missing-key/getPet']);
    assert.ok(!ids({ skip: ['4'] }).some((id) => id.startsWith('list/') || id.startsWith('create/')));
  });

  test('listChecks() does not take a prefix that stops inside a segment, or a section that is a prefix of another', () => {
    assert.throws(() => listChecks({ only: ['aut'] }), /--only "aut" names no check, group or section/);
    assert.throws(() => listChecks({ skip: ['4.12'] }), /--skip "4.12" names no check/);
    assert.ok(!ids({ only: ['4'] }).includes('errors/status-matches'));
  });

  test('listChecks() refuses a selection that leaves nothing to run at the level', () => {
    assert.throws(() => listChecks({ only: ['paging'] }), /leaves no check to run at level spec \(reference-level checks need --level reference\)/);
    assert.throws(() => listChecks({ level: 'reference', only: ['auth'], skip: ['5'] }), /leaves no check to run at level reference$/);
  });
});
