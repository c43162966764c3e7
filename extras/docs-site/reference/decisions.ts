import { ERROR_CODES, GET_PET_DEPRECATED_AT, MAX_LIMIT, MAX_NAME_LENGTH, MIN_LIMIT, NEW_PET_FIELDS } from '../../../lib/index.js';
import { DEFAULT_BODY_LIMIT, ORDER_OF_CHECKS } from '../../../server/core/index.js';

/**
 * One place where the interface is silent and the project decided: the question, the decision, and
 * why. This module is where they are written: the reference page shows them, the OpenAPI document
 * takes its descriptions of these choices from `decisionOf`, and docs/spec-conformance.md's row of each
 * starts with its decision and reason word for word (test/docs/decisions.test.ts holds the three
 * together). Texts use the documents' markup: `backticks` for code.
 */
export interface Decision {
  /** The anchor on the page, `decision-…`. */
  readonly id: string;
  readonly question: string;
  readonly decision: string;
  readonly reason: string;
  /** The sections of the interface the question is about, e.g. `4.1, 8`; the page cites them as the code does. */
  readonly spec: string;
  /** The operations whose sections link to it. */
  readonly operations: readonly string[];
  /** The answers it shapes, which the console marks with its text. */
  readonly answers?: readonly AnswerShaped[];
}

/** An answer a decision shapes, as the console reads it from the answer: every field given holds. */
export interface AnswerShaped {
  readonly status?: number;
  /** The Error body's `code`; `*` for any. */
  readonly code?: string;
  /** The operation whose console sent the request. */
  readonly operation?: string;
  /** A header the answer carries. */
  readonly header?: string;
  /** A field an entry of the Error body's `details` names. */
  readonly field?: string;
  /** An entry of `details` names a field other than these. */
  readonly fieldNotIn?: readonly string[];
  /** A field the answer's JSON object lacks. */
  readonly lacks?: string;
}

/** What the decisions' texts depend on beyond the library's constants. */
export interface DecisionContext {
  /** The body limit of this handler, in bytes. */
  bodyLimit: number;
}

const ALL_OPERATIONS = ['listPets', 'createPet', 'getPet'];

