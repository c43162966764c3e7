import { DEFAULT_LIMIT, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, MAX_IDEMPOTENCY_KEY_LENGTH, MAX_LIMIT, MAX_SAFE_ID, MIN_LIMIT } from '../../../lib/index.js';
import type { ErrorCode } from '../../../lib/index.js';
import { allowedMethods, UNAVAILABLE_RETRY_AFTER } from '../../../server/core/index.js';
import { API_ROUTES } from './routes.js';
import type { DescribedRoute } from './routes.js';
import {
  allowExamples, CHALLENGE_EXAMPLES, createPetExamples, deprecationHeaderExamples, DESCRIPTION_EXAMPLES, fixedHeaderExamples, getPetExamples, INTERNAL_ERROR_EXAMPLES,
  listPetsExamples, MISSING_HOST_EXAMPLES, PET_ID_EXAMPLES, UNAUTHORIZED_EXAMPLES, unavailableExamples, UNSTATED_BODY_LIMIT,
} from './examples.js';
import type { Examples, StorageAction } from './examples.js';
import { decisionOf } from '../reference/decisions.js';
import { schemaRef } from './schemas.js';
import type { OpenApiHeader, OpenApiMethod, OpenApiOperation, OpenApiParameter, OpenApiResponse, OpenApiTag } from './types.js';

/** One way an operation fails: the Error `code` it answers with, when, and examples of the bodies it sends. */
export interface ErrorCase {
  code: ErrorCode;
  when: string;
  examples: Examples;
}

/** An operation as the document builder needs it: the OpenAPI fields plus what it answers. */
export interface OperationDefinition {
  path: string;
  method: OpenApiMethod;
  operation: Omit<OpenApiOperation, 'responses' | 'operationId'> & { operationId: string };
  success: { status: number; response: OpenApiResponse };
  errors: readonly ErrorCase[];
  /** Headers every response of the operation carries, except those sent before it is known (401, and the 400 for a missing Host). */
  headersOnEveryAnswer?: Record<string, OpenApiHeader>;
  /** Answers beside the success and the failures: the 304 of a conditional GET. */
  unchanged?: { status: number; response: OpenApiResponse };
}

/** Options of jsonSuccess. */
interface JsonSuccessOptions {
  description: string;
  /** The name of the body's schema among the document's components. */
  schema: Parameters<typeof schemaRef>[0];
  examples: Examples;
  /** The headers the success adds. */
  headers?: Record<string, OpenApiHeader>;
}

/** A success whose body is JSON of a named schema, with its examples [spec 1: bodies are JSON]. */
function jsonSuccess(status: number, options: JsonSuccessOptions): OperationDefinition['success'] {
  const content = { 'application/json': { schema: schemaRef(options.schema), examples: options.examples } };
  // The headers before the content, as the document has always listed them.
  const { description, headers } = options;
  const response: OpenApiResponse = headers === undefined ? { description, content } : { description, headers, content };
  return { status, response };
}

/** What the operations depend on: where the API is mounted and how large a body may be. */
export interface OperationContext {
  basePath: string;
  bodyLimit: number | undefined;
}

/** The failures every authenticated operation can answer with. */
const MISSING_HOST: ErrorCase = { code: 'bad_request', when: 'An HTTP/1.1 request without a `Host` header (RFC 9112 §3.2).', examples: MISSING_HOST_EXAMPLES };
const UNAUTHORIZED: ErrorCase = {
  code: 'unauthorized',
  when: 'The API key is missing, sent with another scheme, empty, or matches no configured key [spec 5].',
  examples: UNAUTHORIZED_EXAMPLES,
};
const INTERNAL_ERROR: ErrorCase = { code: 'internal_error', when: 'An unexpected failure; its detail goes to the server log, never to the client.', examples: INTERNAL_ERROR_EXAMPLES };

/** The 503 of an operation, with the example the storage words for what the operation was doing. */
function unavailable(action: StorageAction): ErrorCase {
  return {
    code: 'unavailable',
    when: 'The storage cannot answer now (the database is unreachable, the data file refuses writes); a later retry may succeed.',
    examples: unavailableExamples(action),
  };
}

