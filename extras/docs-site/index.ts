// The docs site, a plug-in of the interface: its OpenAPI description, the reference page and the interface's text.

/** The docs site as a plug-in: `plugins: [docsSite()]` serves the description, the reference page and the interface's text. */
export { docsSite } from './site.js';
/** Options of docsSite. */
export type { DocsSiteOptions } from './site.js';
/** Builds the OpenAPI 3.1 document the docs site serves at `{basePath}/openapi.json`. */
export { createOpenApiDocument } from './openapi/index.js';
/** The name of the bearer security scheme in the document. */
export { SECURITY_SCHEME } from './openapi/index.js';
/** Options of createOpenApiDocument. */
export type { OpenApiDocumentOptions } from './openapi/index.js';
/** The document createOpenApiDocument returns. */
export type { OpenApiDocument } from './openapi/index.js';
