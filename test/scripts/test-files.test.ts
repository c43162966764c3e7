import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '..', '..', 'scripts', 'test-files.mjs');

/** The files the script prints with the matrix's repeat setting given. */
async function listed(repeat: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, [SCRIPT], { env: { PATH: process.env['PATH'] ?? '', PETSTORE_MATRIX_REPEAT: repeat } });
  return stdout.trim().split('\n');
}

describe('scripts/test-files.mjs', () => {
  test('scripts/test-files.mjs lists every test file, this one included, and no test tool\'s', async () => {
    const files = await listed('');
    assert.ok(files.includes('test/scripts/test-files.test.ts') && files.includes('test/browser/console.test.ts'), files.join(', '));
    assert.ok(files.every((file) => file.startsWith('test/') && file.endsWith('.test.ts') && !file.includes('node_modules')), files.join(', '));
  });

  test('scripts/test-files.mjs leaves out only the tests of what is not Node\'s on a repeat of the matrix', async () => {
    const all = await listed('');
    const repeat = await listed('1');
    const left = all.filter((file) => !repeat.includes(file));
    assert.ok(left.includes('test/browser/console.test.ts') && left.includes('test/runtimes/deno-bun.test.ts') && left.includes('test/fleet/balancers.test.ts'), left.join(', '));
    assert.ok(left.every((file) => /^test\/(browser|fleet)\/|deno-bun|openapi\/lint|prism|reference-page-claims/.test(file)), left.join(', '));
    assert.ok(repeat.includes('test/lib/petstore.test.ts') && repeat.includes('test/hosts/express.test.ts'), repeat.join(', '));
  });
});
