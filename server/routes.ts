/** The resources of the interface, relative to the base path [spec 4]. */
export type RouteName = 'pets' | 'pet' | 'openapi';

/** A request path matched to a resource; `petId` is the raw path segment of `/pets/{petId}`. */
export interface RouteMatch {
  name: RouteName;
  petId: string;
}

/** The methods each resource answers, as sent in `Allow` [RFC 9110 §10.2.1]. */
export const ALLOWED_METHODS: Readonly<Record<RouteName, string>> = {
  pets: 'GET, HEAD, POST, OPTIONS',
  pet: 'GET, HEAD, OPTIONS',
  openapi: 'GET, HEAD, OPTIONS',
};

const PETS_PATH = '/pets';
const PET_PREFIX = '/pets/';
const OPENAPI_PATH = '/openapi.json';

/** Matches a path below the base path (`/pets`, `/pets/{petId}`, `/openapi.json`); undefined for anything else. */
export function matchRoute(path: string): RouteMatch | undefined {
  if (path === PETS_PATH) return { name: 'pets', petId: '' };
  if (path === OPENAPI_PATH) return { name: 'openapi', petId: '' };
  if (path.startsWith(PET_PREFIX) && path.length > PET_PREFIX.length && path.indexOf('/', PET_PREFIX.length) === -1) {
    return { name: 'pet', petId: path.slice(PET_PREFIX.length) };
  }
  return undefined;
}

/** Whether a method is allowed on a resource; HEAD goes wherever GET goes [RFC 9110 §9.3.2]. */
export function isAllowed(route: RouteName, method: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  return route === 'pets' && method === 'POST';
}
