import { allowedMethods, ROUTES } from './routes.js';
import type { Route } from './routes.js';

/** A route prepared for matching: its fixed prefix, whether a parameter follows it, and its `Allow` value. */
interface CompiledRoute {
  readonly route: Route;
  readonly allow: string;
  readonly prefix: string;
  readonly hasParameter: boolean;
}

/** A path matched to a route; `parameter` is the raw segment standing for the template's `{name}` (empty when it has none). */
export interface RouteMatch {
  readonly route: Route;
  readonly allow: string;
  readonly parameter: string;
}

/** Prepares one route; a template may end in one parameter and have none elsewhere, which is all the interface needs. */
function compile(route: Route): CompiledRoute {
  const allow = allowedMethods(route);
  const open = route.path.indexOf('{');
  if (open === -1) return { route, allow, prefix: route.path, hasParameter: false };
  if (!route.path.endsWith('}') || route.path.indexOf('/', open) !== -1) throw new TypeError(`Route ${route.path}: a parameter may only end a path`);
  return { route, allow, prefix: route.path.slice(0, open), hasParameter: true };
}

/** Matches a path relative to the base path against the interface's routes, in table order. */
export function createRouter(): (path: string) => RouteMatch | undefined {
  const routes = ROUTES.map(compile);
  return function match(path) {
    for (const { route, allow, prefix, hasParameter } of routes) {
      if (!hasParameter) {
        if (path === prefix) return { route, allow, parameter: '' };
      } else if (path.length > prefix.length && path.startsWith(prefix) && path.indexOf('/', prefix.length) === -1) {
        return { route, allow, parameter: path.slice(prefix.length) };
      }
    }
    return undefined;
  };
}
