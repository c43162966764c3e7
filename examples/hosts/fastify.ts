// Fastify 5: the Petstore as middleware through @fastify/middie, beside the app's own routes.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import middie from '@fastify/middie';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';

/** A Fastify app with a route of its own and the Petstore at /v1, which middie runs before Fastify reads any body. */
export async function createApp(apiKeys: readonly string[]): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(middie);
  // In middie's onRequest hook: the handler reads the body itself; requests it does not serve go on to Fastify's routes.
  app.use(createHandler({ store: createPetstore(), apiKeys }));
  app.post('/orders', async (request, reply) => reply.code(201).send(request.body));
  return app;
}
