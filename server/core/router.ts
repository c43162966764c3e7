import type { Petstore } from '../../lib/index.js';
import type { PageJsonCache, PetJsonCache } from './pet-json.js';
import type { CoreRequest } from './request.js';
import type { BareResponse, HeaderList } from './response.js';

/** The request methods a route maps to operations; HEAD runs the GET operation without a body [RFC 9110 §9.3.2]. */
export type RouteMethod = 'GET' | 'POST';

/** What the interface's operations run over, built once per core: the store, the body limit and the JSON caches. */
export interface InterfaceState {
  readonly store: Petstore;
  readonly bodyLimit: number;
  readonly json: PetJsonCache;
  readonly pages: PageJsonCache;
  /** Whether a client's text holds a run of an API key in force (the keyring's `holdsKey`): such an idempotency key is refused. */
  readonly holdsKey?: (text: string) => boolean;
}

/** One call of an operation: the request, what routing made of it, and the state of its core. */
export interface OperationCall {
  readonly request: CoreRequest;
  /** The raw path segment of the route's parameter (`petId`), empty when the route has none. */
  readonly parameter: string;
  /** The query string, without `?`. */
  readonly query: string;
  /** The path prefix the client sees, for `Location` and `Link`: the host framework's mount path plus the base path. */
  readonly publicBase: string;
  readonly state: InterfaceState;
}

/** What one method of a route runs. */
export interface Operation {
  /** What its answers are called in the log and the metrics: the spec's operation name for the interface's own [spec 4]. */
  readonly name: string;
  run(call: OperationCall): BareResponse | Promise<BareResponse>;
  /** Headers every answer of the operation carries, errors included (getPet's deprecation). */
  headers?(publicBase: string): HeaderList;
}

/** One resource below the base path: its path template, the operation of each method, and whether it needs a key. */
export interface Route {
  /** Path relative to the base path; `{name}` stands for one path segment, which may only end the path. */
  readonly path: string;
  readonly operations: Readonly<Partial<Record<RouteMethod, Operation>>>;
  /** Answered without a key: it reveals nothing beyond the public interface. */
  readonly isPublic: boolean;
}

/** The methods a route answers, as sent in `Allow` [RFC 9110 §10.2.1]: its own, HEAD wherever GET is, and OPTIONS. */
export function allowedMethods(route: { readonly operations: Readonly<Partial<Record<RouteMethod, unknown>>> }): string {
  const allowed: string[] = [];
  if (route.operations.GET !== undefined) allowed.push('GET', 'HEAD');
  if (route.operations.POST !== undefined) allowed.push('POST');
  allowed.push('OPTIONS');
  return allowed.join(', ');
}

/** A path matched to a route; `parameter` is the raw segment standing for the template's `{name}` (empty when it has none). */
export interface RouteMatch {
  readonly route: Route;
  readonly allow: string;
  readonly parameter: string;
}

/** Matches a path relative to the base path against routes, in table order. */
export function createRouter(routes: readonly Route[]): (path: string) => RouteMatch | undefined {
  const compiled = routes.map(compile);
  return function match(path) {
    for (const { route, allow, prefix, hasParameter } of compiled) {
      if (!hasParameter) {
        if (path === prefix) return { route, allow, parameter: '' };
      } else if (path.length > prefix.length && path.startsWith(prefix) && path.indexOf('/', prefix.length) === -1) {
        return { route, allow, parameter: path.slice(prefix.length) };
      }
    }
    return undefined;
  };
}

/** The operation a method runs on a route, if the route answers it (HEAD runs GET's). */
export function operationOf(route: Route, method: string): Operation | undefined {
  if (method === 'GET' || method === 'HEAD') return route.operations.GET;
  return method === 'POST' ? route.operations.POST : undefined;
}

/** A route prepared for matching: its fixed prefix, whether a parameter follows it, and its `Allow` value. */
interface CompiledRoute {
  readonly route: Route;
  readonly allow: string;
  readonly prefix: string;
  readonly hasParameter: boolean;
}

function compile(route: Route): CompiledRoute {
  const allow = allowedMethods(route);
  const open = route.path.indexOf('{');
  if (open === -1) return { route, allow, prefix: route.path, hasParameter: false };
  if (!route.path.endsWith('}') || route.path.indexOf('/', open) !== -1) throw new TypeError(`Route ${route.path}: a parameter may only end a path`);
  return { route, allow, prefix: route.path.slice(0, open), hasParameter: true };
}
