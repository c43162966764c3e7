// Where the test tools are, for what a bare import cannot reach: their commands, their files, and
// the hook a process started by a test needs to import them (see README.md beside this file).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the test tools' package, test/tools/. */
export const TOOLS_ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The path of register.mjs, for `node --import` in a process that imports a test tool by bare name. */
export const TOOLS_REGISTER = join(TOOLS_ROOT, 'register.mjs');

/** The path of a test tool's command as npm installs it, e.g. `toolBin('deno')`. */
export function toolBin(name: string): string {
  return join(TOOLS_ROOT, 'node_modules', '.bin', name);
}

/** The path of a file of a test tool's package, resolved as `require.resolve` would from test/tools/, e.g. `toolFile('axe-core/axe.min.js')`. */
export function toolFile(specifier: string): string {
  return createRequire(join(TOOLS_ROOT, 'package.json')).resolve(specifier);
}
