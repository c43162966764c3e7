import { VERSION_PATH } from '../../../lib/index.js';
import { DEFAULT_BODY_LIMIT } from '../../../server/core/index.js';
import { CONSTANT_VALUES, fillData, filledDecisions } from './fill.js';
import TEMPLATE from './openapi.template.json' with { type: 'json' };
import type { JsonValue, OpenApiDocument } from './types.js';

/** Options of createOpenApiDocument. */
export interface OpenApiDocumentOptions {
  /** Path prefix the operations are served under; `''` when a host framework mounts them. Default `/v1`. */
  basePath?: string;
  /** Largest request body in bytes, stated in `createPet`; unstated when not given. */
  bodyLimit?: number;
}

/** The name of the bearer security scheme [spec 5]. */
export const SECURITY_SCHEME = 'bearerAuth';

/** The texts of the decisions by `{{decision-….decision}}` and `{{decision-….reason}}`, as the document quotes them. */
function decisionValues(): Record<string, JsonValue> {
  const decisions = filledDecisions(DEFAULT_BODY_LIMIT);
  return Object.fromEntries(decisions.flatMap(({ id, decision, reason }) => [[`${id}.decision`, decision], [`${id}.reason`, reason]]));
}

/**
 * The OpenAPI 3.1 description of the interface: openapi.template.json, with its limits, versioning and
 * error codes filled from the package's public constants, its decisions from decisions.json, and the
 * base path and body limit of this handler. test/extras/docs-site/openapi-examples-replay.test.ts sends
 * every example to real servers, so no example can state an answer the server does not give.
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const basePath = options.basePath ?? VERSION_PATH;
  const { bodyLimit } = options;
  const values = {
    ...CONSTANT_VALUES,
    ...decisionValues(),
    basePath,
    // OpenAPI 3.1 §4.8.5: a relative URL is resolved against where this document is served.
    serverUrl: basePath === '' ? '.' : basePath,
    bodyLimitText: bodyLimit === undefined ? 'the server\'s body limit' : `${bodyLimit} bytes`,
    exampleBodyLimit: bodyLimit ?? DEFAULT_BODY_LIMIT,
  };
  // The template is the checked data of this folder, and the tests validate the filled document as OpenAPI 3.1.
  return fillData(TEMPLATE, values) as unknown as OpenApiDocument;
}
