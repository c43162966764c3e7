// hapi 21: the Petstore in a catch-all route that leaves the body unread for the handler.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import Hapi from '@hapi/hapi';
import type { Server } from '@hapi/hapi';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';

/** A hapi server with a route of its own and the Petstore at /v1 on 127.0.0.1 (port 0: any free port). */
export function createApp(apiKeys: readonly string[], port = 0): Server {
  const petstore = createHandler({ store: createPetstore(), apiKeys });
  const server = Hapi.server({ port, host: '127.0.0.1' });
  server.route({ method: 'GET', path: '/status', handler: () => 'ok' });
  server.route({
    method: '*',
    path: '/v1/{path*}',
    // hapi would otherwise read and parse the body itself, and keep it where the handler cannot see it.
    options: { payload: { parse: false, output: 'stream' } },
    handler: (request, h) => {
      petstore(request.raw.req, request.raw.res);
      // The handler answers on Node's response: hapi must not write one of its own.
      return h.abandon;
    },
  });
  return server;
}
