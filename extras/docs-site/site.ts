import { textResponse } from '../../server/core/index.js';
import type { BareResponse, OperationCall, Plugin, PluginContext, PluginParts, RootRoute, Route } from '../../server/core/index.js';
import { createNegotiatedRepresentation } from './compression.js';
import type { NegotiatedRepresentation } from './compression.js';
import { createOpenApiDocument } from './openapi/index.js';
import { renderInterfacePage } from './reference/interface-page.js';
import { renderReferencePage } from './reference/page.js';

/** Options of docsSite. */
export interface DocsSiteOptions {
  /**
   * Whether `GET /` sends a browser to the reference page (a 302), as the standalone server does.
   * Default false: a host mounting the interface keeps its own root.
   */
  redirectRoot?: boolean;
}

/** Media types of the description and of the pages. */
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * The docs site as a plug-in of the interface: the OpenAPI description at `{basePath}/openapi.json`,
 * the reference page with its console at `{basePath}/docs` and the interface's text at
 * `{basePath}/docs/interface`, all public. Add it with `plugins: [docsSite()]`; the standalone server does.
 */
export function docsSite(options: DocsSiteOptions = {}): Plugin {
  return (context) => docsSiteParts(context, options.redirectRoot === true);
}

/**
 * The routes of one core's docs site. The description and the pages are generated from one document
 * at their first request (a core that never serves them never spends the few milliseconds), each
 * serialised, encoded and hashed once, and compressed once per content coding.
 */
function docsSiteParts(context: PluginContext, redirectRoot: boolean): PluginParts {
  const document = createOpenApiDocument({ basePath: context.basePath, bodyLimit: context.bodyLimit });
  const openApi = once(() => createNegotiatedRepresentation(JSON.stringify(document), JSON_TYPE));
  const referencePage = once(() => {
    const { html, contentSecurityPolicy } = renderReferencePage(document, { bodyLimit: context.bodyLimit });
    return createNegotiatedRepresentation(html, HTML_TYPE, { headers: ['Content-Security-Policy', contentSecurityPolicy, 'Referrer-Policy', 'no-referrer'] });
  });
  const interfacePage = once(() => {
    const { html, contentSecurityPolicy } = renderInterfacePage();
    return createNegotiatedRepresentation(html, HTML_TYPE, { headers: ['Content-Security-Policy', contentSecurityPolicy, 'Referrer-Policy', 'no-referrer'] });
  });
  const routes: Route[] = [
    // The description of the public interface is public too.
    { path: '/openapi.json', operations: { GET: { name: 'getOpenApiDescription', run: (call) => serve(openApi, call) } }, isPublic: true },
    // The reference page, generated from that description: public too, and outside it.
    { path: '/docs', operations: { GET: { name: 'getReferencePage', run: (call) => serve(referencePage, call) } }, isPublic: true },
    // The interface's own text, which the page's citations (`[spec 4.1]`) link to.
    { path: '/docs/interface', operations: { GET: { name: 'getInterfaceText', run: (call) => serve(interfacePage, call) } }, isPublic: true },
  ];
  const rootRoutes: RootRoute[] = redirectRoot ? [rootRedirect(context.basePath)] : [];
  return { routes, rootRoutes };
}

function serve(representation: () => NegotiatedRepresentation, call: OperationCall): ReturnType<NegotiatedRepresentation['respond']> {
  return representation().respond(call.request.headers);
}

/**
 * `GET /`: a 302 to the reference page, so a browser pointed at the server lands on it; temporary,
 * as the root may one day serve something else. The short text says the same to a client that does
 * not follow redirects.
 */
function rootRedirect(basePath: string): RootRoute {
  const location = `${basePath}/docs`;
  const text = textResponse(302, `The reference page of this server is at ${location}\n`, 'text/plain; charset=utf-8');
  const redirect: BareResponse = { ...text, headers: ['Location', location, ...text.headers] };
  return { path: '/', operation: 'redirectToReferencePage', answer: () => redirect };
}

/** A value built at its first use and kept. */
function once<Value>(build: () => Value): () => Value {
  let built: Value | undefined;
  return () => (built ??= build());
}
