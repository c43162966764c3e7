import { textResponse } from '../../server/core/index.js';
import type { BareResponse, HeaderList, Plugin, PluginContext, PluginParts, RootRoute, Route } from '../../server/core/index.js';
import { createNegotiatedRepresentation } from './compression.js';
import type { NegotiatedRepresentation } from './compression.js';
import { createOpenApiDocument } from './openapi/index.js';
import { renderInterfacePage } from './reference/interface-page.js';
import { renderReferencePage } from './reference/page.js';

/** Options of docsSite. */
export interface DocsSiteOptions {
  /** Whether `GET /` sends a browser to the reference page (a 302), as the standalone server does; default false, so a host keeps its root. */
  redirectRoot?: boolean;
}

/** The headers of a page beside its media type: only its own style and script, and no referrer. */
function pageHeaders(contentSecurityPolicy: string): HeaderList {
  return ['Content-Security-Policy', contentSecurityPolicy, 'Referrer-Policy', 'no-referrer'];
}

/** The docs site as a plug-in: `{basePath}/openapi.json`, the reference page at `{basePath}/docs` and the interface's text below it. */
export function docsSite(options: DocsSiteOptions = {}): Plugin {
  return (context) => docsSiteParts(context, options.redirectRoot === true);
}

/**
 * The routes of one core's docs site, public as the interface they describe, each built at its first request (a core that never
 * serves them never spends the few milliseconds), then serialised, encoded and hashed once, and compressed once per content coding.
 */
function docsSiteParts(context: PluginContext, redirectRoot: boolean): PluginParts {
  const document = createOpenApiDocument({ basePath: context.basePath, bodyLimit: context.bodyLimit });
  const served: [string, string, () => NegotiatedRepresentation][] = [
    ['/openapi.json', 'getOpenApiDescription', () => createNegotiatedRepresentation(JSON.stringify(document), 'application/json; charset=utf-8')],
    ['/docs', 'getReferencePage', () => {
      const { html, contentSecurityPolicy } = renderReferencePage(document, { bodyLimit: context.bodyLimit });
      return createNegotiatedRepresentation(html, 'text/html; charset=utf-8', { headers: pageHeaders(contentSecurityPolicy) });
    }],
    // The interface's own text, which the page's citations (`[spec 4.1]`) link to.
    ['/docs/interface', 'getInterfaceText', () => {
      const { html, contentSecurityPolicy } = renderInterfacePage();
      return createNegotiatedRepresentation(html, 'text/html; charset=utf-8', { headers: pageHeaders(contentSecurityPolicy) });
    }],
  ];
  const routes = served.map(([path, name, build]): Route => {
    let representation: NegotiatedRepresentation | undefined;
    return { path, operations: { GET: { name, run: (call) => (representation ??= build()).respond(call.request.headers) } }, isPublic: true };
  });
  return { routes, rootRoutes: redirectRoot ? [rootRedirect(context.basePath)] : [] };
}

/** `GET /`: a 302 (temporary: the root may one day serve more) to the reference page, with a text for a client that does not follow it. */
function rootRedirect(basePath: string): RootRoute {
  const location = `${basePath}/docs`;
  const text = textResponse(302, `The reference page of this server is at ${location}\n`, 'text/plain; charset=utf-8');
  const redirect: BareResponse = { ...text, headers: ['Location', location, ...text.headers] };
  return { path: '/', operation: 'redirectToReferencePage', answer: () => redirect };
}