/** Headers that come with one Error code wherever it is sent. */
export const ERROR_HEADERS: Partial<Record<ErrorCode, Record<string, OpenApiHeader>>> = {
  unauthorized: {
    'WWW-Authenticate': {
      description: 'A Bearer challenge (RFC 6750 §3), with `error="invalid_token"` when a token was sent that matches no key.',
      required: true,
      schema: { type: 'string', pattern: '^Bearer realm=' },
      examples: CHALLENGE_EXAMPLES,
    },
  },
  method_not_allowed: {
    Allow: { description: 'The methods the path answers (RFC 9110 §10.2.1).', required: true, schema: { type: 'string' }, examples: allowExamples('/pets', 'deletePets') },
  },
  idempotency_key_in_use: {
    'Retry-After': {
      description: 'Seconds to wait before repeating the request (RFC 9110 §10.2.3); by then the first request has usually been stored, and the repeat receives its animal.',
      required: true,
      schema: { type: 'string', pattern: '^[0-9]+$' },
      examples: { keyInFlight: { summary: 'Repeat the request after 1 second', value: '1' } },
    },
  },
  unavailable: {
    'Retry-After': {
      description: 'Seconds to wait before repeating the request (RFC 9110 §10.2.3): a storage outage is usually over in seconds, and waiting spares a store that is recovering.',
      required: true,
      schema: { type: 'string', pattern: '^[0-9]+$' },
      examples: { storageOutage: { summary: `Repeat the request after ${UNAVAILABLE_RETRY_AFTER} second`, value: String(UNAVAILABLE_RETRY_AFTER) } },
    },
  },
  unsupported_media_type: {
    'Accept-Post': {
      description: 'The media type to send instead (RFC 9110 §15.5.16).',
      required: true,
      schema: { type: 'string', const: 'application/json' },
      examples: fixedHeaderExamples('json', 'Send JSON', 'application/json'),
    },
    'Accept-Encoding': {
      description: 'The only content coding accepted for request bodies (RFC 9110 §12.5.3).',
      required: true,
      schema: { type: 'string', const: 'identity' },
      examples: fixedHeaderExamples('identity', 'Send the body without a content coding', 'identity'),
    },
  },
};

/** The routes the document describes (see routes.ts). */
export { API_ROUTES };

/** The OpenAPI operations of a route: its GET and POST; HEAD and OPTIONS are stated by pathItemDescription instead. */
export function methodsOf(route: DescribedRoute): OpenApiMethod[] {
  const methods: OpenApiMethod[] = [];
  if (route.operations.GET !== undefined) methods.push('get');
  if (route.operations.POST !== undefined) methods.push('post');
  return methods;
}

/**
 * The description of a route's path item: the methods answered beside its operations. HEAD and
 * OPTIONS are stated here and in `x-allow`, not as operations, so that a client generated from the
 * document has exactly the spec's operations (and the description's), not a method per HEAD and
 * OPTIONS that nobody calls.
 */
export function pathItemDescription(route: DescribedRoute): string {
  const head = route.operations.GET === undefined ? '' : '`HEAD` is answered as `GET` is, with the same status and headers and no body (RFC 9110 §9.3.2). ';
  return `${head}\`OPTIONS\` is answered without a key: 204 with \`Allow: ${allowedMethods(route)}\`. Any other method is a 405 \`method_not_allowed\` with the same \`Allow\` (see \`x-shared-responses.MethodNotAllowed\`).`;
}

/** The groups of the operations [OpenAPI 3.1 §4.8.22], in alphabetical order. */
export const TAGS: readonly OpenApiTag[] = [
  { name: 'openapi', description: 'This description of the interface, served without a key.' },
  { name: 'pets', description: 'The animals of the store: list, add and fetch them [spec 4.1–4.3].' },
];

/** The parameters path templates use, by name; declared on the path item, so every method of the path shares them. */
const PATH_PARAMETERS: Readonly<Record<string, OpenApiParameter>> = {
  petId: {
    name: 'petId',
    in: 'path',
    required: true,
    description: `Identifier of the animal [spec 4.3]. ${decisionOf('decision-pet-id').decision} OPTIONS answers for any segment.`,
    schema: { type: 'integer', format: 'int64' },
    examples: PET_ID_EXAMPLES,
  },
};

/** The parameters of a path template's `{name}` segments, in order. */
export function pathParametersOf(path: string): OpenApiParameter[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => {
    const parameter = PATH_PARAMETERS[name];
    if (parameter === undefined) throw new Error(`createOpenApiDocument: the path parameter {${name}} of ${path} is not described`);
    return parameter;
  });
}

