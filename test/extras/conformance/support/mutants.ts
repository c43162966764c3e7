import type { Level } from '../../../../extras/conformance/index.js';
import type { FetchHandler } from './serve-fetch.js';

/** A deliberately broken variant of the interface: the real fetch handler with one behaviour broken. */
export interface Mutant {
  name: string;
  /** The defect, in one sentence. */
  defect: string;
  /** The level whose checks must catch it. */
  level: Level;
  /** The checks meant to catch it, each with the clause it must name. */
  caughtBy: readonly { id: string; clause: string }[];
  /** Wraps the real handler; `apiKey` is the key the server accepts. */
  wrap(handler: FetchHandler, apiKey: string): FetchHandler;
}

const PETS = /^\/v1\/pets$/;
const PET = /^\/v1\/pets\/[^/]+$/;

function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}

function isGet(request: Request, path: RegExp): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && path.test(pathOf(request));
}

/** The same request (without a body) with its URL changed. */
function withUrl(request: Request, change: (url: URL) => void): Request {
  const url = new URL(request.url);
  change(url);
  return new Request(url, { method: request.method, headers: request.headers });
}

/** The same request with one header set. */
function withAuthorization(request: Request, apiKey: string): Request {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${apiKey}`);
  return new Request(request, { headers });
}

/** The response with its headers changed. */
function withHeaders(response: Response, change: (headers: Headers) => void, status = response.status): Response {
  const headers = new Headers(response.headers);
  change(headers);
  return new Response(response.body, { status, headers });
}

/** The response with its JSON body changed. */
async function withJson(response: Response, change: (body: Record<string, unknown>) => unknown, status = response.status): Promise<Response> {
  const body = change(await response.json() as Record<string, unknown>);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status, headers });
}

/** Whether a request is a createPet with an `Idempotency-Key`. */
function isKeyedCreate(request: Request): boolean {
  return request.method === 'POST' && PETS.test(pathOf(request)) && request.headers.has('idempotency-key');
}

/** The same POST with its body read and its `Idempotency-Key` removed, as a server ignoring the header sees it. */
async function withoutIdempotencyKey(request: Request): Promise<Request> {
  const headers = new Headers(request.headers);
  headers.delete('idempotency-key');
  headers.delete('content-length');
  return new Request(request.url, { method: request.method, headers, body: await request.text() });
}

/** A wrap that changes the answers matching `condition` and leaves the others as they are. */
function onAnswer(condition: (request: Request, response: Response) => boolean, change: (response: Response) => Response | Promise<Response>) {
  return (handler: FetchHandler): FetchHandler => async (request) => {
    const response = await handler(request);
    return condition(request, response) ? change(response) : response;
  };
}

/** The broken variants, one defect each: the twelve the issue names first, then the others, the last five of `Idempotency-Key`. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: 'auth-bypassed-for-getPet',
    defect: 'getPet answers without checking the key',
    level: 'spec',
    caughtBy: [{ id: 'auth/missing-key/getPet', clause: '5.4' }, { id: 'auth/invalid-key/getPet', clause: '5.4' }],
    wrap: (handler, apiKey) => (request) => handler(isGet(request, PET) ? withAuthorization(request, apiKey) : request),
  },
  {
    name: 'any-token-accepted',
    defect: 'any bearer token is accepted as a key',
    level: 'spec',
    caughtBy: ['listPets', 'createPet', 'getPet'].map((operation) => ({ id: `auth/invalid-key/${operation}`, clause: '5.4' })),
    wrap: (handler, apiKey) => (request) => handler(/^bearer\s+\S/i.test(request.headers.get('authorization') ?? '') ? withAuthorization(request, apiKey) : request),
  },
  {
    name: 'limit-ignored',
    defect: 'listPets ignores `limit`',
    level: 'spec',
    caughtBy: [{ id: 'list/limit-honoured', clause: '4.1' }],
    wrap: (handler) => (request) => handler(isGet(request, PETS) ? withUrl(request, (url) => url.searchParams.delete('limit')) : request),
  },
  {
    name: 'default-limit-not-20',
    defect: 'listPets answers 10 pets when no `limit` is given',
    level: 'spec',
    caughtBy: [{ id: 'list/default-limit', clause: '4.1' }],
    wrap: (handler) => (request) => handler(isGet(request, PETS) ? withUrl(request, (url) => {
      if (!url.searchParams.has('limit')) url.searchParams.set('limit', '10');
    }) : request),
  },
  {
    name: 'max-limit-10',
    defect: 'listPets answers at most 10 pets whatever `limit` asks',
    level: 'spec',
    caughtBy: [{ id: 'list/limit-honoured', clause: '4.1' }],
    wrap: (handler) => (request) => handler(isGet(request, PETS) ? withUrl(request, (url) => {
      const limit = url.searchParams.get('limit');
      if (limit !== null && Number(limit) > 10) url.searchParams.set('limit', '10');
    }) : request),
  },
  {
    name: 'status-filter-ignored',
    defect: 'listPets ignores `status`',
    level: 'spec',
    caughtBy: [{ id: 'list/status-filter', clause: '4.1' }],
    wrap: (handler) => (request) => handler(isGet(request, PETS) ? withUrl(request, (url) => url.searchParams.delete('status')) : request),
  },
  {
    name: 'created-as-200',
    defect: 'createPet answers 200 instead of 201',
    level: 'spec',
    caughtBy: [{ id: 'create/created', clause: '4.2' }],
    wrap: onAnswer((_, response) => response.status === 201, (response) => withHeaders(response, () => undefined, 200)),
  },
  {
    name: 'created-pet-without-id',
    defect: 'createPet answers the Pet without its `id`',
    level: 'spec',
    caughtBy: [{ id: 'create/created', clause: '4.2' }],
    wrap: onAnswer((_, response) => response.status === 201, (response) => withJson(response, ({ id: _id, ...rest }) => rest)),
  },
  {
    name: 'error-status-always-400',
    defect: 'every Error body says `status: 400`, whatever the HTTP status',
    level: 'spec',
    caughtBy: [{ id: 'errors/status-matches', clause: '7' }],
    wrap: onAnswer((request, response) => response.status >= 400 && request.method !== 'HEAD', (response) => withJson(response, (body) => ({ ...body, status: 400 }))),
  },
  {
    name: 'missing-pet-as-200',
    defect: 'getPet answers 200 with `{}` for an id no pet has',
    level: 'spec',
    caughtBy: [{ id: 'get/missing-pet', clause: '4.3' }],
    wrap: onAnswer((request, response) => request.method === 'GET' && PET.test(pathOf(request)) && response.status === 404, (response) => withJson(response, () => ({}), 200)),
  },
  {
    name: 'bad-request-as-500',
    defect: 'every 400 is answered as a 500',
    level: 'spec',
    caughtBy: ['missing-name', 'missing-category-id', 'invalid-name', 'invalid-category-id', 'fractional-category-id', 'invalid-status'].map((id) => ({ id: `create/${id}`, clause: '4.2' })),
    wrap: onAnswer((_, response) => response.status === 400, (response) => withJson(response, () => ({ code: 'internal_error', message: 'Something broke', status: 500 }), 500)),
  },
  {
    name: 'deprecation-headers-missing',
    defect: 'getPet answers without Deprecation, Sunset and the successor Link',
    level: 'reference',
    caughtBy: [{ id: 'deprecation/getPet', clause: '4.3' }, { id: 'deprecation/getPet-errors', clause: '4.3' }],
    wrap: onAnswer((request) => PET.test(pathOf(request)), (response) => withHeaders(response, (headers) => {
      for (const name of ['deprecation', 'sunset', 'link']) headers.delete(name);
    })),
  },
  {
    name: 'link-skips-a-pet',
    defect: 'the `Link: rel="next"` of listPets skips one pet',
    level: 'reference',
    caughtBy: [{ id: 'paging/link-next', clause: '4.4' }],
    wrap: onAnswer((_, response) => response.headers.has('link'), (response) => withHeaders(response, (headers) => {
      headers.set('link', (headers.get('link') ?? '').replace(/after=(\d+)/, (_, after: string) => `after=${Number(after) + 1}`));
    })),
  },
  {
    name: 'json-labelled-text-plain',
    defect: 'every JSON answer is labelled `Content-Type: text/plain`',
    level: 'spec',
    caughtBy: [{ id: 'list/array-of-pets', clause: '4.1' }, { id: 'create/created', clause: '4.2' }, { id: 'auth/missing-key/listPets', clause: '5.4' }],
    wrap: onAnswer((_, response) => response.headers.has('content-type'), (response) => withHeaders(response, (headers) => headers.set('content-type', 'text/plain'))),
  },
  {
    name: 'location-missing',
    defect: 'createPet answers without `Location`',
    level: 'reference',
    caughtBy: [{ id: 'create/location', clause: '4.2' }],
    wrap: onAnswer((_, response) => response.status === 201, (response) => withHeaders(response, (headers) => headers.delete('location'))),
  },
  {
    name: 'limit-rejected-not-clamped',
    defect: 'listPets rejects a `limit` outside 1..100 instead of clamping it',
    level: 'reference',
    caughtBy: [{ id: 'list/limit-clamped-low', clause: '4.1' }, { id: 'list/limit-clamped-high', clause: '4.1' }],
    wrap: (handler) => async (request) => {
      const limit = Number(new URL(request.url).searchParams.get('limit') ?? '20');
      if (!isGet(request, PETS) || (limit >= 1 && limit <= 100) || Number.isNaN(limit)) return handler(request);
      const body = { code: 'invalid_parameter', message: 'limit must be 1 to 100', status: 400 };
      return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } });
    },
  },
  {
    name: 'unknown-fields-dropped',
    defect: 'createPet drops unknown fields instead of rejecting them',
    level: 'reference',
    caughtBy: [{ id: 'create/unknown-field', clause: '4.2' }],
    wrap: (handler) => async (request) => {
      if (request.method !== 'POST' || !PETS.test(pathOf(request))) return handler(request);
      const text = await request.text();
      const headers = new Headers(request.headers);
      headers.delete('content-length');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return handler(new Request(request.url, { method: 'POST', headers, body: text }));
      }
      const kept = typeof body === 'object' && body !== null && !Array.isArray(body)
        ? Object.fromEntries(Object.entries(body).filter(([key]) => ['name', 'categoryId', 'status'].includes(key)))
        : body;
      return handler(new Request(request.url, { method: 'POST', headers, body: JSON.stringify(kept) }));
    },
  },
  {
    name: 'idempotency-key-ignored',
    defect: 'createPet ignores `Idempotency-Key`, so every repeat stores another pet',
    level: 'reference',
    caughtBy: ['replay', 'key-reused', 'concurrent', 'malformed-key'].map((id) => ({ id: `idempotency/${id}`, clause: '4.2' })),
    wrap: (handler) => async (request) => handler(isKeyedCreate(request) ? await withoutIdempotencyKey(request) : request),
  },
  {
    name: 'replay-unmarked',
    defect: 'a replayed create answers without `Idempotent-Replayed: true`',
    level: 'reference',
    caughtBy: [{ id: 'idempotency/replay', clause: '4.2' }],
    wrap: onAnswer((_, response) => response.headers.has('idempotent-replayed'), (response) => withHeaders(response, (headers) => headers.delete('idempotent-replayed'))),
  },
  {
    name: 'key-reuse-as-conflict',
    defect: 'a key reused with another body is answered 409 as if in flight, instead of 422',
    level: 'reference',
    caughtBy: [{ id: 'idempotency/key-reused', clause: '4.2' }],
    wrap: onAnswer((_, response) => response.status === 422, (response) => withJson(response, () => ({ code: 'idempotency_key_in_use', message: 'Busy', status: 409 }), 409)),
  },
  {
    name: 'key-check-not-atomic',
    defect: 'creates with one key at the same time each store a pet: the key is looked up, then stored, in two steps',
    level: 'reference',
    caughtBy: [{ id: 'idempotency/concurrent', clause: '4.2' }],
    wrap: (handler) => {
      /** Keys whose first create is between its lookup and its store, with what lets it go on. */
      const inFlight = new Map<string, () => void>();
      return async (request) => {
        const key = request.headers.get('idempotency-key');
        if (!isKeyedCreate(request) || key === null) return handler(request);
        const first = inFlight.get(key);
        if (first !== undefined) {
          // A create that finds its key in flight goes ahead without it, as a lookup that missed the uncommitted first would.
          first();
          return handler(await withoutIdempotencyKey(request));
        }
        // The first create waits between its lookup and its store for the next create of its key (or 100 ms, when none comes), as on a slow store.
        await new Promise<void>((resume) => {
          const timer = setTimeout(resume, 100);
          inFlight.set(key, () => {
            clearTimeout(timer);
            resume();
          });
        });
        try {
          return await handler(request);
        } finally {
          inFlight.delete(key);
        }
      };
    },
  },
  {
    name: 'malformed-key-accepted',
    defect: 'createPet accepts an empty or malformed `Idempotency-Key` and creates the pet without one',
    level: 'reference',
    caughtBy: [{ id: 'idempotency/malformed-key', clause: '4.2' }],
    wrap: (handler) => async (request) => {
      const key = request.headers.get('idempotency-key') ?? '';
      const isWellFormed = /^"[^"]+"$/.test(key) || /^[A-Za-z0-9-]+$/.test(key);
      return handler(isKeyedCreate(request) && !isWellFormed ? await withoutIdempotencyKey(request) : request);
    },
  },
];

/** A mistake in how the kit is pointed at a correct server, which must stop the run before any check with one line. */
export interface SetupMistake {
  name: string;
  /** The mistake, in one sentence. */
  mistake: string;
  /** The base URL and key given to the kit, from the server's own. */
  given(target: { baseUrl: string; apiKey: string }): { baseUrl: string; apiKey: string };
  /** The one line runConformance's error holds. */
  message: RegExp;
}

/** The setup mistakes the kit must stop at rather than fail every check. */
export const SETUP_MISTAKES: readonly SetupMistake[] = [
  {
    name: 'base-url-without-v1',
    mistake: 'the base URL is the origin of a server whose interface is under /v1',
    given: ({ baseUrl, apiKey }) => ({ baseUrl: new URL(baseUrl).origin, apiKey }),
    message: /^nothing answers the interface at http:\/\/127\.0\.0\.1:\d+: does the base URL end in the version prefix, e\.g\. \/v1\? \(GET http:\/\/127\.0\.0\.1:\d+\/pets with the key answered 404 not_found\)$/,
  },
  {
    name: 'wrong-key',
    mistake: 'the key is not one the server accepts',
    given: ({ baseUrl }) => ({ baseUrl, apiKey: 'a-key-the-server-does-not-know' }),
    message: /^the key was refused: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets with the key answered 401 unauthorized; give a key the server accepts$/,
  },
];
