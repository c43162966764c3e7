import { timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { BENCH_KEY, prefillPets } from './fixture.js';

interface FastifyPet { id: number; name: string; categoryId: number; status?: string }

/** The pet statuses both fastify servers accept and answer. */
const STATUSES = ['available', 'pending', 'sold'] as const;

/** A Pet as both fastify servers describe their answers, for fast-json-stringify. */
const PET_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { type: 'string', enum: STATUSES } },
} as const;

/** The Error body of both fastify servers' 401 and 404. */
const ERROR_SCHEMA = { type: 'object', required: ['code', 'message', 'status'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } } as const;

/** The NewPet body both fastify servers validate with ajv. */
const NEW_PET_SCHEMA = {
  type: 'object',
  required: ['name', 'categoryId'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 256 }, categoryId: { type: 'integer' }, status: { type: 'string', enum: STATUSES } },
} as const;

const NOT_FOUND = { code: 'not_found', message: 'Pet not found', status: 404 };
const EXPECTED_AUTHORIZATION = Buffer.from(`Bearer ${BENCH_KEY}`);

/** Fastify 5 with the bench's 1,000 pets and a bearer `onRequest` hook comparing the key in constant time, as every bench server does; `wwwAuthenticate` goes on its 401. */
function fastifyWithPets(wwwAuthenticate?: string): { app: FastifyInstance; pets: FastifyPet[] } {
  const pets: FastifyPet[] = prefillPets().map((pet, index) => ({ id: index + 1, ...pet }));
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length === EXPECTED_AUTHORIZATION.length && timingSafeEqual(given, EXPECTED_AUTHORIZATION)) return;
    if (wwwAuthenticate !== undefined) void reply.header('WWW-Authenticate', wwwAuthenticate);
    await reply.code(401).send({ code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
  });
  return { app, pets };
}

/**
 * Fastify 5 the way its documentation recommends, doing the project's work: JSON schemas for body,
 * query, params and responses (validated by ajv, serialised by fast-json-stringify), an index by
 * status, `WWW-Authenticate` on the 401, `Deprecation` and `Sunset` on `getPet`.
 */
export function createFastifyServer(): FastifyInstance {
  const { app, pets } = fastifyWithPets('Bearer realm="petstore"');
  const byStatus = new Map<string, FastifyPet[]>(STATUSES.map((status) => [status, pets.filter((pet) => pet.status === status)]));
  app.get('/v1/pets', {
    schema: {
      querystring: { type: 'object', properties: { limit: { type: 'integer', default: 20 }, status: { type: 'string', enum: STATUSES } } },
      response: { 200: { type: 'array', items: PET_SCHEMA }, 401: ERROR_SCHEMA },
    },
  }, async (request) => {
    const query = request.query as { limit: number; status?: string };
    return (query.status === undefined ? pets : (byStatus.get(query.status) ?? [])).slice(0, Math.min(100, Math.max(1, query.limit)));
  });
  app.post('/v1/pets', { schema: { body: NEW_PET_SCHEMA, response: { 201: PET_SCHEMA, 401: ERROR_SCHEMA } } }, async (request, reply) => {
    const pet: FastifyPet = { id: pets.length + 1, ...(request.body as Omit<FastifyPet, 'id'>) };
    pets.push(pet);
    if (pet.status !== undefined) byStatus.get(pet.status)?.push(pet);
    return reply.code(201).header('Location', `/v1/pets/${pet.id}`).send(pet);
  });
  app.get('/v1/pets/:petId', {
    schema: { params: { type: 'object', properties: { petId: { type: 'integer' } } }, response: { 200: PET_SCHEMA, 404: ERROR_SCHEMA, 401: ERROR_SCHEMA } },
  }, async (request, reply) => {
    const pet = pets[(request.params as { petId: number }).petId - 1];
    reply.header('Deprecation', '@1767225600').header('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT');
    return pet ?? reply.code(404).send(NOT_FOUND);
  });
  return app;
}

/**
 * Fastify 5 as a fastify user writes it in an afternoon: JSON schemas for query, body and params,
 * response schemas (fast-json-stringify), a bearer `onRequest` hook, logger off, the pets in an
 * array and a `Map`, and a plain loop for the list. It sends the headers fastify sends by default
 * and `Location` on 201 (the created pet's address, which a client of a create needs), nothing else:
 * no `Link` paging, no `WWW-Authenticate`, no `Deprecation`/`Sunset`, no request id, no caching or
 * sniffing headers. The route generics name the shapes the schemas have already validated.
 */
export function createLeanFastifyServer(): FastifyInstance {
  const { app, pets } = fastifyWithPets();
  const byId = new Map<number, FastifyPet>(pets.map((pet) => [pet.id, pet]));
  app.get<{ Querystring: { limit: number; status?: string } }>('/v1/pets', {
    schema: {
      querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, status: { type: 'string', enum: STATUSES } } },
      response: { 200: { type: 'array', items: PET_SCHEMA }, 401: ERROR_SCHEMA },
    },
  }, async (request) => {
    const { limit, status } = request.query;
    const page: FastifyPet[] = [];
    for (const pet of pets) {
      if (status !== undefined && pet.status !== status) continue;
      page.push(pet);
      if (page.length === limit) break;
    }
    return page;
  });
  app.post<{ Body: Omit<FastifyPet, 'id'> }>('/v1/pets', { schema: { body: NEW_PET_SCHEMA, response: { 201: PET_SCHEMA, 401: ERROR_SCHEMA } } }, async (request, reply) => {
    const pet: FastifyPet = { id: pets.length + 1, ...request.body };
    pets.push(pet);
    byId.set(pet.id, pet);
    return reply.code(201).header('Location', `/v1/pets/${pet.id}`).send(pet);
  });
  app.get<{ Params: { petId: number } }>('/v1/pets/:petId', {
    schema: { params: { type: 'object', required: ['petId'], properties: { petId: { type: 'integer' } } }, response: { 200: PET_SCHEMA, 401: ERROR_SCHEMA, 404: ERROR_SCHEMA } },
  }, async (request, reply) => byId.get(request.params.petId) ?? reply.code(404).send(NOT_FOUND));
  return app;
}
