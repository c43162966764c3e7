// Express 5: the Petstore mounted under a prefix, at /api/v1.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import express from 'express';
import type { Express } from 'express';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';

/** An Express app serving the Petstore under /api: Express strips the prefix, and `Location` and `Link` put it back. */
export function createApp(apiKeys: readonly string[]): Express {
  const app = express();
  app.get('/status', (_request, response) => void response.send('ok'));
  // The handler keeps its base path /v1 below the prefix, and learns /api from `request.originalUrl`.
  app.use('/api', createHandler({ store: createPetstore(), apiKeys }));
  return app;
}
