// The OpenAPI 3.1 document of the interface, as checked data (openapi.template.json) filled from the package's constants.

/** Builds the OpenAPI 3.1 document the server serves at `{basePath}/openapi.json`. */
export { createOpenApiDocument } from './document.js';
/** The name of the bearer security scheme in the document. */
export { SECURITY_SCHEME } from './document.js';
/** Options of createOpenApiDocument. */
export type { OpenApiDocumentOptions } from './document.js';
/** The document createOpenApiDocument returns. */
export type { OpenApiDocument } from './types.js';
