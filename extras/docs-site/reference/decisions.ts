import { DEFAULT_BODY_LIMIT } from '../../../server/core/index.js';
import { filledDecisions } from '../openapi/fill.js';

/**
 * One place where the interface is silent and the project decided (extras/docs-site/openapi/decisions.json): the question, the
 * decision and why, in the documents' markup (`backticks` for code). The OpenAPI document and docs/spec-conformance.md quote them.
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

/** What the decisions' texts, and so the reference page, depend on beyond the library's constants. */
export interface DecisionContext {
  /** The body limit of this handler, in bytes. */
  bodyLimit: number;
}

/** The decisions where the interface is silent, their numbers filled from the constants the server applies. */
export function referenceDecisions(context: DecisionContext): readonly Decision[] {
  // decisions.json is this package's checked data; test/docs/decisions.test.ts holds its shape and texts.
  return filledDecisions(context.bodyLimit) as unknown as readonly Decision[];
}

/** Names of the decisions, by their anchors on the reference page. */
export type DecisionId = `decision-${string}`;

/** One decision by its id, its texts for this body limit (the default one unless given); throws for an id there is none of. */
export function decisionOf(id: DecisionId, context: DecisionContext = { bodyLimit: DEFAULT_BODY_LIMIT }): Decision {
  const found = referenceDecisions(context).find((decision) => decision.id === id);
  if (found === undefined) throw new Error(`There is no decision ${id}`);
  return found;
}
