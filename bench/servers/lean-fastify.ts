import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { ERROR_SCHEMA, isBenchKey, NEW_PET_SCHEMA, PET_SCHEMA, STATUSES } from './fastify-schemas.js';
import { prefillPets } from './fixture.js';

interface LeanPet { id: number; name: string; categoryId: number; status?: string }

/**
 * Fastify 5 as a fastify user writes it in an afternoon: JSON schemas for query, body and params,
 * response schemas (fast-json-stringify), a bearer `onRequest` hook, logger off, the pets in an
 * array and a `Map`, and a plain loop for the list. It sends the headers fastify sends by default
 * and `Location` on 201 (the created pet's address, which a client of a create needs), nothing else:
 * no `Link` paging, no `WWW-Authenticate`, no `Deprecation`/`Sunset`, no request id, no caching or
 * sniffing headers. The route generics name the shapes the schemas have already validated.
 */
export function createLeanFastifyServer(): FastifyInstance {
  const pets: LeanPet[] = [];
  const byId = new Map<number, LeanPet>();
  for (const fields of prefillPets()) {
    const pet: LeanPet = { id: pets.length + 1, ...fields };
    pets.push(pet);
    byId.set(pet.id, pet);
  }
  const app = Fastify({ logger: false });

  app.addHook('onRequest', async (request, reply) => {
    if (!isBenchKey(request.headers.authorization)) {
      await reply.code(401).send({ code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
    }
  });

  app.get<{ Querystring: { limit: number; status?: string } }>('/v1/pets', {
    schema: {
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, status: { type: 'string', enum: STATUSES } },
      },
      response: { 200: { type: 'array', items: PET_SCHEMA }, 401: ERROR_SCHEMA },
    },
  }, async (request) => {
    const { limit, status } = request.query;
    const page: LeanPet[] = [];
    for (const pet of pets) {
      if (status !== undefined && pet.status !== status) continue;
      page.push(pet);
      if (page.length === limit) break;
    }
    return page;
  });

  app.post<{ Body: Omit<LeanPet, 'id'> }>('/v1/pets', {
    schema: {
      body: NEW_PET_SCHEMA,
      response: { 201: PET_SCHEMA, 401: ERROR_SCHEMA },
    },
  }, async (request, reply) => {
    const pet: LeanPet = { id: pets.length + 1, ...request.body };
    pets.push(pet);
    byId.set(pet.id, pet);
    return reply.code(201).header('Location', `/v1/pets/${pet.id}`).send(pet);
  });

  app.get<{ Params: { petId: number } }>('/v1/pets/:petId', {
    schema: {
      params: { type: 'object', required: ['petId'], properties: { petId: { type: 'integer' } } },
      response: { 200: PET_SCHEMA, 401: ERROR_SCHEMA, 404: ERROR_SCHEMA },
    },
  }, async (request, reply) => {
    const pet = byId.get(request.params.petId);
    if (pet === undefined) return reply.code(404).send({ code: 'not_found', message: 'Pet not found', status: 404 });
    return pet;
  });

  return app;
}