/** `listPets` [spec 4.1]: a page of animals, filtered by status, with a cursor beyond the spec. */
function listPets(basePath: string): OperationDefinition {
  const examples = listPetsExamples(basePath);
  return {
    path: '/pets',
    method: 'get',
    operation: {
      operationId: 'listPets',
      summary: 'List animals',
      tags: ['pets'],
      description: `Returns a page of animals in ascending \`id\` order [spec 4.1]. When more animals match, \`Link: rel="next"\` names the next page; the body stays the spec's plain array. Unknown query parameters are ignored.`,
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: `Maximum number of animals returned [spec 4.1, 8]. ${decisionOf('decision-limit').decision}`,
          schema: { type: 'integer', minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
          examples: examples.parameters.limit,
        },
        {
          name: 'status',
          in: 'query',
          required: false,
          description: 'Only animals with this status [spec 4.1]. Case-sensitive; an unknown, empty or repeated value is a 400 `invalid_parameter`.',
          schema: schemaRef('PetStatus'),
          examples: examples.parameters.status,
        },
        {
          name: 'after',
          in: 'query',
          required: false,
          description: 'Cursor (an extension; the spec shows no pagination beyond `limit`): only animals whose `id` is greater. A negative value starts at the beginning. The `Link: rel="next"` URL carries it.',
          schema: { type: 'integer', format: 'int64', minimum: -MAX_SAFE_ID, maximum: MAX_SAFE_ID },
          examples: examples.parameters.after,
        },
      ],
    },
    success: jsonSuccess(200, {
      description: 'A page of animals [spec 4.1].',
      headers: {
        Link: {
          description: `Present only when more animals match (RFC 8288): \`<${basePath}/pets?limit=N&after=LAST_ID[&status=S]>; rel="next"\`, N being the effective limit.`,
          required: false,
          schema: { type: 'string', pattern: 'rel="next"$' },
          examples: examples.links,
        },
      },
      schema: 'Pets',
      examples: examples.success,
    }),
    errors: [
      MISSING_HOST,
      { code: 'invalid_parameter', when: '`limit`, `status` or `after` is malformed, empty, repeated, or `after` is beyond ±(2^53 − 1).', examples: examples.rejected },
      UNAUTHORIZED,
      INTERNAL_ERROR,
      unavailable('list pets'),
    ],
  };
}

/**
 * The value of `Idempotency-Key` [draft-ietf-httpapi-idempotency-key-header-07 §2.1]: a Structured
 * Field String of printable ASCII with `\"` and `\\` escapes, or (accepted too) an unquoted token.
 */
const IDEMPOTENCY_KEY_PATTERN = '^(?:"(?:[ !#-\\[\\]-~]|\\\\["\\\\])+"|[!#$%&\'*+.^_`|~0-9A-Za-z:/-]+)$';

