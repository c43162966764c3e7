import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { HOUSE, KERNEL, KERNEL_WIDTH, breaches, report, weigh } from '../scripts/budget.js';

const ROOT = resolve(import.meta.dirname, '..');

/** A tree of `.ts` files under a new temporary folder: path → lines (each line given, or a count of short lines). */
async function tree(files: Record<string, number | readonly string[]>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'petstore-budget-'));
  for (const [path, lines] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), typeof lines === 'number' ? 'x;\n'.repeat(lines) : `${lines.join('\n')}\n`);
  }
  return root;
}

describe('npm run budget', () => {
  test(`the kernel holds at most ${KERNEL.budget} lines of TypeScript, the house at most ${HOUSE.budget}, and no kernel line is wider than ${KERNEL_WIDTH} characters`, () => {
    const weight = weigh(ROOT);
    assert.deepEqual(breaches(weight), [], report(weight));
  });

  test('scripts/budget.ts exits 1 past each budget, counting lines as wc -l does and naming the widest kernel lines', async (context) => {
    const root = await tree({
      'lib/index.ts': KERNEL.budget - 1,
      'server/core/core.ts': ['x;', `// ${'w'.repeat(KERNEL_WIDTH - 2)}`],
      'bench/run.ts': HOUSE.budget - KERNEL.budget,
      'extras/docs/page.ts': ['// “quotes” count as one character each, as a reader counts them', `// ${'w'.repeat(KERNEL_WIDTH)}`],
      'lib/README.md': 5_000,
    });
    context.after(() => rm(root, { recursive: true, force: true }));
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'budget.ts'), root], { cwd: ROOT });
    const failure = await run.then(() => assert.fail('the script exits 0 past its budgets'), (error: unknown) => error);
    assert.ok(failure instanceof Error && 'code' in failure && 'stdout' in failure && typeof failure.stdout === 'string', String(failure));
    assert.equal(failure.code, 1);
    assert.match(failure.stdout, /^kernel {3}4,701 lines of 4,700/m);
    assert.match(failure.stdout, /^house {3}20,003 lines of 20,000/m);
    assert.match(failure.stdout, /^ {3}161 {2}server\/core\/core\.ts:2$/m);
    assert.match(failure.stdout, /^ {6}2 {4}extras\/docs\/ \(1 file\)$/m);
    assert.match(failure.stdout, /^over budget: the kernel .* holds 4,701 lines, over its budget of 4,700$/m);
    assert.match(failure.stdout, /^over budget: the house .* holds 20,003 lines, over its budget of 20,000$/m);
    assert.match(failure.stdout, /^over budget: 1 kernel line is wider than 160 characters/m);
  });

  test('breaches() holds a tree at its budgets exactly, with a kernel line of 160 characters of which some are not ASCII', async (context) => {
    const root = await tree({
      'lib/index.ts': KERNEL.budget - 1,
      'server/core/core.ts': [`// “${'w'.repeat(KERNEL_WIDTH - 5)}”`],
      'extras/cli/main.ts': HOUSE.budget - KERNEL.budget,
    });
    context.after(() => rm(root, { recursive: true, force: true }));
    const weight = weigh(root);
    assert.deepEqual([weight.kernelLines, weight.houseLines, weight.wideLines], [KERNEL.budget, HOUSE.budget, []]);
    assert.deepEqual(breaches(weight), []);
  });
});
