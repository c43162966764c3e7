// Express 5: the Petstore behind the app's JSON parser, which reads the body first.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import express from 'express';
import type { Express } from 'express';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';

/** An Express app whose JSON parser runs for every route: the handler takes the `request.body` it leaves. */
export function createApp(apiKeys: readonly string[]): Express {
  const app = express();
  app.use(express.json());
  app.post('/orders', (request, response) => void response.status(201).json(request.body));
  app.use(createHandler({ store: createPetstore(), apiKeys }));
  return app;
}