/** `createPet` [spec 4.2]: validates a NewPet and stores it under a new id. */
function createPet(basePath: string, bodyLimit: number | undefined): OperationDefinition {
  const sizeLimit = bodyLimit === undefined ? 'the server\'s body limit' : `${bodyLimit} bytes`;
  const examples = createPetExamples(basePath, bodyLimit ?? UNSTATED_BODY_LIMIT);
  return {
    path: '/pets',
    method: 'post',
    operation: {
      operationId: 'createPet',
      summary: 'Add an animal',
      tags: ['pets'],
      description: 'Validates the body as a NewPet, reporting every problem at once, and stores it under a new `id` [spec 4.2]. A client that aborts mid-body creates nothing. '
        + `\`Idempotency-Key\`: ${decisionOf('decision-idempotency-key').decision} ${decisionOf('decision-idempotency-key').reason} `
        + 'The body is compared as parsed, so key order and white space do not count.',
      parameters: [{
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: `A key the client makes up for one intended animal, such as a fresh UUID, sent again with every retry of that create [draft-ietf-httpapi-idempotency-key-header-07 §2]: a Structured Field String (\`"…"\`, printable ASCII, \`\\"\` and \`\\\\\` escaped) or, accepted too, an unquoted key of token characters, which means the same key. 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters. An empty, malformed, too long or repeated key is a 400 \`invalid_idempotency_key\`, checked after the API key and before the body.`,
        schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
        examples: examples.idempotencyKeys,
      }],
      requestBody: {
        description: `A NewPet [spec 4.2], sent as \`Content-Type: application/json\` (parameters such as \`charset=utf-8\` allowed), strict UTF-8 (a leading BOM is ignored), at most ${sizeLimit}.`,
        required: true,
        content: { 'application/json': { schema: schemaRef('NewPet'), examples: examples.requestBody } },
      },
    },
    success: jsonSuccess(201, {
      description: 'The animal was added; the body is the Pet with its assigned `id` [spec 4.2].',
      headers: {
        Location: {
          description: `Where the new animal is: \`${basePath}/pets/{id}\`.`,
          required: true,
          schema: { type: 'string', format: 'uri-reference' },
          examples: examples.locations,
        },
        'Idempotent-Replayed': {
          description: 'Present only on the answer to a request that repeats an earlier one with the same `Idempotency-Key` and body: no animal was added now, and the body and `Location` are those of the animal the first request added.',
          required: false,
          schema: { type: 'string', const: 'true' },
          examples: examples.replayedMarks,
        },
      },
      schema: 'Pet',
      examples: examples.success,
    }),
    errors: [
      MISSING_HOST,
      { code: 'invalid_json', when: 'The body is empty, not UTF-8, or not JSON.', examples: examples.invalidJson },
      {
        code: 'validation_failed',
        when: 'The JSON is not a valid NewPet: missing or invalid fields, or unknown ones; `details` lists each problem [spec 4.2, 7].',
        examples: examples.rejected,
      },
      { code: 'invalid_idempotency_key', when: '`Idempotency-Key` is empty, malformed, longer than 255 characters, or sent more than once.', examples: examples.invalidKey },
      UNAUTHORIZED,
      { code: 'idempotency_key_in_use', when: 'A request with this `Idempotency-Key` is still being stored; repeat it after `Retry-After` seconds to receive its animal.', examples: examples.keyInFlight },
      {
        code: 'payload_too_large',
        when: `The body is larger than ${sizeLimit}, judged from \`Content-Length\` or by counting, or arrives in more pieces (chunks, reads) than one per 64 bytes of that limit (at least 1,024). The rest of the body is not read, so the server closes the connection after this answer.`,
        examples: examples.payloadTooLarge,
      },
      { code: 'unsupported_media_type', when: 'The `Content-Type` is not `application/json`.', examples: examples.unsupportedMediaType },
      { code: 'idempotency_key_reused', when: 'This `Idempotency-Key` was already used with another body; nothing was added.', examples: examples.keyReused },
      INTERNAL_ERROR,
      {
        code: 'idempotency_unsupported',
        when: 'The request has `Idempotency-Key`, and the server\'s storage cannot keep keys (a custom storage without insertOnce()); send it without the key, knowing a retry may add a second animal.',
        examples: examples.unsupported,
      },
      unavailable('store the pet'),
      {
        code: 'insufficient_storage',
        when: 'The store is full (RFC 4918 §11.5): it holds as many pets as its capacity allows, by count (`--max-pets`) or by memory. Reads still work; retrying will not help until an operator raises the capacity.',
        examples: examples.insufficientStorage,
      },
    ],
  };
}

/** `getPet` [spec 4.3, 9]: one animal by id; deprecated, and every answer after authentication says so. */
function getPet(basePath: string): OperationDefinition {
  const examples = getPetExamples(basePath);
  const headerExamples = deprecationHeaderExamples(basePath);
  return {
    path: '/pets/{petId}',
    method: 'get',
    operation: {
      operationId: 'getPet',
      summary: 'Get an animal (deprecated)',
      tags: ['pets'],
      description: `Deprecated [spec 4.3, 9]: removed on 5 December 2030; use \`GET ${basePath}/pets\` with the \`status\` filter. Every answer of this operation after authentication, errors included, carries \`Deprecation\`, \`Sunset\` and \`Link: rel="successor-version"\`.`,
      deprecated: true,
    },
    success: jsonSuccess(200, { description: 'The animal [spec 4.3].', schema: 'Pet', examples: examples.success }),
    errors: [
      MISSING_HOST,
      { code: 'invalid_parameter', when: '`petId` is not a decimal integer.', examples: examples.rejected },
      UNAUTHORIZED,
      { code: 'not_found', when: 'No animal has this id [spec 4.3].', examples: examples.notFound },
      INTERNAL_ERROR,
      unavailable('read the pet'),
    ],
    headersOnEveryAnswer: {
      Deprecation: {
        description: `When the operation was deprecated: ${decisionOf('decision-deprecation-date').decision} ${decisionOf('decision-deprecation-date').reason}`,
        required: true,
        schema: { type: 'string', const: `@${GET_PET_DEPRECATED_AT}` },
        examples: headerExamples.Deprecation,
      },
      Sunset: {
        description: 'When the operation is removed [spec 4.3, 9] (RFC 8594).',
        required: true,
        schema: { type: 'string', const: GET_PET_SUNSET },
        examples: headerExamples.Sunset,
      },
      Link: {
        description: 'The replacement (RFC 8288).',
        required: true,
        schema: { type: 'string', const: `<${basePath}/pets>; rel="successor-version"` },
        examples: headerExamples.Link,
      },
    },
  };
}

