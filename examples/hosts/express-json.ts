// Express 5: the Petstore behind the app's JSON parser, which reads the body first.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler, parserErrorHandler } from 'petstore-reference/server';
import express from 'express';
import type { Express } from 'express';
import { createPetstore } from '../../lib/index.js';
import { createHandler, parserErrorHandler } from '../../server/node/index.js';

/** An Express app whose JSON parser runs for every route: the handler takes the `request.body` it leaves. */
export function createApp(apiKeys: readonly string[]): Express {
  const petstore = createHandler({ store: createPetstore(), apiKeys });
  const app = express();
  app.use(express.json());
  app.post('/orders', (request, response) => void response.status(201).json(request.body));
  app.use(petstore);
  // JSON the parser refuses, on the Petstore's paths: the interface's answer, not Express's HTML page.
  app.use(parserErrorHandler(petstore));
  return app;
}
