// Koa 3: the Petstore behind @koa/bodyparser, which reads the body first.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler, koaParserErrors } from 'petstore-reference/server';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { createPetstore } from '../../lib/index.js';
import { createHandler, koaParserErrors } from '../../server/node/index.js';
import { petstoreMiddleware } from './koa.js';

/** A Koa app whose JSON parser runs for every route: the handler takes the bytes it keeps with `patchNode`. */
export function createApp(apiKeys: readonly string[]): Koa {
  const petstore = createHandler({ store: createPetstore(), apiKeys });
  const app = new Koa();
  // Before the parser: JSON it refuses, on the Petstore's paths, gets the interface's answer, not Koa's text.
  app.use(koaParserErrors(petstore));
  app.use(bodyParser({ patchNode: true }));
  app.use(petstoreMiddleware(petstore));
  return app;
}
