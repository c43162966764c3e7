// Express 5: the Petstore as middleware beside the app's own routes, reading its own body.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import express from 'express';
import type { Express } from 'express';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';

/** An Express app with a route of its own and the Petstore at /v1; the app's JSON parser comes after it, for the app's routes only. */
export function createApp(apiKeys: readonly string[]): Express {
  const app = express();
  app.get('/status', (_request, response) => void response.send('ok'));
  // Before any body parser: the handler reads and checks the body itself, every byte as the standalone server does.
  app.use(createHandler({ store: createPetstore(), apiKeys }));
  app.use(express.json());
  app.post('/orders', (request, response) => void response.status(201).json(request.body));
  return app;
}
