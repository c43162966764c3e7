import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from './support/targets.js';

/** The specifiers a TypeScript module imports or re-exports, type-only ones included. */
function specifiersOf(source: string): string[] {
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => (match[1] ?? match[2]) as string);
}

/** Every module reachable from the entry points, by path relative to the repository, with what each imports from outside. */
async function moduleGraph(entries: readonly string[]): Promise<{ modules: string[]; outside: string[] }> {
  const seen = new Set<string>();
  const outside: string[] = [];
  const queue = entries.map((entry) => join(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(await readFile(file, 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else outside.push(`${relative(ROOT, file)} imports ${specifier}`);
    }
  }
  return { modules: [...seen].map((file) => relative(ROOT, file)).sort(), outside };
}

describe('the conformance kit is Node-free', () => {
  test('extras/conformance/ imports no node: module and no package, directly or through what it takes from lib/, extras/docs-site/openapi/ and extras/client/', async () => {
    const { modules, outside } = await moduleGraph(['extras/conformance/index.ts', 'extras/conformance/command.ts']);
    assert.deepEqual(outside, []);
    assert.ok(modules.includes('extras/conformance/checks/auth.ts') && modules.includes('extras/docs-site/openapi/document.ts'), modules.join(', '));
    assert.ok(modules.every((module) => module.startsWith('extras/conformance/') || module.startsWith('lib/') || module.startsWith('extras/docs-site/openapi/') || module.startsWith('server/core/') || module.startsWith('extras/client/')), modules.join(', '));
  });

  test('extras/conformance/ and the lib/ modules it reaches use no Node global (process, Buffer, require, __dirname)', async () => {
    const { modules } = await moduleGraph(['extras/conformance/index.ts']);
    for (const module of modules) {
      const source = (await readFile(join(ROOT, module), 'utf8')).replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
      // A global named as a property of `globalThis`, with a way on without it (server/core/response.ts's `Buffer`), is no Node global taken for granted.
      assert.doesNotMatch(source, /\bprocess\.|(?<![.\w])Buffer\b(?!\?:)|\brequire\(|__dirname|\bimport\.meta\.(dirname|filename)/, module);
    }
  });
});
