import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { ERROR_CODES } from '../../lib/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DOCUMENT = await readFile(join(ROOT, 'docs', 'http-behaviour.md'), 'utf8');

test('docs/http-behaviour.md error code table is ERROR_CODES, in its order', () => {
  const section = DOCUMENT.slice(DOCUMENT.indexOf('\n## Error codes\n'));
  const rows = [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((match) => [match[1], Number(match[2])]);
  assert.deepEqual(rows, Object.entries(ERROR_CODES));
  assert.match(DOCUMENT, new RegExp(`these are all ${Object.keys(ERROR_CODES).length} of them`));
});