/** A size in bytes as people read it: `65536 bytes (64 KiB)`. */
function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes} bytes (${bytes / 1024} KiB)` : `${bytes} bytes`;
}

/**
 * The decisions where the interface is silent, with the numbers taken from the constants the engine
 * and the handler use, so no text states a limit the server does not apply.
 */
export function referenceDecisions(context: DecisionContext): readonly Decision[] {
  const deprecatedAt = new Date(GET_PET_DEPRECATED_AT * 1000).toISOString().replace('.000Z', 'Z');
  return [
    {
      id: 'decision-limit',
      question: '`limit` outside 1..100',
      decision: `Any decimal integer is clamped into ${MIN_LIMIT}..${MAX_LIMIT}, not rejected: \`limit=0\` answers one animal, \`limit=1000\` a hundred. A value that is not a decimal integer, an empty one or a repeated one is a 400 \`invalid_parameter\`.`,
      reason: 'The interface gives a minimum and a maximum but not what happens beyond them: they bound what is answered, and a client asking for too many still gets a useful page.',
      spec: '4.1, 8',
      operations: ['listPets'],
      answers: [{ code: 'invalid_parameter', operation: 'listPets' }],
    },
    {
      id: 'decision-paging',
      question: 'Paging past the first 100',
      decision: 'An `after` cursor: only animals whose `id` is greater. When more animals match, the answer carries `Link: <…/pets?limit=N&after=LAST_ID>; rel="next"` (RFC 8288); the body stays the plain array.',
      reason: 'The interface shows no paging beyond `limit`, so no more than 100 animals could ever be read. An id cursor never skips or repeats an animal while others are added, and a header leaves the body as the interface shows it.',
      spec: '4.1, 4.4',
      operations: ['listPets'],
      answers: [{ operation: 'listPets', header: 'Link' }],
    },
    {
      id: 'decision-query',
      question: 'Unknown, repeated or empty query parameters',
      decision: 'Unknown parameters are ignored; a repeated or empty `limit`, `status` or `after` is a 400 `invalid_parameter`.',
      reason: 'Ignoring unknown ones lets a client send the parameters of a later version; guessing which of two values was meant would hide the client\'s bug.',
      spec: '4.1',
      operations: ['listPets'],
      answers: [{ code: 'invalid_parameter', operation: 'listPets' }],
    },
    {
      id: 'decision-default-status',
      question: 'Default `status`',
      decision: 'None: an animal added without `status` has none, in the answer and in storage.',
      reason: 'The interface gives no default, and inventing one would state an availability nobody stated.',
      spec: '2',
      operations: ['createPet'],
      answers: [{ status: 201, lacks: 'status' }],
    },
    {
      id: 'decision-unknown-fields',
      question: 'Unknown fields (`id`, `__proto__`, …)',
      decision: 'Rejected as a 400 `validation_failed`, `id` included.',
      reason: 'The `id` is the service\'s to assign, and silently dropping a misspelt field hides the client\'s bug.',
      spec: '2, 4.2',
      operations: ['createPet'],
      answers: [{ code: 'validation_failed', fieldNotIn: NEW_PET_FIELDS }],
    },
    {
      id: 'decision-every-problem',
      question: 'Every problem or the first?',
      decision: 'Every problem at once, one entry each in `details` (at most 20).',
      reason: 'A client fixes its body in one round trip.',
      spec: '4.2, 7',
      operations: ['createPet'],
      answers: [{ code: 'validation_failed' }],
    },
    {
      id: 'decision-name',
      question: 'Name length and content',
      decision: `1 to ${MAX_NAME_LENGTH} code points, not only white space, stored exactly as sent; U+0000 and lone surrogates are rejected.`,
      reason: 'The interface gives no bound. A bound keeps answers small, and no storage keeps U+0000 or a lone surrogate faithfully.',
      spec: '2',
      operations: ['createPet'],
      answers: [{ code: 'validation_failed', field: 'name' }],
    },
    {
      id: 'decision-category-id',
      question: '`categoryId` beyond ±(2^53 − 1), though int64',
      decision: 'Rejected, never rounded. No category is looked up: any integer within ±(2^53 − 1) is accepted, and `1.0`, `1e2` and `-0` are the integers 1, 100 and 0.',
      reason: 'A JSON number cannot carry larger integers exactly in JavaScript, and silently changing an id is worse than refusing it. The interface shows categories only as this reference, and JSON has one number type.',
      spec: '2',
      operations: ['createPet'],
      answers: [{ code: 'validation_failed', field: 'categoryId' }],
    },
    {
      id: 'decision-body-limit',
      question: 'Request size limit',
      decision: `A body may hold at most ${sizeText(context.bodyLimit)}; a larger one is a 413 \`payload_too_large\`, judged from \`Content-Length\` or by counting, and the connection is closed.`,
      reason: 'The interface states no limit. A NewPet is well under 1 KiB, and a bound keeps one client from filling the server\'s memory.',
      spec: '8',
      operations: ['createPet'],
      answers: [{ status: 413 }],
    },
    {
      id: 'decision-pet-id',
      question: '`petId` forms',
      decision: 'Any decimal integer, leading zeros included. Integers no animal can have (0, negative, beyond 2^53 − 1) are a 404 `not_found`; anything else is a 400 `invalid_parameter`.',
      reason: 'Such an id is well formed and merely absent, while `abc` is no id at all.',
      spec: '4.3',
      operations: ['getPet'],
      answers: [{ status: 404, operation: 'getPet', header: 'Deprecation' }, { code: 'invalid_parameter', operation: 'getPet' }],
    },
    {
      id: 'decision-deprecation-date',
      question: 'Deprecation date of `getPet`',
      decision: `\`Deprecation: @${GET_PET_DEPRECATED_AT}\` (${deprecatedAt}, RFC 9745), beside \`Sunset\` (RFC 8594) and \`Link: rel="successor-version"\`.`,
      reason: 'The interface gives only the removal date.',
      spec: '4.3, 9',
      operations: ['getPet'],
      answers: [{ operation: 'getPet', header: 'Deprecation' }],
    },
    {
      id: 'decision-deprecation-headers',
      question: 'Which `getPet` answers carry the deprecation headers',
      decision: 'Every answer after authentication, errors included; not the 401, which is sent before the operation is known.',
      reason: 'A client that only ever sees errors still learns of the removal, and a 401 reveals nothing about paths.',
      spec: '4.3, 5.4',
      operations: ['getPet'],
      answers: [{ operation: 'getPet', header: 'Deprecation' }, { status: 401, operation: 'getPet' }],
    },
    {
      id: 'decision-error-codes',
      question: 'Error `code` values',
      decision: `${Object.keys(ERROR_CODES).length} codes, each sent with one HTTP status, all listed in the table of error codes.`,
      reason: 'The interface names `code` but lists no values; a fixed set lets a client act on the code rather than on the message.',
      spec: '2, 7',
      operations: ALL_OPERATIONS,
      answers: [{ code: '*' }],
    },
    {
      id: 'decision-order-of-checks',
      question: 'Order of checks',
      decision: `${ORDER_OF_CHECKS.map(([check]) => check).join(' → ')}.`,
      reason: 'An unauthenticated client learns nothing, every client sees its most fundamental problem first, and a request refused on its head never has its body read.',
      spec: '5.4, 7',
      operations: ALL_OPERATIONS,
    },
    {
      id: 'decision-idempotency-key',
      question: '`Idempotency-Key` on `createPet`',
      decision: 'An extension after draft-ietf-httpapi-idempotency-key-header-07: the same key and body again answer `201` with the first pet, its `Location` and `Idempotent-Replayed: true`; the key with another body is a `422 idempotency_key_reused`; the key while its first create is being stored is a `409 idempotency_key_in_use` with `Retry-After`. Keys are global and kept as long as their pet.',
      reason: 'A client whose connection broke after the pet was stored cannot tell whether it exists; with a key, its retry is safe. API keys are rotation credentials, not accounts, so a retry across a rotation must still find its pet.',
      spec: '4.2',
      operations: ['createPet'],
      answers: [{ code: 'invalid_idempotency_key' }, { header: 'Idempotent-Replayed' }, { status: 409 }, { status: 422 }],
    },
    {
      id: 'decision-public',
      question: 'Requests served without a key',
      decision: '`OPTIONS` on a known path; `GET` and `HEAD` of the description (`…/openapi.json`), of the reference page (`…/docs`) and of the interface\'s text (`…/docs/interface`); the standalone server\'s `/`, `/healthz`, `/readyz`, and `/metrics` when it is turned on.',
      reason: 'They reveal nothing beyond the public interface, and a browser\'s CORS preflight never carries a key.',
      spec: '5.1',
      operations: [],
    },
    {
      id: 'decision-unexpected-failures',
      question: 'Unexpected failures',
      decision: 'Anything thrown that is not a `PetstoreError`, and a `PetstoreError` of code `internal_error` (a storage handing back an id out of range, say), is a generic 500 `internal_error` whose detail goes to the server\'s log only. Every other `PetstoreError` keeps its code and message: a storage that cannot answer is a 503 `unavailable`.',
      reason: 'Internal details help an attacker, not a client; a 503 tells a client that a retry may succeed.',
      spec: '7',
      operations: ALL_OPERATIONS,
      answers: [{ status: 500 }, { status: 503 }],
    },
    {
      id: 'decision-head',
      question: '`HEAD`',
      decision: 'Answered wherever `GET` is, with the same status and headers and no body.',
      reason: 'RFC 9110 §9.3.2 asks it of every server.',
      spec: '4',
      operations: ['listPets', 'getPet'],
    },
    {
      id: 'decision-key-rotation',
      question: 'Key rotation',
      decision: 'Several keys are accepted at once, each compared in constant time.',
      reason: 'A new key can be handed out before the old one is withdrawn.',
      spec: '5',
      operations: [],
    },
    {
      id: 'decision-quickstart-home',
      question: 'Where the quickstart `POST /messages` lives',
      decision: 'In a server of its own, `examples/quickstart-messages.ts` (`npx tsx examples/quickstart-messages.ts` in a clone); `POST /v1/messages` here is a `404`.',
      reason: 'The interface gives the quickstart another example address and calls it a template, separate from the pet operations.',
      spec: '4.4',
      operations: [],
    },
    {
      id: 'decision-quickstart-errors',
      question: 'The quickstart\'s answer to another media type or a large body',
      decision: 'A `400`: `invalid_json` for a media type other than `application/json`, `validation_failed` for a body over its limit; never `415` or `413`.',
      reason: 'Its errors are only `401` and `400`. A request other than `POST /messages` is not its operation, and gets the `404` or `405` the Petstore answers.',
      spec: '4.4',
      operations: [],
    },
    {
      id: 'decision-rate-limits',
      question: 'Rate limits',
      decision: 'None in the reference.',
      reason: 'They depend on the deployment and belong in front of it.',
      spec: '8',
      operations: [],
    },
  ];
}

/** Names of the decisions, by their anchors on the reference page. */
export type DecisionId = `decision-${string}`;

/** One decision by its id, its texts for this body limit (the default one unless given); throws for an id there is none of. */
export function decisionOf(id: DecisionId, context: DecisionContext = { bodyLimit: DEFAULT_BODY_LIMIT }): Decision {
  const found = referenceDecisions(context).find((decision) => decision.id === id);
  if (found === undefined) throw new Error(`There is no decision ${id}`);
  return found;
}
