// Koa 3: the Petstore as Koa middleware beside the app's own routes, before the app's body parser or behind it.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler, koaParserErrors } from 'petstore-reference/server';
//   import type { PetstoreHandler } from 'petstore-reference/server';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { Middleware } from 'koa';
import { createPetstore } from '../../lib/index.js';
import { createHandler, koaParserErrors } from '../../server/node/index.js';
import type { PetstoreHandler } from '../../server/node/index.js';

/** Koa middleware that hands Node's request and response to the handler, and the requests it does not serve to the next middleware. */
export function petstoreMiddleware(handler: PetstoreHandler): Middleware {
  return async (context, next) => {
    let isElsewhere = false;
    handler(context.req, context.res, () => {
      isElsewhere = true;
    });
    if (isElsewhere) return next();
    // The handler answers on Node's response: Koa must not write one of its own after it.
    context.respond = false;
  };
}

/** A Koa app with a route of its own and the Petstore at /v1; @koa/bodyparser comes after it, for the app's routes only. */
export function createApp(apiKeys: readonly string[]): Koa {
  const app = new Koa();
  app.use(petstoreMiddleware(createHandler({ store: createPetstore(), apiKeys })));
  app.use(bodyParser());
  app.use((context) => {
    if (context.method !== 'POST' || context.path !== '/orders') return;
    context.status = 201;
    context.body = context.request.body;
  });
  return app;
}

/** A Koa app whose JSON parser runs for every route: the handler takes the bytes it keeps with `patchNode`. */
export function createAppBehindParser(apiKeys: readonly string[]): Koa {
  const petstore = createHandler({ store: createPetstore(), apiKeys });
  const app = new Koa();
  // Before the parser: JSON it refuses, on the Petstore's paths, gets the interface's answer, not Koa's text.
  app.use(koaParserErrors(petstore));
  app.use(bodyParser({ patchNode: true }));
  app.use(petstoreMiddleware(petstore));
  return app;
}
