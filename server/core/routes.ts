/** The operations a route can run: the interface's three [spec 4] and the ones this project adds around them. */
export type OperationName =
  | 'listPets' | 'createPet' | 'getPet' | 'getOpenApiDescription' | 'getReferencePage' | 'checkHealth' | 'checkReadiness' | 'getMetrics'
  | 'redirectToReferencePage';

/** The request methods a route maps to operations; HEAD runs the GET operation without a body [RFC 9110 §9.3.2]. */
export type RouteMethod = 'GET' | 'POST';

/** Where a route lives: `api` routes below the base path, `server` routes at the root of the standalone server. */
export type RouteScope = 'api' | 'server';

/** One resource: its path template, the operation of each method, and whether it needs a key. */
export interface Route {
  /** Path relative to the base path (`api`) or the server's root (`server`); `{name}` stands for one path segment. */
  readonly path: string;
  readonly operations: Readonly<Partial<Record<RouteMethod, OperationName>>>;
  /** Answered without a key: it reveals nothing beyond the public interface. */
  readonly isPublic: boolean;
  readonly scope: RouteScope;
  /** False for an `api` route the OpenAPI document leaves out: a learning aid beside the interface, not part of it. Default true. */
  readonly isDescribed?: boolean;
}

/**
 * Every route, in the order the OpenAPI document lists them. The handler matches requests against
 * this table, and `Allow`, `OPTIONS`, the 405s and the document's paths all derive from it.
 */
export const ROUTES: readonly Route[] = [
  { path: '/pets', operations: { GET: 'listPets', POST: 'createPet' }, isPublic: false, scope: 'api' },
  { path: '/pets/{petId}', operations: { GET: 'getPet' }, isPublic: false, scope: 'api' },
  // The description of the public interface is public too.
  { path: '/openapi.json', operations: { GET: 'getOpenApiDescription' }, isPublic: true, scope: 'api' },
  // The reference page, generated from that description: public too, and outside it, like /healthz.
  { path: '/docs', operations: { GET: 'getReferencePage' }, isPublic: true, scope: 'api', isDescribed: false },
  // Liveness for load balancers; only the standalone server answers it, outside the interface.
  { path: '/healthz', operations: { GET: 'checkHealth' }, isPublic: true, scope: 'server' },
  // Readiness: whether the storage answers and shutdown has not begun; it reveals no pet and no key.
  { path: '/readyz', operations: { GET: 'checkReadiness' }, isPublic: true, scope: 'server' },
  // Prometheus metrics, only when the operator turns them on; without a key, since a scraper's key could create pets.
  { path: '/metrics', operations: { GET: 'getMetrics' }, isPublic: true, scope: 'server' },
  // A browser pointed at the standalone server's root is sent to the reference page.
  { path: '/', operations: { GET: 'redirectToReferencePage' }, isPublic: true, scope: 'server' },
];

/**
 * The methods a route answers, as sent in `Allow` [RFC 9110 §10.2.1]: its own, HEAD wherever GET is,
 * and OPTIONS on the interface's routes (the standalone server's probes answer only what they serve).
 */
export function allowedMethods(route: Route): string {
  const allowed: string[] = [];
  if (route.operations.GET !== undefined) allowed.push('GET', 'HEAD');
  if (route.operations.POST !== undefined) allowed.push('POST');
  if (route.scope === 'api') allowed.push('OPTIONS');
  return allowed.join(', ');
}

/** The operation a method runs on a route, if the route answers it (HEAD runs GET's). */
export function operationOf(route: Route, method: string): OperationName | undefined {
  if (method === 'GET' || method === 'HEAD') return route.operations.GET;
  return method === 'POST' ? route.operations.POST : undefined;
}
