// Module resolution hooks (node:module register) that let the project's own files import the test
// tools by bare name: a bare import from a file of the project (outside any node_modules) that names
// a package of test/tools/package.json is resolved from test/tools/node_modules, which holds it.
// Plain JavaScript: it runs in the loader's thread, before any TypeScript loader.
import { readFileSync } from 'node:fs';

const PROJECT = new URL('../../', import.meta.url).href;
const TOOLS_MANIFEST = new URL('./package.json', import.meta.url);
/** A file inside test/tools/node_modules, as the importer: Node then looks for the package in that folder. */
const FROM_TOOLS = new URL('./node_modules/.resolve', import.meta.url).href;
const TOOLS = new Set(Object.keys(JSON.parse(readFileSync(TOOLS_MANIFEST, 'utf8')).devDependencies));

/** The package a bare specifier names (`fastify`, `hono` of `hono/mount`, `@koa/bodyparser`), or undefined for any other specifier. */
function packageName(specifier) {
  if (/^(\.|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether the importing file is the project's own (not a package's, whose dependencies are its own business). */
function isProjectFile(parentURL) {
  return typeof parentURL === 'string' && parentURL.startsWith(PROJECT) && !parentURL.slice(PROJECT.length).includes('node_modules/');
}

/**
 * The resolve hook: a test tool a project file imports is resolved as from test/tools/node_modules,
 * where it is installed. Resolved from inside that folder, so no loader after this one applies the
 * project's tsconfig `paths` to it (they point the typecheck at the tools' declaration files).
 */
export async function resolve(specifier, context, nextResolve) {
  return resolveSync(specifier, context, nextResolve);
}

/**
 * The same hook for `registerHooks` (Node 22.15 and later), whose hooks run in the thread and before
 * those of `register`: where tsx resolves in the thread too, only a hook of the same kind, registered
 * after it, sees a tool's import before tsx applies the `paths` to it.
 */
export function resolveSync(specifier, context, nextResolve) {
  const name = packageName(specifier);
  if (name === undefined || !TOOLS.has(name) || !isProjectFile(context.parentURL)) return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, parentURL: FROM_TOOLS });
}
