// Prints the size of each kernel entry point bundled and minified, Node's built-in modules left out:
// what an embedder's bundle carries for it. Run with `npm run bundle-size`; docs/architecture.md
// states the budgets, and test/scripts/bundle-size.test.ts holds the entries to them.
import { build } from 'esbuild';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** The kernel's entry points, with the most each may weigh bundled and minified (bytes). */
export const BUNDLE_BUDGETS = [
  { entry: 'petstore-reference', source: 'lib/index.ts', budget: 40_000 },
  { entry: 'petstore-reference/fetch', source: 'server/fetch/index.ts', budget: 40_000 },
  { entry: 'petstore-reference/server', source: 'server/node/index.ts', budget: 60_000 },
  { entry: 'petstore-reference/testing', source: 'server/testing/index.ts', budget: 60_000 },
] as const;

/** The bytes of one entry point bundled and minified as ESM for Node, its built-in modules external. */
export async function bundledSize(source: string): Promise<number> {
  const result = await build({
    entryPoints: [resolve(ROOT, source)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles.reduce((total, file) => total + file.contents.length, 0);
}

if (process.argv[1] === import.meta.filename) {
  for (const { entry, source, budget } of BUNDLE_BUDGETS) {
    const size = await bundledSize(source);
    console.log(`${entry.padEnd(28)} ${(size / 1000).toFixed(1).padStart(6)} KB  (budget ${budget / 1000} KB)`);
  }
}
