import { jsonResponse } from '../../server/core/index.js';
import type { Plugin, RootRoute } from '../../server/core/index.js';

/** The JSON the test plug-in's public route answers. */
export const DESCRIPTION = '{"openapi":"3.1.0"}';

/**
 * A plug-in of the kernel's tests, built on the `/core` entry alone as a third party's would be: one
 * public route below the base path (`/openapi.json`, as the docs site serves it) and, when asked, one
 * route at the root. The kernel's tests use it where they need a plug-in, so they run without extras/.
 */
export function testPlugin(rootRoutes: readonly RootRoute[] = []): Plugin {
  const description = jsonResponse(200, DESCRIPTION);
  return () => ({
    routes: [{ path: '/openapi.json', operations: { GET: { name: 'getOpenApiDescription', run: () => description } }, isPublic: true }],
    rootRoutes,
  });
}

/** Routes at the root named as the operator kit names its own, each answering 200. */
export function probeRoutes(names: Readonly<Record<string, string>>): RootRoute[] {
  return Object.entries(names).map(([path, operation]) => ({ path, operation, answer: () => jsonResponse(200, '{}') }));
}
