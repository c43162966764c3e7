import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { parseTableName } from '../../../extras/postgres/table.js';

test('parseTableName() quotes a plain and a schema-qualified name and derives the index names', () => {
  assert.deepEqual(parseTableName('pets'), { text: 'pets', sql: '"pets"', statusIndexSql: '"pets_status_id_idx"', keyIndexSql: '"pets_idem_key_idx"' });
  assert.deepEqual(parseTableName('Shop_2.Pets'), { text: 'Shop_2.Pets', sql: '"Shop_2"."Pets"', statusIndexSql: '"Pets_status_id_idx"', keyIndexSql: '"Pets_idem_key_idx"' });
  assert.equal(parseTableName('a'.repeat(48)).sql, `"${'a'.repeat(48)}"`);
  // PostgreSQL keeps 63 bytes of a name: the longest table's derived names still fit whole.
  assert.ok(parseTableName('a'.repeat(48)).keyIndexSql.length - 2 <= 63);
});

test('parseTableName() rejects anything but one or two plain identifiers', () => {
  const invalid = ['', '.', 'pets.', '.pets', 'a.b.c', '1pets', 'pets; DROP TABLE pets', '"pets"', 'pet-s', 'pets ', 'pëts', 'a'.repeat(49), `s.${'a'.repeat(49)}`];
  for (const name of invalid) {
    assert.throws(
      () => parseTableName(name),
      (error: unknown) => error instanceof PetstoreError && error.code === 'internal_error' && error.message.includes(JSON.stringify(name)),
      `table name ${JSON.stringify(name)} is refused`,
    );
  }
});
