import { ERROR_CODES, INTERFACE_VERSION, VERSION_PATH } from '../../../lib/index.js';
import { allowedMethods } from '../../../server/core/index.js';
import { API_ROUTES, ERROR_HEADERS, methodsOf, operationDefinitions, pathItemDescription, pathParametersOf, TAGS } from './operations.js';
import type { ErrorCase, OperationDefinition } from './operations.js';
import { REQUEST_ID_EXAMPLES, sharedErrorExamples } from './examples.js';
import type { Examples, SharedErrorCode } from './examples.js';
import { COMPONENT_SCHEMAS, schemaRef } from './schemas.js';
import type { JsonSchema, OpenApiDocument, OpenApiHeader, OpenApiPathItem, OpenApiResponse } from './types.js';

/** Options of createOpenApiDocument. */
export interface OpenApiDocumentOptions {
  /** Path prefix the operations are served under; `''` when a host framework mounts them. Default `/v1`. */
  basePath?: string;
  /** Largest request body in bytes, stated in `createPet`; unstated when not given. */
  bodyLimit?: number;
}

/** Who answers for the interface: its contact in `info` [OpenAPI 3.1 §4.8.3]. */
const CONTACT = 'The maintainers of petstore-reference';

/** The name of the bearer security scheme [spec 5]. */
export const SECURITY_SCHEME = 'bearerAuth';

const DESCRIPTION = `The Petstore interface [spec 1–9]: list, add and fetch animals, with bearer-token authentication and one Error body.

Every operation needs \`Authorization: Bearer <API_KEY>\` [spec 5] (the scheme name is case-insensitive), except this description and OPTIONS on a known path. Checks run in this order, so an unauthenticated client learns nothing and every client sees its most fundamental problem first: auth (401) → path (404) → method (405, with \`Allow\`) → \`Idempotency-Key\` on a create (400 \`invalid_idempotency_key\`) → media type (415, with \`Accept-Post\`) → size (413) → JSON syntax (400 \`invalid_json\`) → schema (400 \`validation_failed\`, with \`details\`).

Every answer, errors and 401s included, carries \`X-Request-Id\`: the request's own when it sent one of 1 to 64 letters, digits and \`. _ : -\` that is not its bearer token, otherwise a new one; the server's log lines about the request carry it too.

Every error is the Error body with \`status\` equal to the HTTP status. Beside the responses listed per operation, the standalone server answers a request it cannot parse with 400 \`bad_request\`, headers that arrive too slowly with 408 \`request_timeout\`, oversize headers with 431 \`headers_too_large\`, and an \`Expect\` other than \`100-continue\` with 417 \`expectation_failed\` (see \`x-shared-responses\`).

The operations are the spec's three and this description's. HEAD is answered wherever GET is, with the same status and headers and no body, and OPTIONS on every path without a key, with 204 and \`Allow\`; each path's description says so and its \`x-allow\` lists every method it answers. They are not described as operations of their own, so that a client generated from this document has exactly the spec's operations.`;

/** The header every answer carries, errors and 401s included, and the connection layer's answers too. */
const REQUEST_ID_HEADER: OpenApiHeader = {
  description: 'The id of the request: the one it sent in `X-Request-Id` when that is 1 to 64 letters, digits and `. _ : -` and not its bearer token, otherwise a new one. The server\'s log lines about the request carry it.',
  required: true,
  schema: { type: 'string', pattern: '^[!-~]{1,128}$' },
  examples: REQUEST_ID_EXAMPLES,
};

/** A response with `X-Request-Id` among its headers. */
function withRequestId(response: OpenApiResponse): OpenApiResponse {
  return { ...response, headers: { ...response.headers, 'X-Request-Id': REQUEST_ID_HEADER } };
}

/** Responses that belong to no single operation: an unknown path, another method, and what the connection layer answers. */
function sharedResponses(basePath: string): Record<string, OpenApiResponse> {
  const examples = sharedErrorExamples(basePath);
  /** The Error response of one code that no single operation owns, with its example. */
  function sharedResponse(code: SharedErrorCode, when: string): OpenApiResponse {
    return errorResponse(ERROR_CODES[code], [{ code, when, examples: examples[code] }], {});
  }
  return {
    UnknownPath: sharedResponse('not_found', 'No resource has this path (answered after authentication, so it reveals nothing).'),
    MethodNotAllowed: sharedResponse('method_not_allowed', 'The path exists but does not answer this method; `Allow` lists those it does.'),
    MalformedRequest: sharedResponse('bad_request', 'The request is not valid HTTP/1.1 (framing, line endings, header syntax); the connection is closed.'),
    RequestTimeout: sharedResponse('request_timeout', 'The request headers (10 s) or the whole request (30 s) did not arrive in time; the connection is closed.'),
    ExpectationFailed: sharedResponse('expectation_failed', 'An `Expect` header other than `100-continue` (RFC 9110 §10.1.1).'),
    HeadersTooLarge: sharedResponse('headers_too_large', 'The request headers exceed the server\'s limit; the connection is closed.'),
  };
}

