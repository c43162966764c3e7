/** The operations a route of the interface can run: the spec's three [spec 4], its description, the reference page and the interface's text. */
export type OperationName = 'listPets' | 'createPet' | 'getPet' | 'getOpenApiDescription' | 'getReferencePage' | 'getInterfaceText';

/** The request methods a route maps to operations; HEAD runs the GET operation without a body [RFC 9110 §9.3.2]. */
export type RouteMethod = 'GET' | 'POST';

/** One resource below the base path: its path template, the operation of each method, and whether it needs a key. */
export interface Route {
  /** Path relative to the base path; `{name}` stands for one path segment. */
  readonly path: string;
  readonly operations: Readonly<Partial<Record<RouteMethod, OperationName>>>;
  /** Answered without a key: it reveals nothing beyond the public interface. */
  readonly isPublic: boolean;
  /** False for a route the OpenAPI document leaves out: a learning aid beside the interface, not part of it. Default true. */
  readonly isDescribed?: boolean;
}

/**
 * Every route of the interface, in the order the OpenAPI document lists them. The core matches
 * requests against this table, and `Allow`, `OPTIONS`, the 405s and the document's paths all derive from it.
 */
export const ROUTES: readonly Route[] = [
  { path: '/pets', operations: { GET: 'listPets', POST: 'createPet' }, isPublic: false },
  { path: '/pets/{petId}', operations: { GET: 'getPet' }, isPublic: false },
  // The description of the public interface is public too.
  { path: '/openapi.json', operations: { GET: 'getOpenApiDescription' }, isPublic: true },
  // The reference page, generated from that description: public too, and outside it.
  { path: '/docs', operations: { GET: 'getReferencePage' }, isPublic: true, isDescribed: false },
  // The interface's own text, which the page's citations (`[spec 4.1]`) link to: public and outside the description too.
  { path: '/docs/interface', operations: { GET: 'getInterfaceText' }, isPublic: true, isDescribed: false },
];

/** The methods a route answers, as sent in `Allow` [RFC 9110 §10.2.1]: its own, HEAD wherever GET is, and OPTIONS. */
export function allowedMethods(route: Route): string {
  const allowed: string[] = [];
  if (route.operations.GET !== undefined) allowed.push('GET', 'HEAD');
  if (route.operations.POST !== undefined) allowed.push('POST');
  allowed.push('OPTIONS');
  return allowed.join(', ');
}

/** The operation a method runs on a route, if the route answers it (HEAD runs GET's). */
export function operationOf(route: Route, method: string): OperationName | undefined {
  if (method === 'GET' || method === 'HEAD') return route.operations.GET;
  return method === 'POST' ? route.operations.POST : undefined;
}
