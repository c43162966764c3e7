// Writes extras/docs-site/reference/interface-text.ts from docs/interface.md, and
// extras/docs-site/reference/conformance-map.json from docs/spec-conformance.md's table of clauses. Run
// with `npm run interface-text` after editing either; test/scripts/interface-text.test.ts and
// test/docs/spec-conformance.test.ts fail until then.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { INTERFACE_TEXT_MODULE, interfaceTextModule } from './interface-text-module.js';
import { CONFORMANCE_MAP_DATA, conformanceMapData, repositoryFilesUrl } from './interface-text-map.js';

const root = resolve(import.meta.dirname, '..');
for (const [module, source] of [
  [INTERFACE_TEXT_MODULE, interfaceTextModule(await readFile(resolve(root, 'docs', 'interface.md'), 'utf8'))],
  [CONFORMANCE_MAP_DATA, conformanceMapData(await readFile(resolve(root, 'docs', 'spec-conformance.md'), 'utf8'), repositoryFilesUrl(JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8'))))],
] as const) {
  const target = resolve(root, module);
  await writeFile(target, source);
  process.stdout.write(`Wrote ${target}\n`);
}