/** The Error response for failures sharing one status, with the codes narrowed to those cases. */
function errorResponse(status: number, cases: readonly ErrorCase[], everyAnswer: Record<string, OpenApiHeader>): OpenApiResponse {
  const codes = cases.map((failure) => failure.code);
  // Each code that comes with a header is alone at its status (401, 405, 413, 415), so the header is required there.
  const headers: Record<string, OpenApiHeader> = Object.assign({}, ...codes.map((code) => ERROR_HEADERS[code]));
  // A 401 and the 400 for a missing Host are sent before the operation is known, so without its headers.
  const carriers = cases.filter((failure) => failure.code !== 'unauthorized' && failure.code !== 'bad_request').length;
  for (const [name, header] of Object.entries(everyAnswer)) {
    if (carriers > 0) headers[name] = carriers === cases.length ? header : { ...header, required: false };
  }
  const narrowed: JsonSchema = { properties: { code: { enum: codes }, status: { const: status } } };
  // A request without Host is the rarest 400, so its example comes after those of the operation's own failures.
  const ordered = [...cases.filter((failure) => failure.code !== 'bad_request'), ...cases.filter((failure) => failure.code === 'bad_request')];
  const examples: Examples = Object.assign({}, ...ordered.map((failure) => failure.examples));
  const response: OpenApiResponse = {
    description: cases.map((failure) => `\`${failure.code}\`: ${failure.when}`).join(' '),
    content: { 'application/json': { schema: { allOf: [schemaRef('Error'), narrowed] }, examples } },
  };
  if (Object.keys(headers).length > 0) response.headers = headers;
  return withRequestId(response);
}

/** The responses of one operation, by status: its success, then its failures grouped by HTTP status. */
function responsesOf(definition: OperationDefinition): Record<string, OpenApiResponse> {
  const everyAnswer = definition.headersOnEveryAnswer ?? {};
  const byStatus = new Map<number, ErrorCase[]>();
  for (const failure of definition.errors) {
    const group = byStatus.get(ERROR_CODES[failure.code]);
    if (group === undefined) byStatus.set(ERROR_CODES[failure.code], [failure]);
    else group.push(failure);
  }
  const success = definition.success.response;
  const responses: Record<string, OpenApiResponse> = {
    [definition.success.status]: withRequestId(Object.keys(everyAnswer).length === 0 ? success : { ...success, headers: { ...success.headers, ...everyAnswer } }),
  };
  const { unchanged } = definition;
  if (unchanged !== undefined) responses[unchanged.status] = withRequestId(unchanged.response);
  for (const [status, cases] of [...byStatus].sort(([left], [right]) => left - right)) {
    responses[status] = errorResponse(status, cases, everyAnswer);
  }
  return responses;
}

/** Groups the operations into path items, in the order of the route table, each declaring its template's parameters. */
function pathItems(definitions: readonly OperationDefinition[]): Record<string, OpenApiPathItem> {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const route of API_ROUTES) {
    const { path } = route;
    const item: OpenApiPathItem = { description: pathItemDescription(route), 'x-allow': allowedMethods(route) };
    const parameters = pathParametersOf(path);
    if (parameters.length > 0) item.parameters = parameters;
    for (const method of methodsOf(route)) {
      const definition = definitions.find((candidate) => candidate.path === path && candidate.method === method);
      if (definition !== undefined) item[method] = { ...definition.operation, responses: responsesOf(definition) };
    }
    paths[path] = item;
  }
  return paths;
}

/**
 * The OpenAPI 3.1 description of the interface, built from the constants, types and error codes the
 * engine and the HTTP handler use, so it cannot drift from what they do.
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const basePath = options.basePath ?? VERSION_PATH;
  const definitions = operationDefinitions({ basePath, bodyLimit: options.bodyLimit });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Petstore',
      version: INTERFACE_VERSION,
      description: DESCRIPTION,
      contact: { name: CONTACT },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{
      // OpenAPI 3.1 §4.8.5: a relative URL is resolved against where this document is served.
      url: basePath === '' ? '.' : basePath,
      description: 'This server. The production and staging addresses both end in `/v1` [spec 1, 9].',
    }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [...TAGS],
    paths: pathItems(definitions),
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: {
        [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The API key as `Authorization: Bearer <API_KEY>` [spec 5].' },
      },
    },
    'x-shared-responses': sharedResponses(basePath),
  };
}
