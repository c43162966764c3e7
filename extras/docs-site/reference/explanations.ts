import { DEFAULT_BODY_LIMIT, ORDER_OF_CHECKS } from '../../../server/core/index.js';
import { referenceDecisions } from './decisions.js';
import type { AnswerShaped } from './decisions.js';

/** One check of ORDER_OF_CHECKS as the console's explanation reads it. */
export interface CheckView {
  /** As the documents quote it: `auth (401)`. */
  readonly check: string;
  /** The sections of the interface it holds (`5.4`), or the RFC (`RFC 9112 §3.2`). */
  readonly clause: string;
  /** The one operation it runs on, when it reads a body. */
  readonly operation?: string;
  /** The error status its refusal answers, and the Error `code` when the check names one. */
  readonly status?: number;
  readonly code?: string;
  /** What gets a request past it, in the documents' markup. */
  readonly past?: string;
}

/** The refusal a check's text names, `(415)` or `(400 \`invalid_json\`)`, as `415` or `400 invalid_json`; undefined for a check that answers a success. */
export function refusalOf(check: string): string | undefined {
  const match = /\(([45]\d\d)(?: `(\w+)`)?/.exec(check);
  if (match?.[1] === undefined) return undefined;
  return match[2] === undefined ? match[1] : `${match[1]} ${match[2]}`;
}

/**
 * For each refusal of ORDER_OF_CHECKS, one line on what gets a request past it: advice, not a rule (the rules are the list and
 * the answer). test/extras/docs-site/reference/explanations.test.ts fails when a refusal has no line here.
 */
export const PAST_EACH_CHECK: Readonly<Record<string, string>> = {
  400: 'Send exactly one valid `Host`: a host name or address and an optional port.',
  401: 'Send a key the server knows, as `Authorization: Bearer …`: type it in the API key field at the top of the page.',
  404: 'Send the request to a path of the interface under the base path: `/pets` or `/pets/{petId}`.',
  405: 'Use a method the path answers: the answer\'s `Allow` lists them.',
  '400 invalid_idempotency_key': 'Send the key as a Structured Field String, `"…"`, of 1 to 255 printable characters (*New key* makes one), or leave the field empty.',
  415: 'Send the body as `Content-Type: application/json` (this console always does; curl needs the header).',
  413: 'Send a smaller body: the limit is the decision below.',
  '400 invalid_json': 'Send a body that is JSON: the message says where it stops being so.',
  '400 validation_failed': 'Fix each problem below, one per field, each with the rule it breaks; then send again.',
};

/** The checks, in their order, with what the explanation shows of each. */
export function checkViews(): CheckView[] {
  return ORDER_OF_CHECKS.map(([check, clause, operation]) => {
    const refusal = refusalOf(check);
    const [status, code] = refusal === undefined ? [] : refusal.split(' ');
    const past = refusal === undefined ? undefined : PAST_EACH_CHECK[refusal];
    return {
      check,
      clause,
      ...(operation === undefined ? {} : { operation }),
      ...(status === undefined ? {} : { status: Number(status) }),
      ...(code === undefined ? {} : { code }),
      ...(past === undefined ? {} : { past }),
    };
  });
}

/** Each decision that shapes answers, by its anchor on the page, with those answers; the console reads its text from the page. */
export function shapedAnswers(): [string, readonly AnswerShaped[]][] {
  // Which answers a decision shapes does not depend on the body limit its text states.
  return referenceDecisions({ bodyLimit: DEFAULT_BODY_LIMIT }).flatMap((decision) => (decision.answers === undefined ? [] : [[decision.id, decision.answers]]));
}