/** The entity tag of the document's bytes, for `If-None-Match` [RFC 9110 §8.8.3]. */
const ENTITY_TAG_HEADER: OpenApiHeader = {
  description: 'A strong entity tag of the document\'s bytes (base64url SHA-256 of the uncompressed text, with `-gzip` or `-br` appended for a compressed representation, so each has its own); send it back in `If-None-Match` to get a 304 while the document is unchanged.',
  required: true,
  schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{43}(-gzip|-br)?"$' },
  examples: {
    sample: { summary: 'The tag of one version of this document', value: '"m3Yq0h8Vt7c2Lq9nX4pT1bF6sK5dR0wJ8uE2yH7aZ3g"' },
    gzip: { summary: 'The tag of the same version, gzip-compressed', value: '"m3Yq0h8Vt7c2Lq9nX4pT1bF6sK5dR0wJ8uE2yH7aZ3g-gzip"' },
  },
};

/** The answer depends on `Accept-Encoding` [RFC 9110 §12.5.5]; `Origin` too while CORS is on. */
const VARY_HEADER: OpenApiHeader = {
  description: 'The document is sent compressed when the request accepts it, so caches keep one copy per `Accept-Encoding` (and per `Origin` while CORS is on).',
  required: true,
  schema: { type: 'string', pattern: 'Accept-Encoding' },
  examples: { encoding: { summary: 'One copy per accepted coding', value: 'Accept-Encoding' } },
};

/** The coding of a compressed document [RFC 9110 §8.4]. */
const CONTENT_ENCODING_HEADER: OpenApiHeader = {
  description: 'Present when the document is compressed: `br` or `gzip`, whichever the request\'s `Accept-Encoding` prefers among those the server can produce (gzip everywhere; br where the runtime\'s `CompressionStream` has brotli).',
  required: false,
  schema: { type: 'string', enum: ['br', 'gzip'] },
  examples: { gzip: { summary: 'Compressed with gzip', value: 'gzip' } },
};

/** Caches may keep the document but must ask before reusing it [RFC 9111 §5.2.2.4]. */
const REVALIDATE_HEADER: OpenApiHeader = {
  description: 'Caches keep the document but ask again before using it, so a new version shows at once and an unchanged one costs a 304.',
  required: true,
  schema: { type: 'string', const: 'no-cache' },
  examples: { revalidate: { summary: 'Revalidate before each use', value: 'no-cache' } },
};

/** `getOpenApiDescription`: this document, public like the interface it describes. */
function getOpenApiDescription(): OperationDefinition {
  return {
    path: '/openapi.json',
    method: 'get',
    operation: {
      operationId: 'getOpenApiDescription',
      summary: 'This description',
      tags: ['openapi'],
      description: 'The OpenAPI 3.1 description of the interface, served without a key, compressed when the request accepts gzip or br. Sent with an `ETag`; a request whose `If-None-Match` names it (or is `*`) gets a 304 without a body.',
      security: [],
    },
    success: {
      status: 200,
      response: {
        description: 'This document.',
        headers: { ETag: ENTITY_TAG_HEADER, 'Cache-Control': REVALIDATE_HEADER, Vary: VARY_HEADER, 'Content-Encoding': CONTENT_ENCODING_HEADER },
        content: { 'application/json': { schema: schemaRef('OpenApiDescription'), examples: DESCRIPTION_EXAMPLES } },
      },
    },
    unchanged: {
      status: 304,
      response: {
        description: 'The request\'s `If-None-Match` names this document\'s `ETag` (or is `*`): the copy the client holds is current, and no body is sent (RFC 9110 §13.1.2).',
        headers: { ETag: ENTITY_TAG_HEADER, 'Cache-Control': REVALIDATE_HEADER, Vary: VARY_HEADER },
      },
    },
    errors: [MISSING_HOST],
  };
}

/** Every operation of the interface [spec 4] and the description's, as the HTTP handler answers them. */
export function operationDefinitions(context: OperationContext): OperationDefinition[] {
  const { basePath, bodyLimit } = context;
  return [listPets(basePath), createPet(basePath, bodyLimit), getPet(basePath), getOpenApiDescription()];
}
