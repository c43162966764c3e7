export { createOpenApiDocument, SECURITY_SCHEME } from './document.js';
export type { OpenApiDocumentOptions } from './document.js';
export type {
  JsonSchema, JsonValue, OpenApiDocument, OpenApiExample, OpenApiHeader, OpenApiHeaderExample, OpenApiMediaType, OpenApiMethod, OpenApiOperation,
  OpenApiParameter, OpenApiPathItem, OpenApiRequestBody, OpenApiResponse, OpenApiSecurityRequirement, OpenApiTag,
} from './types.js';
