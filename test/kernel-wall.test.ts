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

/** The package's entry files in the kernel, from package.json's `exports`: all an extra may import of the kernel, as a third party could. */
export async function kernelEntries(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> };
  return Object.values(manifest.exports)
    .map((target) => (typeof target === 'string' ? target : target.default).replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))
    .filter((file) => KERNEL_FOLDERS.some((folder) => file.startsWith(`${folder}/`)));
}

/** What is wrong with one import of an extra: it reaches into the kernel past the package's entry files. */
export function entryProblem(found: Import, entries: readonly string[]): string | undefined {
  const reachesKernel = KERNEL_FOLDERS.some((folder) => found.target?.startsWith(`${folder}/`));
  if (!reachesKernel || entries.includes(found.target ?? '')) return undefined;
  return `${found.file} imports '${found.specifier}' (${found.target}), which is no entry of the package: import ${entries.join(', ')}`;
}

/** What is wrong with one import of a kernel test (test/lib/, test/server/): it reaches an extra, or an extra's test support. */
export function kernelTestProblem(found: Import): string | undefined {
  const isExtra = found.target?.startsWith('extras/') === true || found.target?.startsWith('test/extras/') === true;
  return isExtra ? `${found.file} imports '${found.specifier}', an extra: the kernel's tests run without extras/` : undefined;
}

/**
 * What is wrong with the imports of one kernel test, following the test support it imports
 * (test/support/) to every module that support imports in turn: each import of an extra found on the
 * way, named with the chain of support files that reaches it.
 */
export async function kernelTestProblems(file: string, read: (path: string) => Promise<string>): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Set<string>([file]);
  const queue: { file: string; via: string }[] = [{ file, via: '' }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const found of importsOf(next.file, await read(next.file))) {
      const problem = kernelTestProblem(found);
      if (problem !== undefined) problems.push(next.via === '' ? problem : `${file} (through ${next.via}): ${problem}`);
      const target = found.target;
      if (problem === undefined && target?.startsWith('test/support/') === true && !seen.has(target)) {
        seen.add(target);
        queue.push({ file: target, via: next.via === '' ? target : `${next.via} → ${target}` });
      }
    }
  }
  return problems;
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

  test('no extra imports a kernel file that is not one of the package\'s entry files', async () => {
    const entries = await kernelEntries();
    assert.deepEqual([...entries].sort(), ['lib/index.ts', 'server/core/index.ts', 'server/fetch/index.ts', 'server/node/index.ts', 'server/testing/index.ts']);
    const problems: string[] = [];
    for (const file of await sourceFiles('extras')) {
      for (const found of importsOf(file, await readFile(join(ROOT, file), 'utf8'))) {
        const problem = entryProblem(found, entries);
        if (problem !== undefined) problems.push(problem);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('no kernel test (test/lib/, test/server/) imports an extra, itself or through the test support it imports', async () => {
    const files = [...(await sourceFiles('test/lib')), ...(await sourceFiles('test/server'))];
    assert.ok(files.includes('test/server/core/core.test.ts'), files.join(', '));
    const read = (path: string): Promise<string> => readFile(join(ROOT, path), 'utf8');
    const problems: string[] = [];
    for (const file of files) problems.push(...(await kernelTestProblems(file, read)));
    assert.deepEqual(problems, []);
  });

  test('the kernel tests\' check follows test/support/ imports to an extra two modules away', async () => {
    const texts: Record<string, string> = {
      'test/server/node/sample.test.ts': "import { call } from '../../support/http.js';\nimport { untyped } from '../../support/untyped.js';",
      'test/support/http.ts': "import { startServer } from '../../server/node/index.js';\nexport * from './served.js';",
      'test/support/untyped.ts': 'export const untyped = 1;',
      'test/support/served.ts': "import { docsSite } from '../../extras/docs-site/index.js';\nimport { call } from './http.js';",
    };
    const read = async (path: string): Promise<string> => texts[path] ?? assert.fail(`read ${path}`);
    assert.deepEqual(await kernelTestProblems('test/server/node/sample.test.ts', read), [
      "test/server/node/sample.test.ts (through test/support/http.ts → test/support/served.ts): test/support/served.ts imports '../../extras/docs-site/index.js', an extra: the kernel's tests run without extras/",
    ]);
  });

  test('the entry check finds an extra\'s deep import into the kernel, and a kernel test\'s import of an extra', async () => {
    const entries = await kernelEntries();
    const extra = [
      "import { PetIndex } from '../../lib/storage/memory/pet-index.js';",
      "import type { CoreRequest } from '../../server/core/request.js';",
      "import { createPetstore } from '../../lib/index.js';",
      "import { jsonResponse } from '../../server/core/index.js';",
      "import { docsSite } from '../docs-site/index.js';",
    ].join('\n');
    assert.deepEqual(importsOf('extras/operator/sample.ts', extra).map((found) => entryProblem(found, entries)?.split(',')[0]), [
      "extras/operator/sample.ts imports '../../lib/storage/memory/pet-index.js' (lib/storage/memory/pet-index.ts)",
      "extras/operator/sample.ts imports '../../server/core/request.js' (server/core/request.ts)",
      undefined,
      undefined,
      undefined,
    ]);
    const kernelTest = ["import { docsSite } from '../../../extras/docs-site/index.js';", "import { journalPath } from '../../extras/file-storage/fixtures.js';", "import { inject } from '../../../server/testing/index.js';"].join('\n');
    assert.deepEqual(importsOf('test/server/core/sample.test.ts', kernelTest).map((found) => kernelTestProblem(found) !== undefined), [true, true, false]);
    assert.equal(kernelTestProblem(importsOf('test/lib/sample.test.ts', "import { journalPath } from '../extras/file-storage/fixtures.js';")[0]!) !== undefined, true);
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
