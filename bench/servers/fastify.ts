import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { ERROR_SCHEMA, isBenchKey, NEW_PET_SCHEMA, PET_SCHEMA, STATUSES } from './fastify-schemas.js';
import { prefillPets } from './fixture.js';

interface FastifyPet { id: number; name: string; categoryId: number; status?: string }

/**
 * Fastify 5 the way its documentation recommends: JSON schemas for body, query, params and
 * responses (validated by ajv, serialised by fast-json-stringify) and a bearer `onRequest` hook.
 */
export function createFastifyServer(): FastifyInstance {
  const pets: FastifyPet[] = prefillPets().map((pet, index) => ({ id: index + 1, ...pet }));
  const byStatus = new Map<string, FastifyPet[]>();
  for (const pet of pets) {
    if (pet.status !== undefined) byStatus.set(pet.status, [...(byStatus.get(pet.status) ?? []), pet]);
  }
  const app = Fastify({ logger: false });

  app.addHook('onRequest', async (request, reply) => {
    if (!isBenchKey(request.headers.authorization)) {
      await reply.code(401).header('WWW-Authenticate', 'Bearer realm="petstore"').send({ code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
    }
  });

  app.get('/v1/pets', {
    schema: {
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', default: 20 }, status: { type: 'string', enum: STATUSES } },
      },
      response: { 200: { type: 'array', items: PET_SCHEMA }, 401: ERROR_SCHEMA },
    },
  }, async (request) => {
    const query = request.query as { limit: number; status?: string };
    const limit = Math.min(100, Math.max(1, query.limit));
    const source = query.status === undefined ? pets : (byStatus.get(query.status) ?? []);
    return source.slice(0, limit);
  });

  app.post('/v1/pets', {
    schema: {
      body: NEW_PET_SCHEMA,
      response: { 201: PET_SCHEMA, 401: ERROR_SCHEMA },
    },
  }, async (request, reply) => {
    const body = request.body as Omit<FastifyPet, 'id'>;
    const pet: FastifyPet = { id: pets.length + 1, ...body };
    pets.push(pet);
    if (pet.status !== undefined) byStatus.get(pet.status)?.push(pet);
    return reply.code(201).header('Location', `/v1/pets/${pet.id}`).send(pet);
  });

  app.get('/v1/pets/:petId', {
    schema: {
      params: { type: 'object', properties: { petId: { type: 'integer' } } },
      response: { 200: PET_SCHEMA, 404: ERROR_SCHEMA, 401: ERROR_SCHEMA },
    },
  }, async (request, reply) => {
    const { petId } = request.params as { petId: number };
    const pet = pets[petId - 1];
    reply.header('Deprecation', '@1767225600').header('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT');
    if (pet === undefined) return reply.code(404).send({ code: 'not_found', message: 'Pet not found', status: 404 });
    return pet;
  });

  return app;
}
