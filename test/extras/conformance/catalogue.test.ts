import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { listChecks } from '../../../extras/conformance/index.js';
import { ROOT } from './support/targets.js';

const ALL = listChecks({ level: 'reference' });

describe('the catalogue of checks', () => {
  test('listChecks() gives every check a unique id of the form group/name, a clause of the spec, a level, a title and a source', () => {
    assert.equal(new Set(ALL.map((check) => check.id)).size, ALL.length);
    for (const check of ALL) {
      assert.match(check.id, /^[a-z]+(\/[A-Za-z-]+)+$/, check.id);
      assert.equal(check.group, check.id.split('/')[0]);
      assert.match(check.clause, /^[1-9](\.[1-9])?$/, check.id);
      assert.ok(check.title.length > 20 && !check.title.endsWith('.'), check.id);
      assert.ok(check.source.length > 0, check.id);
    }
  });

  test('listChecks() runs the spec level as a subset of the reference level, with every spec check citing the spec', () => {
    const spec = listChecks();
    assert.ok(spec.length >= 20);
    assert.ok(spec.every((check) => check.level === 'spec' && /^spec \d/.test(check.source)));
    assert.deepEqual(spec.map((check) => check.id), ALL.filter((check) => check.level === 'spec').map((check) => check.id));
  });

  test('every reference check cites a decision or clause row that docs/spec-conformance.md has', async () => {
    const document = await readFile(join(ROOT, 'docs', 'spec-conformance.md'), 'utf8');
    for (const check of ALL.filter((candidate) => candidate.level === 'reference')) {
      const row = /decision "([^"]+)"/.exec(check.source)?.[1];
      const clause = /clause ([0-9.]+) \(docs\/spec-conformance\.md\)/.exec(check.source)?.[1];
      if (row !== undefined) assert.ok(document.includes(`| ${row} |`), `${check.id}: no row "${row}"`);
      else if (clause !== undefined) assert.ok(document.includes(`| ${clause} |`), `${check.id}: no clause ${clause}`);
      else assert.match(check.source, /^openapi\.json, operation /, check.id);
    }
  });

  test('docs/conformance-kit.md lists every check with its clause and level', async () => {
    const document = await readFile(join(ROOT, 'docs', 'conformance-kit.md'), 'utf8');
    for (const check of ALL) assert.ok(document.includes(`| \`${check.id}\` | ${check.clause} | ${check.level} |`), check.id);
  });
});
