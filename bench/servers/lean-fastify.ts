import { timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { BENCH_KEY, prefillPets } from './fixture.js';

interface LeanPet { id: number; name: string; categoryId: number; status?: string }

const STATUSES = ['available', 'pending', 'sold'] as const;

const petSchema = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
  },
} as const;

const errorSchema = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
} as const;

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
  // Constant time, as the other servers compare keys: the comparison measures the framework, not a weaker check.
  const expected = Buffer.from(`Bearer ${BENCH_KEY}`);
  const app = Fastify({ logger: false });

  app.addHook('onRequest', async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      await reply.code(401).send({ code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
    }
  });

  app.get<{ Querystring: { limit: number; status?: string } }>('/v1/pets', {
    schema: {
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, status: { type: 'string', enum: STATUSES } },
      },
      response: { 200: { type: 'array', items: petSchema }, 401: errorSchema },
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
      body: {
        type: 'object',
        required: ['name', 'categoryId'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 256 }, categoryId: { type: 'integer' }, status: { type: 'string', enum: STATUSES } },
      },
      response: { 201: petSchema, 401: errorSchema },
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
      response: { 200: petSchema, 401: errorSchema, 404: errorSchema },
    },
  }, async (request, reply) => {
    const pet = byId.get(request.params.petId);
    if (pet === undefined) return reply.code(404).send({ code: 'not_found', message: 'Pet not found', status: 404 });
    return pet;
  });

  return app;
}
