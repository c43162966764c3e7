import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildPackage } from '../../support/runtimes.js';
import type { PackageBuild } from '../../support/runtimes.js';

/**
 * `import … from '…'`, `import '…'`, `export … from '…'` where a statement starts, at the start of a
 * line as tsc writes them: the specifier. Not such words inside a string (the reference page's
 * sample of the client, for one).
 */
const STATIC_IMPORT = /^[ \t]*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
/** `import(…)`: its argument, which must be a string literal to be followed. */
const DYNAMIC_IMPORT = /\bimport\s*\(\s*([^)]*?)\s*\)/g;
const STRING_LITERAL = /^(['"])([^'"]+)\1$/;

/** An import of the module graph that does not lead to another file of the build. */
interface OutsideImport {
  specifier: string;
  /** The chain of files from the entry point to the one importing it, relative to the build. */
  chain: string[];
}

/** The modules reachable from an entry point, following every static and dynamic import, and the imports that leave the build. */
async function walkModuleGraph(dist: string, entry: string): Promise<{ files: string[]; outside: OutsideImport[] }> {
  const chains = new Map<string, string[]>([[resolve(dist, entry), [entry]]]);
  const queue = [resolve(dist, entry)];
  const outside: OutsideImport[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = chains.get(file) ?? [];
    const source = await readFile(file, 'utf8');
    const specifiers = [...source.matchAll(STATIC_IMPORT)].map((match) => match[1] ?? '');
    for (const [, argument = ''] of source.matchAll(DYNAMIC_IMPORT)) {
      // An import whose target is computed cannot be followed, so it cannot be shown to be Node-free.
      specifiers.push(STRING_LITERAL.exec(argument)?.[2] ?? `import(${argument})`);
    }
    for (const specifier of specifiers) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
        outside.push({ specifier, chain });
        continue;
      }
      const target = resolve(dirname(file), specifier);
      if (chains.has(target)) continue;
      chains.set(target, [...chain, relative(dist, target)]);
      queue.push(target);
    }
  }
  return { files: [...chains.keys()].map((file) => relative(dist, file)), outside };
}

/** Whether a specifier names a module built into Node: `node:…`, or a bare name such as `fs` or `fs/promises`. */
function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier) || builtinModules.includes(specifier.split('/')[0] ?? '');
}

function describeImports(imports: readonly OutsideImport[]): string {
  return imports.map(({ specifier, chain }) => `${specifier} (${chain.join(' → ')})`).join('\n');
}

describe('the built module graph', () => {
  let build: PackageBuild;
  before(async () => {
    build = await buildPackage();
  });
  after(() => build.remove());

  const entries = [
    ['lib/index.js', 'the engine (petstore-reference)'],
    ['server/fetch/index.js', 'the fetch handler (petstore-reference/fetch)'],
    ['server/testing/inject.js', 'inject() of petstore-reference/testing'],
    ['server/core/index.js', 'the request core (petstore-reference/core)'],
    ['extras/docs-site/openapi/index.js', 'the OpenAPI document builder (petstore-reference/openapi)'],
  ] as const;
  for (const [entry, what] of entries) {
    test(`the built module graph of ${what} reaches no Node built-in module and no package`, async () => {
      const { files, outside } = await walkModuleGraph(build.dist, entry);
      assert.ok(files.length > 3, `the walk followed the imports of ${entry}: ${files.join(', ')}`);
      assert.equal(describeImports(outside.filter((found) => isNodeBuiltin(found.specifier))), '', 'Node built-ins reached');
      assert.equal(describeImports(outside), '', 'imports outside the package reached');
    });
  }

  test('the built module graph walk finds the Node built-ins of the node:http server and of the contract suite', async () => {
    const server = await walkModuleGraph(build.dist, 'server/node/index.js');
    assert.ok(server.outside.some((found) => found.specifier === 'node:http'), describeImports(server.outside));
    const testing = await walkModuleGraph(build.dist, 'server/testing/index.js');
    assert.deepEqual(testing.outside.filter((found) => isNodeBuiltin(found.specifier)).map((found) => found.specifier).sort(), ['node:assert/strict', 'node:test']);
    assert.ok(testing.files.includes(join('server', 'testing', 'inject.js')));
  });

  test('the built module graph walk reads bare built-in names and dynamic imports', () => {
    assert.ok(isNodeBuiltin('fs') && isNodeBuiltin('fs/promises') && isNodeBuiltin('node:worker_threads'));
    assert.ok(!isNodeBuiltin('hono') && !isNodeBuiltin('./fs.js'));
    const source = "import { a } from './a.js';\nexport * from \"../b.js\";\nimport 'node:fs';\nconst pg = await import('pg');\nawait import(name);";
    const statics = [...source.matchAll(STATIC_IMPORT)].map((match) => match[1]);
    const dynamics = [...source.matchAll(DYNAMIC_IMPORT)].map((match) => match[1]);
    assert.deepEqual(statics, ['./a.js', '../b.js', 'node:fs']);
    assert.deepEqual(dynamics, ["'pg'", 'name']);
  });
});
