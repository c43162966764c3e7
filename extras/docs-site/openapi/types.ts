/** A JSON value, as a document of this kind holds only JSON. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON Schema 2020-12 object, the dialect of OpenAPI 3.1 schemas. */
export type JsonSchema = { readonly [keyword: string]: JsonValue };

/** An example of a body or parameter [OpenAPI 3.1 §4.8.19]: what it shows (plain text), and the value itself, inline. */
export interface OpenApiExample {
  summary: string;
  /** More about the example, in CommonMark: for the answer to a refused request, the request itself. */
  description?: string;
  value: JsonValue;
}

/** An example of a header's value [OpenAPI 3.1 §4.8.19], as sent on the wire. */
export interface OpenApiHeaderExample {
  summary?: string;
  value: string;
}

/** A response or request header [OpenAPI 3.1 §4.8.21]. */
export interface OpenApiHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
  /** Keyed like the body examples of the response when the value belongs to one of them, otherwise by what the value shows. */
  examples?: Record<string, OpenApiHeaderExample>;
}

/** The content of one media type [OpenAPI 3.1 §4.8.14]. */
export interface OpenApiMediaType {
  schema: JsonSchema;
  /** A request example and the response example of its answer share a key. */
  examples?: Record<string, OpenApiExample>;
}

/** One response of an operation [OpenAPI 3.1 §4.8.17]. */
export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, OpenApiMediaType>;
}

/** A query or path parameter [OpenAPI 3.1 §4.8.12]. */
export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  /** Values the request examples send, keyed like the response examples of their answers. */
  examples?: Record<string, OpenApiExample>;
}

/** A request body [OpenAPI 3.1 §4.8.13]. */
export interface OpenApiRequestBody {
  description: string;
  required: boolean;
  content: Record<string, OpenApiMediaType>;
}

/** Names of security schemes an operation needs, each with its (empty, for HTTP schemes) scope list. */
export type OpenApiSecurityRequirement = Record<string, string[]>;

/** One operation: a method on a path [OpenAPI 3.1 §4.8.10]. */
export interface OpenApiOperation {
  operationId?: string;
  summary: string;
  tags?: string[];
  description?: string;
  deprecated?: boolean;
  security?: OpenApiSecurityRequirement[];
  parameters?: OpenApiParameter[];
  requestBody?: OpenApiRequestBody;
  responses: Record<string, OpenApiResponse>;
}

/** The methods the document describes as operations; HEAD and OPTIONS are stated in each path item's description and `x-allow` instead. */
export type OpenApiMethod = 'get' | 'post';

/** The operations on one path, with the parameters its template declares [OpenAPI 3.1 §4.8.9]. */
export type OpenApiPathItem = {
  description: string;
  parameters?: OpenApiParameter[];
  /** Every method the path answers, as the server's `Allow` lists them, HEAD and OPTIONS included (RFC 9110 §10.2.1). */
  'x-allow': string;
} & Partial<Record<OpenApiMethod, OpenApiOperation>>;

/** A group of operations [OpenAPI 3.1 §4.8.22]. */
export interface OpenApiTag {
  name: string;
  description: string;
}

/** An OpenAPI 3.1 document, as far as this interface needs one. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; contact: { name: string }; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  security: OpenApiSecurityRequirement[];
  tags: OpenApiTag[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: 'http'; scheme: string; description: string }>;
  };
  /** The answers no operation owns (an unknown path, another method, the connection layer's), which OpenAPI has no place for. */
  'x-shared-responses': Record<string, OpenApiResponse>;
}
