import { ROUTES } from '../../../server/core/index.js';
import type { RouteMethod } from '../../../server/core/index.js';

/** A route as the document describes it: its path and the operation of each method, by name. */
export interface DescribedRoute {
  readonly path: string;
  readonly operations: Readonly<Partial<Record<RouteMethod, { readonly name: string }>>>;
}

/** The route of this description, which the docs site serves: described too, so a client finds it. */
const DESCRIPTION_ROUTE: DescribedRoute = { path: '/openapi.json', operations: { GET: { name: 'getOpenApiDescription' } } };

/** The routes of the interface and of its description (neither the reference page nor a host's own routes are part of it), in the order the document lists them. */
export const API_ROUTES: readonly DescribedRoute[] = [...ROUTES, DESCRIPTION_ROUTE];
