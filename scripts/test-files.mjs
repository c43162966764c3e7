// Prints the test files `npm test` runs, one per line. On the Nodes of CI's matrix after the first
// (scripts/test-node.sh sets PETSTORE_MATRIX_REPEAT=1 there), it leaves out the files that test
// what is not Node's: a browser, balancers and a pooler, Deno and Bun, the OpenAPI linters, Prism.
// They ran on the matrix's first Node; running them four times only made the matrix longer.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The files, or the folders of files, that run once per matrix. */
export const ONCE_PER_MATRIX = [
  'test/browser/',
  'test/docs/reference-page-claims.test.ts',
  'test/fleet/',
  'test/runtimes/deno-bun.test.ts',
  'test/extras/docs-site/openapi/lint.test.ts',
  'test/extras/conformance/prism.test.ts',
];

function testFiles(folder) {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const isRepeat = process.env.PETSTORE_MATRIX_REPEAT === '1';
const files = testFiles('test').sort().filter((file) => !(isRepeat && ONCE_PER_MATRIX.some((once) => file === once || file.startsWith(once))));
process.stdout.write(`${files.map((file) => relative(ROOT, join(ROOT, file))).join('\n')}\n`);
