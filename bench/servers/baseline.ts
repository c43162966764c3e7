import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { BENCH_KEY, prefillPets } from './fixture.js';

interface BaselinePet { id: number; name: string; categoryId: number; status?: string }

/**
 * A straightforward hand-written node:http server for the same routes: URL objects, JSON.stringify
 * per response, a constant-time key check per request. What a careful developer writes first.
 */
export function createBaselineServer(): Server {
  const pets: BaselinePet[] = prefillPets().map((pet, index) => ({ id: index + 1, ...pet }));
  const expected = Buffer.from(`Bearer ${BENCH_KEY}`);

  function send(response: import('node:http').ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    response.end(text);
  }

  function error(response: import('node:http').ServerResponse, status: number, code: string, message: string): void {
    send(response, status, { code, message, status });
  }

  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return error(response, 401, 'unauthorized', 'Missing or invalid API key');
    if (url.pathname === '/v1/pets' && request.method === 'GET') {
      const limitText = url.searchParams.get('limit');
      const status = url.searchParams.get('status');
      let limit = limitText === null ? 20 : Number(limitText);
      if (!Number.isInteger(limit)) return error(response, 400, 'invalid_parameter', 'limit must be an integer');
      limit = Math.min(100, Math.max(1, limit));
      if (status !== null && !['available', 'pending', 'sold'].includes(status)) return error(response, 400, 'invalid_parameter', 'bad status');
      return send(response, 200, pets.filter((pet) => status === null || pet.status === status).slice(0, limit));
    }
    if (url.pathname === '/v1/pets' && request.method === 'POST') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => { body += chunk; });
      request.on('end', () => {
        let input: { name?: unknown; categoryId?: unknown; status?: unknown };
        try {
          input = JSON.parse(body) as typeof input;
        } catch {
          return error(response, 400, 'invalid_json', 'Body is not JSON');
        }
        if (typeof input.name !== 'string' || !Number.isSafeInteger(input.categoryId)) return error(response, 400, 'validation_failed', 'Invalid pet');
        const pet: BaselinePet = { id: pets.length + 1, name: input.name, categoryId: input.categoryId as number };
        if (typeof input.status === 'string') pet.status = input.status;
        pets.push(pet);
        response.setHeader('Location', `/v1/pets/${pet.id}`);
        send(response, 201, pet);
      });
      return;
    }
    const match = /^\/v1\/pets\/(-?\d+)$/.exec(url.pathname);
    if (match !== null && request.method === 'GET') {
      const pet = pets.find((candidate) => candidate.id === Number(match[1]));
      if (pet === undefined) return error(response, 404, 'not_found', 'Pet not found');
      response.setHeader('Deprecation', '@1767225600');
      response.setHeader('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT');
      return send(response, 200, pet);
    }
    error(response, 404, 'not_found', 'Not found');
  });
}
