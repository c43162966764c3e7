// hono: the fetch handler in a hono app, under /api/v1, on any runtime hono runs on.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createFetchHandler } from 'petstore-reference/fetch';
import { Hono } from 'hono';
import { createPetstore } from '../../lib/index.js';
import { createFetchHandler } from '../../server/fetch/index.js';

/** A hono app with a route of its own and the Petstore at /api/v1. */
export function createApp(apiKeys: readonly string[]): Hono {
  const petstore = createFetchHandler({ store: createPetstore(), apiKeys, basePath: '/api/v1' });
  const app = new Hono();
  app.get('/status', (context) => context.text('ok'));
  // The original request: hono's mount() would hand on a copy without /api unless given { replaceRequest: false }.
  app.all('/api/v1/*', (context) => petstore(context.req.raw));
  return app;
}
