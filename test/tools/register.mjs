// `node --import ./test/tools/register.mjs`: the test tools resolve by bare name from the project's
// files (see hooks.mjs and README.md beside it). npm test, the benchmarks and the scripts that need a
// tool load it; a process they start that needs a tool gets `--import` with this file's path too.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
