import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

/** The kernel: the engine with the storage contract and the memory storage, the request core and its doors. */
const KERNEL_FOLDERS = ['lib', 'server'];

/** Where Node's built-in modules may be imported in the kernel: the node door alone; the engine, the core and the fetch door run anywhere. */
const NODE_DOOR = 'server/node/';

/** The storage contract suite is a test suite, run by node:test with node:assert wherever a storage is tested. */
const TEST_SUITE = { file: 'lib/storage/contract-suite.ts', modules: ['node:assert/strict', 'node:test'] };

/** One import of one file: what it names, and the repository path it reaches when it is relative. */
interface Import {
  readonly file: string;
  readonly specifier: string;
  readonly target: string | undefined;
}

/** Every static and dynamic import and re-export of a TypeScript file's text. */
export function importsOf(file: string, text: string): Import[] {
  const imports: Import[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    const target = specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)).replace(/\.js$/, '.ts') : undefined;
    imports.push({ file, specifier, target });
  }
  return imports;
}

/** What is wrong with one import of a kernel file: it leaves the kernel, names a package, or a Node module outside the node door. */
export function wallProblem(found: Import): string | undefined {
  const where = `${found.file} imports '${found.specifier}'`;
  if (found.target !== undefined) {
    return KERNEL_FOLDERS.some((folder) => found.target?.startsWith(`${folder}/`)) ? undefined : `${where}, which is outside the kernel (${found.target})`;
  }
  const isBuiltin = found.specifier.startsWith('node:') || builtinModules.includes(found.specifier.split('/')[0] ?? '');
  if (!isBuiltin) return `${where}: a package, which the kernel never needs`;
  if (found.file.startsWith(NODE_DOOR) || (found.file === TEST_SUITE.file && TEST_SUITE.modules.includes(found.specifier))) return undefined;
  return `${where}: a Node module outside ${NODE_DOOR}`;
}

async function sourceFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts')) files.push(path);
  }
  return files;
}

describe('the kernel wall', () => {
  test('no kernel file (lib/, server/) imports an extra, a package, or a Node module outside the node door', async () => {
    const files = (await Promise.all(KERNEL_FOLDERS.map(sourceFiles))).flat();
    assert.ok(files.includes('server/core/core.ts') && files.includes('lib/storage/memory/memory-storage.ts'), files.join(', '));
    const problems: string[] = [];
    for (const file of files) {
      for (const found of importsOf(file, await readFile(join(ROOT, file), 'utf8'))) {
        const problem = wallProblem(found);
        if (problem !== undefined) problems.push(problem);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('the wall check finds an import of an extra, of a package and of a Node module where each is out of place', () => {
    const text = [
      "import { docsSite } from '../../extras/docs-site/index.js';",
      "import type { Pool } from 'pg';",
      "export { readFile } from 'node:fs/promises';",
      "const module = await import('../../extras/operator/kit.js');",
      "import { createPetstore } from '../../lib/index.js';",
    ].join('\n');
    const problems = importsOf('server/core/sample.ts', text).map(wallProblem);
    assert.deepEqual(problems, [
      "server/core/sample.ts imports '../../extras/docs-site/index.js', which is outside the kernel (extras/docs-site/index.ts)",
      "server/core/sample.ts imports 'pg': a package, which the kernel never needs",
      "server/core/sample.ts imports 'node:fs/promises': a Node module outside server/node/",
      "server/core/sample.ts imports '../../extras/operator/kit.js', which is outside the kernel (extras/operator/kit.ts)",
      undefined,
    ]);
    assert.equal(wallProblem({ file: 'server/node/handler.ts', specifier: 'node:http', target: undefined }), undefined);
    assert.equal(wallProblem({ file: TEST_SUITE.file, specifier: 'node:test', target: undefined }), undefined);
    assert.match(wallProblem({ file: TEST_SUITE.file, specifier: 'node:fs', target: undefined }) ?? '', /a Node module outside/);
  });
});
