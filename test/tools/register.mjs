// `node --import ./test/tools/register.mjs`: the test tools resolve by bare name from the project's
// files (see hooks.mjs and README.md beside it). npm test, the benchmarks and the scripts that need a
// tool load it; a process they start that needs a tool gets `--import` with this file's path too.
import * as nodeModule from 'node:module';
import { resolveSync } from './hooks.mjs';

// In the thread where Node has it (22.15 and later), as tsx resolves there too; else in the loader's thread.
if (typeof nodeModule.registerHooks === 'function') nodeModule.registerHooks({ resolve: resolveSync });
else nodeModule.register('./hooks.mjs', import.meta.url);
