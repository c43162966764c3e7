import { timingSafeEqual } from 'node:crypto';
import { BENCH_KEY } from './fixture.js';

/** The pet statuses both fastify servers accept and answer. */
export const STATUSES = ['available', 'pending', 'sold'] as const;

/** A Pet as both fastify servers describe their answers, for fast-json-stringify. */
export const PET_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
  },
} as const;

/** The Error body of both fastify servers' 401 and 404. */
export const ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
} as const;

/** The NewPet body both fastify servers validate with ajv. */
export const NEW_PET_SCHEMA = {
  type: 'object',
  required: ['name', 'categoryId'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 256 }, categoryId: { type: 'integer' }, status: { type: 'string', enum: STATUSES } },
} as const;

const EXPECTED_AUTHORIZATION = Buffer.from(`Bearer ${BENCH_KEY}`);

/** Whether an `Authorization` value carries the bench key, compared in constant time as every bench server does. */
export function isBenchKey(authorization: string | undefined): boolean {
  const given = Buffer.from(authorization ?? '');
  return given.length === EXPECTED_AUTHORIZATION.length && timingSafeEqual(given, EXPECTED_AUTHORIZATION);
}
