// Rewrites the links of docs/spec-conformance.md to the lines of the code and tests it cites. Run with
// `npm run spec-links` after editing a cited file; test/docs/spec-conformance.test.ts fails until then.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { linkSpecConformance } from './spec-conformance-links.js';

const root = resolve(import.meta.dirname, '..');
const target = resolve(root, 'docs', 'spec-conformance.md');
const read = (path: string): string | undefined => {
  const file = resolve(root, path);
  return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
};
await writeFile(target, linkSpecConformance(readFileSync(target, 'utf8'), read));
process.stdout.write(`Wrote ${target}\n`);
