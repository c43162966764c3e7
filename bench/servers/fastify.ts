import { timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { BENCH_KEY, prefillPets } from './fixture.js';

interface FastifyPet { id: number; name: string; categoryId: number; status?: string }

const petSchema = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: ['available', 'pending', 'sold'] },
  },
} as const;

const errorSchema = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
} as const;

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
  const expected = Buffer.from(`Bearer ${BENCH_KEY}`);
  const app = Fastify({ logger: false });

  app.addHook('onRequest', async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      await reply.code(401).header('WWW-Authenticate', 'Bearer realm="petstore"').send({ code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
    }
  });

  app.get('/v1/pets', {
    schema: {
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', default: 20 }, status: { type: 'string', enum: ['available', 'pending', 'sold'] } },
      },
      response: { 200: { type: 'array', items: petSchema }, 401: errorSchema },
    },
  }, async (request) => {
    const query = request.query as { limit: number; status?: string };
    const limit = Math.min(100, Math.max(1, query.limit));
    const source = query.status === undefined ? pets : (byStatus.get(query.status) ?? []);
    return source.slice(0, limit);
  });

  app.post('/v1/pets', {
    schema: {
      body: {
        type: 'object',
        required: ['name', 'categoryId'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 256 }, categoryId: { type: 'integer' }, status: { type: 'string', enum: ['available', 'pending', 'sold'] } },
      },
      response: { 201: petSchema, 401: errorSchema },
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
      response: { 200: petSchema, 404: errorSchema, 401: errorSchema },
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
