// Writes extras/docs-site/reference/interface-text.ts from docs/interface.md. Run with `npm run interface-text`
// after editing the interface's text; test/scripts/interface-text.test.ts fails until then.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { INTERFACE_TEXT_MODULE, interfaceTextModule } from './interface-text-module.js';

const root = resolve(import.meta.dirname, '..');
const target = resolve(root, INTERFACE_TEXT_MODULE);
await writeFile(target, interfaceTextModule(await readFile(resolve(root, 'docs', 'interface.md'), 'utf8')));
process.stdout.write(`Wrote ${target}\n`);
